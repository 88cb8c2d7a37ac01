package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.AsyncChain;
import dev.tickwheel.bench.ChildJvm;
import dev.tickwheel.bench.ExpiryBenchmark;
import dev.tickwheel.bench.FiringShots;
import dev.tickwheel.bench.Peer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 8, issue 23's firing path, each configuration in a child JVM: the expiry shot by {@link FiringShots}
 * (its fire rate and its lag, Tickwheel's default builder against Netty 1 ms, each in several JVMs interleaved with
 * the other peer's, every figure the median of those JVMs' medians; each JVM's shot is printed in a note), the worker
 * sweep (the same shot with 1 to 32 workers, every size in turn in each of several JVMs, each size's figure the median
 * of its JVMs' medians, and the spread of those figures),
 * and the 1,000-step {@code CompletableFuture} chain by {@link AsyncChain} on Tickwheel's default pool and on the
 * JDK's executor of the same size, each in several child JVMs interleaved with the other's (the row is the median of
 * their medians; each JVM's is printed in a note).
 */
final class FiringScenario extends Scenario {
    /**
     * Bytes a command past the rings costs in JCTools' linked chunks: a chunk of 1,024 commands is an array of 1,025
     * references (the last links the next chunk), 4 bytes each with the compressed references of the benchmarks'
     * 1 GB heaps, plus its 16-byte header.
     */
    static final double CHUNK_BYTES_PER_COMMAND = (16 + 4.0 * 1025) / 1024;
    /** Rounds of every pool size in one sweep JVM (forward, then backward). */
    static final int SWEEP_ROUNDS_PER_JVM = 2;

    FiringScenario() {
        super(8, "8 firing path (expiry lag, worker sweep, async chain)",
                s -> s.firingPeers.size() * s.firingProducers.split(",").length * s.firingRounds
                        + s.sweepRounds + 2 * s.chainRounds);
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) {
        String shots = s.firingWarmup + " warm-up + " + s.firingShots + " shots, medians"
                + (s.firingRounds > 1 ? "; median of " + s.firingRounds + " interleaved JVMs" : "");
        String[] producerCounts = s.firingProducers.split(",");
        List<Peer> peers = s.firingPeers;
        // Each configuration in several JVMs, peers alternated round by round: one JVM's shots are steady, but JVM to
        // JVM the same code reads up to 1.3x apart on this machine (the JIT's choices), which one JVM a peer cannot
        // tell from a difference between peers.
        Map<String, List<Map<String, String>>> shotRuns = new LinkedHashMap<>();
        for (int round = 0; round < s.firingRounds; round++) {
            for (String producers : producerCounts) {
                for (int k = 0; k < peers.size(); k++) {
                    Peer peer = peers.get(round % 2 == 0 ? k : peers.size() - 1 - k);
                    shotRuns.computeIfAbsent(producers + "/" + peer.name(), x -> new ArrayList<>())
                            .add(shot(s, peer, producers));
                }
            }
        }
        List<String> perJvm = new ArrayList<>();
        for (String producers : producerCounts) {
            int p = Integer.parseInt(producers);
            String label = "expiry shot, 1M timers due within 100 ms, " + Format.producers(p) + " (" + shots + ")";
            for (Peer peer : peers) {
                List<Map<String, String>> rs = shotRuns.get(producers + "/" + peer.name());
                Map<String, String> r = medians(rs);
                double ms = Double.parseDouble(r.get("shotMedianMs"));
                if (rs.size() > 1) {
                    StringBuilder ms1 = new StringBuilder();
                    for (Map<String, String> one : rs) {
                        ms1.append(ms1.length() == 0 ? "" : " / ").append(String.format("%.0f",
                                Double.parseDouble(one.get("shotMedianMs"))));
                    }
                    perJvm.add(peer.label() + ", " + Format.producers(p) + ": " + ms1);
                }
                results.row(Metric.FIRING_RATE, 0, p, label).put(peer, ExpiryBenchmark.TIMERS / (ms / 1000.0) / 1e6);
                String first = r.get("firstShotsMedianMs");
                if (first != null && !first.equals("-")) {
                    results.row(Metric.FIRING_WARMUP, 0, p, "the same shot in a fresh JVM, its first "
                            + FiringShots.FIRST_SHOTS + " shots (the JIT's warm-up; median), " + Format.producers(p))
                            .put(peer, ExpiryBenchmark.TIMERS / (Double.parseDouble(first) / 1000.0) / 1e6);
                }
                results.row(Metric.EXPIRY_LAG, 0, p, "lag of the shot's last fire, " + Format.producers(p))
                        .put(peer, Double.parseDouble(r.get("lagMedianMs")));
                results.row(Metric.EXPIRY_LAG_FLOOR, 0, p, "lag floor: what the shot's own CPU allows at best, "
                        + Format.producers(p)).put(peer, Double.parseDouble(r.get("lagFloorMedianMs")));
                String loop = r.get("loopMedianMs");
                if (loop != null) {
                    results.row(Metric.FIRING_LOOP, 0, p, "the producers' loop in the shot, wall time, "
                            + Format.producers(p)).put(peer, Double.parseDouble(loop));
                    results.row(Metric.FIRING_LOOP_CPU, 0, p, "the producers' own CPU in that loop, "
                            + Format.producers(p)).put(peer, FiringShots.loopCpuMs(r));
                }
                double owner = Double.parseDouble(r.get("ownerCpuNs"));
                double pool = Double.parseDouble(r.get("poolCpuNs"));
                double loops = Double.parseDouble(r.get("producerCpuNs"));
                results.row(Metric.FIRING_CPU, 0, p, "CPU per fired timer, timer threads + producers, "
                        + Format.producers(p)).put(peer, owner + pool + loops);
                // Where it goes: Tickwheel's owner keeps the wheel and hands the due timers off; its pool runs them.
                // Netty's one thread does both, and counts as the thread that runs the tasks. A peer without such a
                // thread reads 0 there, and the row leaves it out.
                Row ownerPart = results.row(Metric.FIRING_CPU_PART, 1, p, "of which the timer's owner thread (the"
                        + " wheel and the hand-off; Netty has none), " + Format.producers(p));
                if (owner > 0) {
                    ownerPart.put(peer, owner);
                }
                Row poolPart = results.row(Metric.FIRING_CPU_PART, 2, p, "of which the threads that run the tasks"
                        + " (Tickwheel's pool; Netty's one thread, its wheel too), " + Format.producers(p));
                if (pool > 0) {
                    poolPart.put(peer, pool);
                }
                results.row(Metric.FIRING_CPU_PART, 3, p, "of which the producers' loop, " + Format.producers(p))
                        .put(peer, loops);
                String spills = r.get("spillsPer1M");
                if (spills != null && !spills.equals("-")) {
                    results.row(Metric.FIRING_CHUNK_BYTES, 0, p, "command-queue chunks per fired timer (the starts past"
                            + " the rings, " + String.format("%.2f", CHUNK_BYTES_PER_COMMAND) + " B each), "
                            + Format.producers(p)).put(peer, Double.parseDouble(spills) / 1e6 * CHUNK_BYTES_PER_COMMAND);
                }
            }
        }
        if (!perJvm.isEmpty()) {
            results.note("expiry shot, each JVM's median (ms, interleaved): " + String.join("; ", perJvm));
        }
        String[] sizes = s.sweepWorkers.split(",");
        double[][] rounds = new double[sizes.length][s.sweepRounds];
        for (int r = 0; r < s.sweepRounds; r++) {
            // Every size in each JVM, in turn (FiringShots.sweepChild): the JVM's own speed falls on all of them.
            List<Map<String, String>> rs = ChildJvm.run(FiringShots.class, List.of("--sweep", s.sweepWorkers,
                    "--rounds", Integer.toString(SWEEP_ROUNDS_PER_JVM), "--shots", Integer.toString(s.firingShots),
                    "--warmup", Integer.toString(s.firingWarmup)));
            Map<Integer, Double> medians = FiringShots.sweepMedians(rs.get(rs.size() - 1).get("sweepMs"));
            for (int i = 0; i < sizes.length; i++) {
                rounds[i][r] = medians.get(Integer.parseInt(sizes[i]));
            }
        }
        double fastest = Double.POSITIVE_INFINITY;
        double slowest = 0;
        for (int i = 0; i < sizes.length; i++) {
            double ms = FiringShots.median(rounds[i]);
            results.row(Metric.WORKER_SWEEP, Long.parseLong(sizes[i]), 1, "worker sweep: the shot with " + sizes[i]
                    + " workers, 1 producer (median of " + s.sweepRounds + " JVMs, each running every size in turn)")
                    .put(Peer.TICKWHEEL, ms);
            fastest = Math.min(fastest, ms);
            slowest = Math.max(slowest, ms);
        }
        results.row(Metric.SWEEP_SPREAD, "worker sweep: slowest shot over fastest").put(Peer.TICKWHEEL,
                slowest / fastest);
        // The noise beside it: how far one pool size's own medians are apart (the same code, JVM to JVM).
        double noise = 1;
        StringBuilder runs = new StringBuilder();
        for (int i = 0; i < sizes.length; i++) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = 0;
            for (double ms : rounds[i]) {
                lo = Math.min(lo, ms);
                hi = Math.max(hi, ms);
            }
            noise = Math.max(noise, hi / lo);
            runs.append(i == 0 ? "" : "; ").append(sizes[i]).append(": ");
            for (int r = 0; r < rounds[i].length; r++) {
                runs.append(r == 0 ? "" : " / ").append(String.format("%.0f", rounds[i][r]));
            }
        }
        results.note(String.format("worker sweep, each size's median in each JVM (ms): %s; the widest spread of one"
                + " size's own JVMs: %.2fx", runs, noise));
        String[] executors = {"TICKWHEEL", "JDK_STPE_N"};
        double[][] chains = new double[executors.length][s.chainRounds];
        double[][] firstChains = new double[executors.length][s.chainRounds];
        for (int r = 0; r < s.chainRounds; r++) {
            for (int k = 0; k < executors.length; k++) {
                int e = r % 2 == 0 ? k : executors.length - 1 - k; // alternate which executor goes first
                Map<String, String> m = chain(s, executors[e]);
                chains[e][r] = Double.parseDouble(m.get("medianMs"));
                firstChains[e][r] = Double.parseDouble(m.get("firstMedianMs"));
            }
        }
        String chain = "1,000-step CompletableFuture async chain, median of " + s.chainRounds + " JVMs' medians of "
                + s.chainRuns + " chains after " + s.chainWarmup + " (STPE of the same size)";
        results.row(Metric.CHAIN, chain).put(Peer.TICKWHEEL, FiringShots.median(chains[0]));
        results.row(Metric.CHAIN, chain).put(Peer.JDK_STPE, FiringShots.median(chains[1]));
        String first = "the same chain in the same JVMs after only " + s.chainFirstWarmup + " chains (a JVM's first"
                + " half second, its JIT still compiling)";
        results.row(Metric.CHAIN_FIRST, first).put(Peer.TICKWHEEL, FiringShots.median(firstChains[0]));
        results.row(Metric.CHAIN_FIRST, first).put(Peer.JDK_STPE, FiringShots.median(firstChains[1]));
        results.note("async chain, each JVM's median (ms, interleaved): " + eachJvm(chains, s.chainRounds)
                + "; after only " + s.chainFirstWarmup + " chains: " + eachJvm(firstChains, s.chainRounds));
    }

    private static String eachJvm(double[][] chains, int rounds) {
        StringBuilder each = new StringBuilder();
        for (int e = 0; e < chains.length; e++) {
            each.append(e == 0 ? "Tickwheel " : ", STPE ");
            for (int r = 0; r < rounds; r++) {
                each.append(r == 0 ? "" : " / ").append(String.format("%.3f", chains[e][r]));
            }
        }
        return each.toString();
    }

    /**
     * The median of each numeric field over the runs (a field that is not a number in every run, such as "-", is kept
     * from the first run); one run is returned as it is.
     */
    static Map<String, String> medians(List<Map<String, String>> runs) {
        if (runs.size() == 1) {
            return runs.get(0);
        }
        Map<String, String> out = new LinkedHashMap<>(runs.get(0));
        for (String key : runs.get(0).keySet()) {
            double[] v = new double[runs.size()];
            boolean numeric = true;
            for (int i = 0; i < v.length && numeric; i++) {
                String x = runs.get(i).get(key);
                try {
                    v[i] = x == null ? Double.NaN : Double.parseDouble(x);
                    numeric = !Double.isNaN(v[i]);
                } catch (NumberFormatException e) {
                    numeric = false;
                }
            }
            if (numeric) {
                out.put(key, Double.toString(FiringShots.median(v)));
            }
        }
        return out;
    }

    /** One peer's expiry shots with its own builder's pool (not a sweep size), in a child JVM. */
    private static Map<String, String> shot(Settings s, Peer peer, String producers) {
        List<Map<String, String>> rs = ChildJvm.run(FiringShots.class, List.of("--child", "true", "--peer",
                peer.name(), "--workers", "0", "--producers", producers, "--shots",
                Integer.toString(s.firingShots), "--warmup", Integer.toString(s.firingWarmup)));
        return rs.get(rs.size() - 1);
    }

    /** One executor's chains in a child JVM: its two windows' medians ({@code firstMedianMs}, {@code medianMs}). */
    private static Map<String, String> chain(Settings s, String executor) {
        List<Map<String, String>> rs = ChildJvm.run(AsyncChain.class, List.of("--executor", executor, "--chains",
                Integer.toString(s.chainRuns), "--warmup", Integer.toString(s.chainWarmup), "--first-warmup",
                Integer.toString(s.chainFirstWarmup)));
        return rs.get(rs.size() - 1);
    }
}

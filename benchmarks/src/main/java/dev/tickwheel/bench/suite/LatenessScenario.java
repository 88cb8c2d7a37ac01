package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.BusyNeighbours;
import dev.tickwheel.bench.ChildJvm;
import dev.tickwheel.bench.FiringLateness;
import dev.tickwheel.bench.FiringShots;
import dev.tickwheel.bench.Peer;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Scenario 4 ({@link FiringLateness}, a child JVM per peer): how late probe timers fire beside a load of starts and
 * cancels, and how many fire early; early and missing probes are also noted. Then the rows the lateness targets are
 * judged on: Tickwheel and the JDK's STPE in interleaved child JVMs (the same number of each, the first alternating),
 * quiet and then with busy processes beside, each percentile the median of the runs' figures (each run listed in a
 * note), since one run's tail moves by several times from JVM to JVM on shared cores. The table of every peer warms
 * up for {@code Settings.latenessWarmup} seconds (a JVM's first seconds, its JIT still compiling); the judged runs
 * for {@code Settings.latenessJudgedWarmup} (the steady state the targets are about).
 */
final class LatenessScenario extends Scenario {
    private static final String UNDER = " (100k start+cancel/s beside, a JVM's first seconds)";

    LatenessScenario() {
        super(4, "4 firing lateness", s -> s.latenessPeers.size() + (s.latenessRounds > 0 ? 4 * s.latenessRounds : 0));
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) throws IOException {
        for (Map<String, String> r : FiringLateness.runAll(s.latenessPeers, s.latenessWarmup, s.latenessSeconds)) {
            Peer peer = peer(r);
            put(results, Metric.LATENESS_P50, "lateness p50" + UNDER, peer, r.get("p50ms"));
            put(results, Metric.LATENESS_P99, "lateness p99" + UNDER, peer, r.get("p99ms"));
            put(results, Metric.LATENESS_P999, "lateness p99.9" + UNDER, peer, r.get("p999ms"));
            put(results, Metric.LATENESS_MAX, "lateness max" + UNDER, peer, r.get("maxms"));
            put(results, Metric.EARLY_FIRES, "early fires (of the probes above)", peer, r.get("early"));
            if (!"-".equals(r.getOrDefault("ownP50ms", "-"))) {
                // The timer's own record of the same probes (its lateness histogram), one row per percentile.
                String own = "the timer's own record (TimerMetrics.lateness()) of the probes above: ";
                results.row(Metric.OWN_LATENESS, 50, 0, own + "p50").put(peer, Double.parseDouble(r.get("ownP50ms")));
                results.row(Metric.OWN_LATENESS, 99, 0, own + "p99").put(peer, Double.parseDouble(r.get("ownP99ms")));
                results.row(Metric.OWN_LATENESS, 999, 0, own + "p99.9")
                        .put(peer, Double.parseDouble(r.get("ownP999ms")));
            }
            if (!"0".equals(r.get("early"))) {
                results.note(peer.label() + ": " + r.get("early") + " of " + r.get("probes") + " lateness probes"
                        + " fired early, by up to " + r.get("maxEarlyMs") + " ms");
            }
            if (!"0".equals(r.get("missing"))) {
                results.note(peer.label() + ": " + r.get("missing") + " lateness probes never fired");
            }
        }
        if (s.latenessRounds > 0) {
            judged(s, results, 0);
            judged(s, results, s.latenessBusy);
        }
    }

    private static final List<Peer> JUDGED = List.of(Peer.TICKWHEEL, Peer.JDK_STPE);
    private static final String[] PERCENTILES = {"p50ms", "p99ms", "p999ms"};
    private static final Metric[] JUDGED_METRICS = {Metric.JUDGED_LATENESS_P50, Metric.JUDGED_LATENESS_P99,
            Metric.JUDGED_LATENESS_P999};
    private static final String[] NAMES = {"p50", "p99", "p99.9"};

    /** The judged rows: interleaved runs of Tickwheel and the STPE, quiet ({@code busy} 0) or beside busy processes. */
    private static void judged(Settings s, Results results, int busy) throws IOException {
        if (JUDGED.stream().anyMatch(p -> !s.latenessPeers.contains(p))) {
            return; // a run without one of the two judges nothing this way
        }
        double[][][] runs = new double[JUDGED.size()][PERCENTILES.length][s.latenessRounds];
        long[] early = new long[JUDGED.size()];
        String[][] lateShares = new String[JUDGED.size()][s.latenessRounds];
        List<Process> hogs = BusyNeighbours.start(busy);
        try {
            for (int r = 0; r < s.latenessRounds; r++) {
                for (int k = 0; k < JUDGED.size(); k++) {
                    int i = r % 2 == 0 ? k : JUDGED.size() - 1 - k; // alternate which goes first
                    List<Map<String, String>> out = ChildJvm.run(FiringLateness.class, List.of("--child",
                            JUDGED.get(i).name(), "--warmup", "" + s.latenessJudgedWarmup, "--seconds",
                            "" + s.latenessSeconds));
                    Map<String, String> m = out.get(out.size() - 1);
                    early[i] += Long.parseLong(m.get("early"));
                    if (!"0".equals(m.get("early")) || !"0".equals(m.get("missing"))) {
                        results.note(JUDGED.get(i).label() + ", judged lateness run " + (r + 1) + " (" + busy
                                + " busy): " + m.get("early") + " early and " + m.get("missing") + " missing of "
                                + m.get("probes") + " probes");
                    }
                    for (int q = 0; q < PERCENTILES.length; q++) {
                        runs[i][q][r] = Double.parseDouble(m.get(PERCENTILES[q]));
                    }
                    lateShares[i][r] = m.get("over300usPct") + " / " + m.get("over1msPct");
                }
            }
        } finally {
            try {
                BusyNeighbours.stop(hogs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        String where = busy == 0 ? "quiet" : busy + " busy processes beside";
        StringBuilder each = new StringBuilder();
        for (int q = 0; q < PERCENTILES.length; q++) {
            String label = "lateness " + NAMES[q] + ", " + where + (s.latenessRounds == 1
                    ? " (one run each, beside the JDK's STPE"
                    : " (median of " + s.latenessRounds + " runs each, interleaved with the JDK's STPE")
                    + ", after " + s.latenessJudgedWarmup + " s of warm-up)";
            for (int i = 0; i < JUDGED.size(); i++) {
                results.row(JUDGED_METRICS[q], 0, busy, label).put(JUDGED.get(i), FiringShots.median(runs[i][q]));
                each.append(q == 0 && i == 0 ? "" : "; ").append(JUDGED.get(i).label()).append(' ')
                        .append(NAMES[q]).append(' ');
                for (int r = 0; r < s.latenessRounds; r++) {
                    each.append(r == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%.3f", runs[i][q][r]));
                }
            }
        }
        for (int i = 0; i < JUDGED.size(); i++) {
            results.row(Metric.EARLY_FIRES, 1, busy, "early fires (the judged runs, " + where + ")")
                    .put(JUDGED.get(i), early[i]);
        }
        results.note("lateness, " + where + ", each run (ms, interleaved): " + each);
        StringBuilder shares = new StringBuilder();
        for (int i = 0; i < JUDGED.size(); i++) {
            shares.append(i == 0 ? "" : "; ").append(JUDGED.get(i).label()).append(' ')
                    .append(String.join(", ", lateShares[i]));
        }
        // The p99 lands where the share of late probes crosses 1%, so a small change in that share moves it a lot.
        results.note("lateness, " + where + ", share of probes later than 0.3 ms / 1 ms in each run (%): " + shares);
    }

    private static void put(Results results, Metric metric, String label, Peer peer, String value) {
        results.row(metric, label).put(peer, Double.parseDouble(value));
    }
}

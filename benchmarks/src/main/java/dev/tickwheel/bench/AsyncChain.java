package dev.tickwheel.bench;

import dev.tickwheel.WheelTimer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Issue 23's "work due now" figure: a chain of 1,000 {@code CompletableFuture} async steps on an executor
 * ({@code thenApplyAsync(f, ses)} 1,000 times), timed from the first submission to the last step's completion. The
 * chain is built first, on a future not yet completed; completing it submits the first step from this thread, and
 * every later step is submitted by the worker that ran the one before, as the issue defines the figure. (Until
 * session 31 the chain began with {@code supplyAsync} and was built while it ran, so the steps registered after it had
 * caught up with this thread were submitted by this thread, a share that varied from run to run.) Each executor runs
 * in its own child JVM, which measures two windows of {@code --chains} chains: the first after {@code --first-warmup}
 * chains (200: the JVM's first half second, with the JIT still compiling the pool's and {@code CompletableFuture}'s
 * paths), the second after {@code --warmup} chains in all (the steady state); the median of each is printed, with the
 * steady window's quartiles. Session 40, on 2 cores: after 200 chains both executors were still moving between
 * modes (Tickwheel 0.25-0.70 ms, the JDK's 0.29-0.57), and C2 was still compiling the continuation slot's fill and
 * {@code CompletableFuture}'s completion at 0.9 s of the JVM's life; after 2,000 and 6,000 chains each executor kept
 * one mode. Executors: Tickwheel's default ({@code WheelTimer.create()}: its own pool of max(2, CPUs) workers),
 * Tickwheel with one worker, and the JDK's {@code ScheduledThreadPoolExecutor} with 1 and with max(2, CPUs) threads.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.AsyncChain [--chains 41] [--warmup 5000] [--first-warmup 200]
 * </pre>
 */
public final class AsyncChain {

    static final int STEPS = 1_000;
    /** Chains before the first window: a JVM's first half second on 2 cores (the JIT's share stays in view there). */
    static final int FIRST_WARMUP = 200;
    /** Chains before the steady window, in all: by then each executor had kept one mode in session 40's runs. */
    static final int STEADY_WARMUP = 5_000;
    private static final String[] EXECUTORS = {"TICKWHEEL", "TICKWHEEL_1_WORKER", "JDK_STPE_1", "JDK_STPE_N"};

    private AsyncChain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = FiringShots.options(args);
        String chains = opts.getOrDefault("chains", "41");
        String warmup = opts.getOrDefault("warmup", "" + STEADY_WARMUP);
        String first = opts.getOrDefault("first-warmup", "" + FIRST_WARMUP);
        if (opts.containsKey("executor")) {
            child(opts.get("executor"), Integer.parseInt(first), Integer.parseInt(warmup), Integer.parseInt(chains));
            return;
        }
        System.out.println("AsyncChain: " + STEPS + " async steps a chain, " + chains + " measured chains after "
                + first + " and after " + warmup + " per executor; CPU "
                + dev.tickwheel.bench.suite.RunEnvironment.cpuModel() + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs, load "
                + dev.tickwheel.bench.suite.RunEnvironment.loadAverage() + ", JDK " + Runtime.version());
        System.out.printf("%-34s %16s %12s %12s %12s%n", "executor", "first median ms", "median ms", "p25 ms",
                "p75 ms");
        for (String e : opts.getOrDefault("executors", String.join(",", EXECUTORS)).split(",")) {
            List<Map<String, String>> rs = ChildJvm.run(AsyncChain.class, List.of("--executor", e, "--chains", chains,
                    "--warmup", warmup, "--first-warmup", first));
            Map<String, String> r = rs.get(rs.size() - 1);
            System.out.printf("%-34s %16s %12s %12s %12s%n", label(e), r.get("firstMedianMs"), r.get("medianMs"),
                    r.get("p25Ms"), r.get("p75Ms"));
            ChildJvm.report(Map.of("executor", e, "firstMedianMs", r.get("firstMedianMs"), "medianMs",
                    r.get("medianMs"), "p25Ms", r.get("p25Ms"), "p75Ms", r.get("p75Ms")));
        }
    }

    static String label(String e) {
        int n = Math.max(2, Runtime.getRuntime().availableProcessors());
        switch (e) {
            case "TICKWHEEL": return "Tickwheel (default, " + n + " workers)";
            case "TICKWHEEL_1_WORKER": return "Tickwheel, 1 worker";
            case "JDK_STPE_1": return "JDK STPE(1)";
            case "JDK_STPE_N": return "JDK STPE(" + n + ")";
            default: throw new IllegalArgumentException("unknown executor " + e);
        }
    }

    private static ScheduledExecutorService create(String e) {
        int n = Math.max(2, Runtime.getRuntime().availableProcessors());
        switch (e) {
            case "TICKWHEEL": return WheelTimer.create();
            case "TICKWHEEL_1_WORKER": return WheelTimer.builder().workerThreads(1).build();
            case "JDK_STPE_1": return new ScheduledThreadPoolExecutor(1);
            case "JDK_STPE_N": return new ScheduledThreadPoolExecutor(n);
            default: throw new IllegalArgumentException("unknown executor " + e);
        }
    }

    /**
     * Runs {@code warmup + chains} chains (at least {@code first + chains}) and measures two windows of {@code chains}:
     * the chains from {@code first} on, and the last ones.
     */
    private static void child(String e, int first, int warmup, int chains) throws Exception {
        if (chains < 1 || first < 0 || warmup < first + chains) {
            throw new IllegalArgumentException("--chains " + chains + ", --first-warmup " + first + ", --warmup "
                    + warmup + ": each window needs at least one chain, and the steady window (after --warmup chains)"
                    + " must come after the first one ends (--first-warmup + --chains)");
        }
        ScheduledExecutorService ses = create(e);
        double[] ms = new double[chains];
        double[] firstMs = new double[chains];
        try {
            for (int c = -warmup; c < chains; c++) {
                CompletableFuture<Integer> root = new CompletableFuture<>();
                CompletableFuture<Integer> f = root;
                for (int i = 0; i < STEPS; i++) {
                    f = f.thenApplyAsync(x -> x + 1, ses);
                }
                long t0 = System.nanoTime();
                root.complete(0); // submits the first step; each later one is submitted by the worker before it
                int last = f.get(60, TimeUnit.SECONDS);
                long t1 = System.nanoTime();
                if (last != STEPS) {
                    throw new IllegalStateException("chain ended at " + last);
                }
                int sinceFirst = c + warmup - first;
                if (sinceFirst >= 0 && sinceFirst < chains) {
                    firstMs[sinceFirst] = (t1 - t0) / 1e6;
                }
                if (c >= 0) {
                    ms[c] = (t1 - t0) / 1e6;
                }
            }
        } finally {
            ses.shutdownNow();
            ses.awaitTermination(10, TimeUnit.SECONDS);
        }
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        ChildJvm.report(Map.of("firstMedianMs", String.format("%.3f", FiringShots.median(firstMs)),
                "medianMs", String.format("%.3f", FiringShots.median(ms)), "p25Ms",
                String.format("%.3f", sorted[sorted.length / 4]), "p75Ms",
                String.format("%.3f", sorted[3 * sorted.length / 4])));
    }
}

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
 * in its own child JVM: {@code --warmup} chains, then {@code --chains} measured ones; the median is printed, with the
 * quartiles. Executors: Tickwheel's default ({@code WheelTimer.create()}: its own pool of max(2, CPUs) workers),
 * Tickwheel with one worker, and the JDK's {@code ScheduledThreadPoolExecutor} with 1 and with max(2, CPUs) threads.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.AsyncChain [--chains 41] [--warmup 200]
 * </pre>
 */
public final class AsyncChain {

    static final int STEPS = 1_000;
    private static final String[] EXECUTORS = {"TICKWHEEL", "TICKWHEEL_1_WORKER", "JDK_STPE_1", "JDK_STPE_N"};

    private AsyncChain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = FiringShots.options(args);
        String chains = opts.getOrDefault("chains", "41");
        String warmup = opts.getOrDefault("warmup", "200");
        if (opts.containsKey("executor")) {
            child(opts.get("executor"), Integer.parseInt(warmup), Integer.parseInt(chains));
            return;
        }
        System.out.println("AsyncChain: " + STEPS + " async steps a chain, " + warmup + " warm-up + " + chains
                + " measured chains per executor; CPU " + dev.tickwheel.bench.suite.RunEnvironment.cpuModel() + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs, load "
                + dev.tickwheel.bench.suite.RunEnvironment.loadAverage() + ", JDK " + Runtime.version());
        System.out.printf("%-34s %12s %12s %12s%n", "executor", "median ms", "p25 ms", "p75 ms");
        for (String e : opts.getOrDefault("executors", String.join(",", EXECUTORS)).split(",")) {
            List<Map<String, String>> rs = ChildJvm.run(AsyncChain.class, List.of("--executor", e, "--chains", chains,
                    "--warmup", warmup));
            Map<String, String> r = rs.get(rs.size() - 1);
            System.out.printf("%-34s %12s %12s %12s%n", label(e), r.get("medianMs"), r.get("p25Ms"), r.get("p75Ms"));
            ChildJvm.report(Map.of("executor", e, "medianMs", r.get("medianMs"), "p25Ms", r.get("p25Ms"), "p75Ms",
                    r.get("p75Ms")));
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

    private static void child(String e, int warmup, int chains) throws Exception {
        ScheduledExecutorService ses = create(e);
        double[] ms = new double[chains];
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
        ChildJvm.report(Map.of("medianMs", String.format("%.3f", FiringShots.median(ms)), "p25Ms",
                String.format("%.3f", sorted[sorted.length / 4]), "p75Ms",
                String.format("%.3f", sorted[3 * sorted.length / 4])));
    }
}

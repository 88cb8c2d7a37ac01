package dev.tickwheel.bench;

import dev.tickwheel.WheelTimer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Issue 23's "a slow task never delays other timers' hand-off", for a task that keeps its CPU: while one task spins on
 * a worker, {@code --timers} timers due 5 ms apart (the first 5 ms after it started) must fire on time on the other
 * workers. The spinning task ends once the last of them has run, so the pool is one worker short for the whole round.
 * Each executor runs in its own child JVM, {@code --warmup} rounds then {@code --rounds} measured ones; the lateness
 * of every measured timer (its run's start minus its deadline) is pooled and its percentiles printed. Executors:
 * Tickwheel's default ({@code WheelTimer.create()}: max(2, CPUs) workers, of which max(1, CPUs - 1) may be woken for
 * the owner's batches) and the JDK's {@code ScheduledThreadPoolExecutor} with as many threads.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.SlowTaskLateness [--rounds 10] [--warmup 3]
 *      [--timers 40]
 * </pre>
 */
public final class SlowTaskLateness {

    private static final String[] EXECUTORS = {"TICKWHEEL", "JDK_STPE_N"};
    private static final long GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** Where the spinning task leaves its count, so that the loop is not dead code. */
    static volatile long sink;

    private SlowTaskLateness() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = FiringShots.options(args);
        String rounds = opts.getOrDefault("rounds", "10");
        String warmup = opts.getOrDefault("warmup", "3");
        String timers = opts.getOrDefault("timers", "40");
        if (opts.containsKey("executor")) {
            child(opts.get("executor"), Integer.parseInt(warmup), Integer.parseInt(rounds),
                    Integer.parseInt(timers));
            return;
        }
        System.out.println("SlowTaskLateness: " + timers + " timers 5 ms apart while one task spins on a worker, "
                + warmup + " warm-up + " + rounds + " measured rounds per executor; CPU "
                + dev.tickwheel.bench.suite.RunEnvironment.cpuModel() + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs, load "
                + dev.tickwheel.bench.suite.RunEnvironment.loadAverage() + ", JDK " + Runtime.version());
        System.out.printf("%-34s %10s %10s %10s %10s %8s%n", "executor", "p50 ms", "p90 ms", "p99 ms", "max ms",
                "timers");
        for (String e : opts.getOrDefault("executors", String.join(",", EXECUTORS)).split(",")) {
            List<Map<String, String>> rs = ChildJvm.run(SlowTaskLateness.class, List.of("--executor", e, "--rounds",
                    rounds, "--warmup", warmup, "--timers", timers));
            Map<String, String> r = rs.get(rs.size() - 1);
            System.out.printf("%-34s %10s %10s %10s %10s %8s%n", AsyncChain.label(e), r.get("p50Ms"), r.get("p90Ms"),
                    r.get("p99Ms"), r.get("maxMs"), r.get("n"));
            ChildJvm.report(Map.of("executor", e, "p50Ms", r.get("p50Ms"), "p90Ms", r.get("p90Ms"), "p99Ms",
                    r.get("p99Ms"), "maxMs", r.get("maxMs")));
        }
    }

    private static ScheduledExecutorService create(String e) {
        switch (e) {
            case "TICKWHEEL": return WheelTimer.create();
            case "JDK_STPE_N": return new ScheduledThreadPoolExecutor(Math.max(2,
                    Runtime.getRuntime().availableProcessors()));
            default: throw new IllegalArgumentException("unknown executor " + e + " (TICKWHEEL or JDK_STPE_N)");
        }
    }

    private static void child(String e, int warmup, int rounds, int timers) throws Exception {
        ScheduledExecutorService ses = create(e);
        long[] late = new long[rounds * timers];
        try {
            for (int r = -warmup; r < rounds; r++) {
                long[] round = round(ses, timers);
                if (r >= 0) {
                    System.arraycopy(round, 0, late, r * timers, timers);
                }
            }
        } finally {
            ses.shutdownNow();
            ses.awaitTermination(10, TimeUnit.SECONDS);
        }
        Arrays.sort(late);
        ChildJvm.report(Map.of("p50Ms", ms(late, 0.50), "p90Ms", ms(late, 0.90), "p99Ms", ms(late, 0.99), "maxMs",
                ms(late, 1.0), "n", Integer.toString(late.length)));
    }

    /** One round: the spinning task, then the timers; returns each timer's lateness in nanoseconds. */
    private static long[] round(ScheduledExecutorService ses, int timers) throws InterruptedException {
        CountDownLatch spinning = new CountDownLatch(1);
        CountDownLatch fired = new CountDownLatch(timers);
        CountDownLatch spinEnded = new CountDownLatch(1);
        ses.execute(() -> {
            spinning.countDown();
            long x = 0;
            while (fired.getCount() > 0) {
                x++;
            }
            sink = x;
            spinEnded.countDown();
        });
        if (!spinning.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the spinning task did not start");
        }
        long[] late = new long[timers];
        long t0 = System.nanoTime();
        for (int i = 0; i < timers; i++) {
            int k = i;
            long due = t0 + GAP_NANOS * (i + 1);
            ses.schedule(() -> {
                late[k] = System.nanoTime() - due;
                fired.countDown();
            }, due - System.nanoTime(), TimeUnit.NANOSECONDS);
        }
        if (!fired.await(60, TimeUnit.SECONDS) || !spinEnded.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("a timer did not fire within 60 s beside the spinning task");
        }
        return late; // the latches order every write of late[] before this read
    }

    private static String ms(long[] sorted, double q) {
        int i = Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1);
        return String.format("%.3f", sorted[Math.max(0, i)] / 1e6);
    }
}

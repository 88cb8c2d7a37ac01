package dev.tickwheel.bench;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Scenario 2: expiry throughput. One shot starts 1M timers due within 100 ms (whole-millisecond delays 0-99,
 * uniformly random), split over one or two producers, and ends when the last of them has run. The score is the
 * time of the shot in ms; fires per second = 1,000,000 / score. It covers starting, expiring and running, because a
 * timer that cannot expire as fast as it is fed falls behind however fast it expires alone. The task is one
 * atomic decrement, so the figure is the timer's own cost.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ExpiryBenchmark -foe true
 * $JDK25/bin/java -jar benchmarks/target/benchmarks.jar ExpiryBenchmark -foe true -p peer=TICKWHEEL,JDK_STPE,JDK_FORKJOIN,JDK_FORKJOIN_COMMON
 * </pre>
 *
 * The JDK's ForkJoinPool peers ({@link Peer#JDK_FORKJOIN}, {@link Peer#JDK_FORKJOIN_COMMON}) need JDK 25, so they
 * are not in the default {@code peer} list, which must run on JDK 17: on JDK 25, name them ({@code $JDK25} above is
 * a JDK 25 home); the suite adds them itself. Named on an older JDK, they fail the trial at once,
 * saying what they need.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
@State(Scope.Benchmark)
public class ExpiryBenchmark {
    /** Timers per shot, over all producers. */
    public static final int TIMERS = 1_000_000;
    /** Delays are below this many ms. */
    public static final int WINDOW_MS = 100;

    @Param({"TICKWHEEL", "TICKWHEEL_INLINE", "JDK_STPE", "NETTY_1MS", "NETTY_100MS", "KAFKA"})
    public Peer peer;

    TimerAdapter timer;
    final Countdown task = new Countdown();
    int perProducer;

    @Setup(Level.Trial)
    public void start(BenchmarkParams params) {
        if (!peer.fires()) {
            throw new IllegalArgumentException(peer + " never fires: it has no expiry throughput");
        }
        timer = peer.create();
        perProducer = TIMERS / params.getThreads();
    }

    @Setup(Level.Iteration)
    public void arm(BenchmarkParams params) {
        task.arm((long) perProducer * params.getThreads());
    }

    @TearDown(Level.Trial)
    public void stop() {
        timer.close();
    }

    /** One producer's share of the delays. */
    @State(Scope.Thread)
    public static class Producer {
        long[] delays;

        @Setup(Level.Trial)
        public void init(ExpiryBenchmark bench, ThreadParams thread) {
            SplittableRandom random = new SplittableRandom(0xE4B1 + thread.getThreadIndex());
            delays = new long[bench.perProducer];
            for (int i = 0; i < delays.length; i++) {
                delays[i] = random.nextInt(WINDOW_MS);
            }
        }
    }

    @Benchmark
    @Threads(1)
    public long oneProducer(Producer p) throws InterruptedException {
        return shot(p);
    }

    @Benchmark
    @Threads(2)
    public long twoProducers(Producer p) throws InterruptedException {
        return shot(p);
    }

    private long shot(Producer p) throws InterruptedException {
        for (long d : p.delays) {
            timer.schedule(task, d);
        }
        return task.await(peer);
    }

    /** Counts the shot's timers down; the last one opens the latch. */
    static final class Countdown extends Task {
        private final AtomicLong remaining = new AtomicLong();
        private volatile CountDownLatch done;

        void arm(long timers) {
            remaining.set(timers);
            done = new CountDownLatch(1);
        }

        @Override
        public void run() {
            if (remaining.decrementAndGet() == 0) {
                done.countDown();
            }
        }

        long await(Peer peer) throws InterruptedException {
            if (!done.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException(peer + ": " + remaining.get() + " timers had not fired 60 s after"
                        + " the shot began");
            }
            return remaining.get();
        }
    }
}

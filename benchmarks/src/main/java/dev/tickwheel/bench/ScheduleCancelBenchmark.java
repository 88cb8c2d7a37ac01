package dev.tickwheel.bench;

import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Scenario 1: schedule + cancel throughput. Each producer thread keeps a ring of {@code pending} timers 30-60 s out
 * ({@link ProducerRing}); one operation starts a timer and cancels the oldest. One and two producers; the timer's own
 * threads run beside them on the same cores, as they would in a server. Run with the GC profiler for the bytes
 * allocated per operation (all threads, the timer's included):
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ScheduleCancelBenchmark -foe true -prof gc
 * java -jar benchmarks/target/benchmarks.jar ScheduleCancelBenchmark -foe true -prof gc -p peer=TICKWHEEL,NETTY_1MS -p pending=1000
 * $JDK25/bin/java -jar benchmarks/target/benchmarks.jar ScheduleCancelBenchmark -foe true -prof gc -p peer=TICKWHEEL,JDK_STPE,JDK_FORKJOIN,JDK_FORKJOIN_COMMON
 * </pre>
 *
 * The JDK's ForkJoinPool peers ({@link Peer#JDK_FORKJOIN}, {@link Peer#JDK_FORKJOIN_COMMON}) need JDK 25, so they
 * are not in the default {@code peer} list, which must run on JDK 17: on JDK 25, name them ({@code $JDK25} above is
 * a JDK 25 home); the suite adds them itself. Named on an older JDK, they fail the trial at once,
 * saying what they need.
 *
 * Throughput is in operations (one start plus one cancel) per microsecond, summed over the producers.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
@State(Scope.Benchmark)
public class ScheduleCancelBenchmark {

    @Param({"TICKWHEEL", "JDK_STPE", "NETTY_1MS", "NETTY_100MS", "KAFKA", "MPSC_FLOOR"})
    public Peer peer;

    @Param({"1000", "1000000"})
    public int pending;

    TimerAdapter timer;
    final CountingTask task = new CountingTask();

    @Setup(Level.Trial)
    public void start() {
        timer = peer.create();
    }

    @TearDown(Level.Trial)
    public void stop() {
        timer.close();
        Reports.warnIfFired(peer, pending, task.runs());
    }

    /** One producer's ring, filled before the warm-up. */
    @State(Scope.Thread)
    public static class Producer {
        ProducerRing ring;

        @Setup(Level.Trial)
        public void fill(ScheduleCancelBenchmark bench, ThreadParams thread) {
            ring = new ProducerRing(bench.timer, bench.task, bench.pending, 0x5EED + thread.getThreadIndex());
        }
    }

    @Benchmark
    @Threads(1)
    public Object oneProducer(Producer p) {
        return p.ring.step(timer, task);
    }

    @Benchmark
    @Threads(2)
    public Object twoProducers(Producer p) {
        return p.ring.step(timer, task);
    }
}

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

/**
 * Scenario 6: how the cost of schedule + cancel grows with the number of pending timers, 1k to 10M, one producer
 * (the workload of {@link ScheduleCancelBenchmark}). The heap is 4 GB so that 10M pending timers of any peer fit; its
 * layout flags are otherwise the fixed ones. The JSON output feeds the chart:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ScalingBenchmark -foe true -rf json -rff benchmarks/results/scaling.json
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.report.ScalingChart benchmarks/results/scaling.json benchmarks/results/scaling.svg
 * </pre>
 *
 * The JDK's ForkJoinPool peers ({@link Peer#JDK_FORKJOIN}, {@link Peer#JDK_FORKJOIN_COMMON}) need JDK 25, so they
 * are not in the default {@code peer} list, which must run on JDK 17: on JDK 25, name them with {@code -p peer=...}
 * and a JDK 25 {@code java}; the suite adds them itself. Named on an older JDK, they fail the trial at once,
 * saying what they need.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
@State(Scope.Benchmark)
public class ScalingBenchmark {

    @Param({"TICKWHEEL", "JDK_STPE", "NETTY_1MS", "NETTY_100MS", "KAFKA", "MPSC_FLOOR"})
    public Peer peer;

    @Param({"1000", "100000", "1000000", "10000000"})
    public int pending;

    TimerAdapter timer;
    final CountingTask task = new CountingTask();
    ProducerRing ring;

    @Setup(Level.Trial)
    public void start() {
        timer = peer.create();
        ring = new ProducerRing(timer, task, pending, 0x5CA1E);
    }

    @TearDown(Level.Trial)
    public void stop() {
        ring = null;
        timer.close();
        Reports.warnIfFired(peer, pending, task.runs());
    }

    @Benchmark
    @Threads(1)
    public Object scheduleCancel() {
        return ring.step(timer, task);
    }
}

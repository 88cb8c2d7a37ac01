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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Scenario 7: the wheel alone, single-threaded, against Agrona's {@code DeadlineTimerWheel}: remove + add + advance
 * at 1k and 1M pending ({@link WheelLoad} has the details). Operations per microsecond.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar WheelAloneBenchmark -foe true
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
@State(Scope.Thread)
public class WheelAloneBenchmark {

    @Param({"TICKWHEEL_WHEEL", "AGRONA"})
    public WheelKind wheel;

    @Param({"1000", "1000000"})
    public int pending;

    WheelLoad load;

    @Setup(Level.Trial)
    public void fill() {
        load = wheel.create(0x1A6E);
        load.fill(pending);
    }

    @TearDown(Level.Trial)
    public void check() {
        if (load.expired() != 0 || load.size() != pending) {
            throw new IllegalStateException(wheel + ": " + load.expired() + " timers expired and " + load.size()
                    + " are pending, expected 0 and " + pending + ": the workload was not remove + add");
        }
    }

    @Benchmark
    public long removeAddAdvance() {
        return load.op();
    }
}

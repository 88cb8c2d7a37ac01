package dev.tickwheel.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The limit beside scenario 1's allocation rows: what JMH's GC profiler counts when the operation allocates nothing
 * (one clock read), with {@link ScheduleCancelBenchmark}'s fork flags, mode and thread counts. The profiler divides
 * every byte the JVM's threads allocated in an iteration by that iteration's operations, its own harness's included
 * (about 6 KB a one-second iteration on JDK 17, session 36); so an operation that allocates exactly 48 B reads 48
 * plus this rate over its own. Bytes per second = {@code gc.alloc.rate.norm} times operations per second.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar HarnessAllocation -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
public class HarnessAllocation {

    /** Named as {@link ScheduleCancelBenchmark}'s method with the same thread count, so one pattern runs both. */
    @Benchmark
    @Threads(1)
    public long oneProducer() {
        return System.nanoTime();
    }

    /** The same with two threads. */
    @Benchmark
    @Threads(2)
    public long twoProducers() {
        return System.nanoTime();
    }
}

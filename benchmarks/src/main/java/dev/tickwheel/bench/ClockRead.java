package dev.tickwheel.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A physical limit beside scenario 1: one {@code System.nanoTime()}, which a timer that never fires early must read
 * on every start (the deadline is now + delay), and which the MPSC floor does not pay. Nanoseconds per read.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ClockRead
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
public class ClockRead {

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }
}

package dev.tickwheel.bench;

import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The physical limit beside scenario 6 (scaling): what it costs to touch one timer among P, in a random order, when
 * P timers of 48 bytes are spread over memory (48 MB at 1M, 480 MB at 10M) rather than sitting in cache (48 KB at
 * 1k). A cancel must at least flip the state of the timer it cancels, a timer started P operations earlier and
 * cold by then; unlinking it touches it and its two list neighbours again on the owner's core. This benchmark is
 * that one access and nothing else: a chase through a random cycle over P slots 48 bytes apart,
 * each load depending on the one before, so that neither the prefetcher nor out-of-order execution hides the
 * miss ({@link #touchOne}); and the same touches in an order known ahead, each independent of the last, whose misses
 * the core overlaps ({@link #touchIndependent}). Nanoseconds per access; run with the scaling scenario's 4 GB heap.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ColdLineFloor
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
@State(Scope.Thread)
public class ColdLineFloor {
    /** A timer's size: the slots the chase visits are this far apart. */
    static final int TIMER_BYTES = 48;
    private static final int STRIDE = TIMER_BYTES / Integer.BYTES;

    @Param({"1000", "1000000", "10000000"})
    public int pending;

    /** next[i * STRIDE] holds the slot index (times STRIDE) to visit after slot i: one random cycle over all. */
    int[] next;
    /** The slots in a random order, for the independent touches. */
    int[] order;
    int at;
    int cursor;

    @Setup(Level.Trial)
    public void shuffle() {
        int[] order = new int[pending];
        for (int i = 0; i < pending; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(0xC01D);
        for (int i = pending - 1; i > 0; i--) { // a random order of the slots, linked below into one cycle
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        this.order = order;
        next = new int[pending * STRIDE];
        for (int i = 0; i < pending; i++) {
            next[order[i] * STRIDE] = order[(i + 1) % pending] * STRIDE;
        }
    }

    /** One dependent access to a slot chosen at random by the cycle: the latency of a miss, nothing overlapped. */
    @Benchmark
    public int touchOne() {
        return at = next[at];
    }

    /**
     * One access to a random slot that depends on no earlier one, as a producer's cancel of the oldest timer does
     * not: the out-of-order core overlaps several misses, so this is the throughput cost of a cold line.
     */
    @Benchmark
    public int touchIndependent() {
        int i = cursor;
        cursor = i + 1 == order.length ? 0 : i + 1;
        return next[order[i] * STRIDE];
    }
}

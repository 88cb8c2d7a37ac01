package dev.tickwheel.bench;

import dev.tickwheel.TimingWheel;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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
 * The wheel alone, advancing over a burst of cold timers: a million fresh nodes with keys spread over 100,000 ticks
 * (the expiry shot's 100 ms at the default 1 µs tick), added to an empty wheel of six-bit levels (the timer's), then one
 * advance past them all: 96% of the nodes cascade twice (keys from 4,096 ticks on start in the third level and move to
 * the second, then to the first), the rest once or not at all, and all expire. The lines of a million nodes do not fit in the caches, so each walk of a slot's list waits for a
 * miss per node; this is the owner's part of a burst that the two-cursor cascade works on.
 *
 * <p>One shot per invocation, in milliseconds for the million nodes: the figure is also nanoseconds per node. The
 * setup allocates the nodes afresh and evicts them from the caches with a 64 MB sweep before each shot.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, batchSize = 1)
@Measurement(iterations = 15, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
@State(Scope.Thread)
public class ColdCascadeBenchmark {

    /** Nodes per shot. */
    public static final int NODES = 1_000_000;
    /** Keys are spread over [1, WINDOW] ticks. */
    public static final int WINDOW = 100_000;

    static final class Node extends TimingWheel.Node {
    }

    private final long[] sweep = new long[8 << 20];
    private final SplittableRandom random = new SplittableRandom(0xC01D);
    private long expired;
    private final Consumer<Node> onExpiry = n -> expired++;
    private TimingWheel<Node> wheel;
    /** The wheel's level bits, colon-separated (JMH splits parameters at commas); "6:6:6:6:6:6:6:6" is the timer's default at any tick. */
    @Param({"6:6:6:6:6:6:6:6"})
    public String levelBits;
    private long sink;

    @Setup(Level.Invocation)
    public void fill() {
        String[] parts = levelBits.split(":");
        int[] bits = new int[parts.length];
        for (int i = 0; i < bits.length; i++) {
            bits[i] = Integer.parseInt(parts[i].trim());
        }
        wheel = new TimingWheel<>(bits);
        for (int i = 0; i < NODES; i++) {
            wheel.add(new Node(), 1 + random.nextInt(WINDOW));
        }
        for (int i = 0; i < sweep.length; i += 8) {
            sweep[i] += i; // push the nodes' lines out of the caches
        }
        sink += sweep[random.nextInt(sweep.length)];
        expired = 0;
    }

    @Benchmark
    public long advancePastAll() {
        return wheel.increaseMinAllowedKey(WINDOW + 1, onExpiry);
    }

    @TearDown(Level.Invocation)
    public void check() {
        if (expired != NODES || !wheel.isEmpty()) {
            throw new IllegalStateException(expired + " of " + NODES + " nodes expired, " + wheel.size() + " left");
        }
    }
}

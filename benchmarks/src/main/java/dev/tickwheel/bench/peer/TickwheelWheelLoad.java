package dev.tickwheel.bench.peer;

import dev.tickwheel.TimingWheel;
import dev.tickwheel.bench.WheelLoad;
import java.util.function.Consumer;

/**
 * {@link WheelLoad} on Tickwheel's {@link TimingWheel}. A timer's key is its deadline rounded up to a whole tick,
 * and advancing to the clock's tick expires the keys at or below it, so nothing fires early. The wheel is intrusive:
 * the user's object is the node, so the timer removed from the ring is the one added back (no allocation), as
 * Agrona's wheel allocates nothing either.
 */
public final class TickwheelWheelLoad extends WheelLoad {
    private static final long TICK = 1L << TICK_SHIFT;

    private final TimingWheel<Timer> wheel = new TimingWheel<>();
    private final Consumer<Timer> onExpiry = t -> expired++;
    private Timer[] ring;

    public TickwheelWheelLoad(long seed) {
        super(seed);
    }

    private static long keyOf(long deadline) {
        return (deadline + TICK - 1) >>> TICK_SHIFT;
    }

    @Override
    public void fill(int pending) {
        ring = new Timer[pending];
        for (int i = 0; i < pending; i++) {
            ring[i] = new Timer();
            wheel.add(ring[i], keyOf(deadline(i)));
        }
    }

    @Override
    public long op() {
        int i = next;
        Timer t = ring[i];
        wheel.remove(t);
        wheel.add(t, keyOf(deadline(i)));
        next = i + 1 == ring.length ? 0 : i + 1;
        now += OP_NANOS;
        return wheel.increaseMinAllowedKey((now >>> TICK_SHIFT) + 1, onExpiry);
    }

    @Override
    public long size() {
        return wheel.size();
    }

    /** The user's timer object, its own wheel node. */
    static final class Timer extends TimingWheel.Node {
    }
}

package dev.tickwheel.bench.peer;

import dev.tickwheel.bench.WheelLoad;
import java.util.concurrent.TimeUnit;
import org.agrona.DeadlineTimerWheel;

/**
 * {@link WheelLoad} on Agrona's {@link DeadlineTimerWheel}: 2^20 ns ticks, 1024 ticks per wheel, the default initial
 * 16 timers per tick (it doubles as needed). A timer is a {@code long} id; {@code poll} is called only when the
 * clock has reached the end of the current tick, and then once per tick to catch up, which is the least polling
 * that keeps tick accuracy (each poll scans the tick's whole array).
 */
public final class AgronaWheelLoad extends WheelLoad {
    private final DeadlineTimerWheel wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, 0, 1L << TICK_SHIFT, 1024);
    private final DeadlineTimerWheel.TimerHandler onExpiry = (unit, now, timerId) -> {
        expired++;
        return true;
    };
    private long[] ring;

    public AgronaWheelLoad(long seed) {
        super(seed);
    }

    @Override
    public void fill(int pending) {
        ring = new long[pending];
        for (int i = 0; i < pending; i++) {
            ring[i] = wheel.scheduleTimer(deadline(i));
        }
    }

    @Override
    public long op() {
        int i = next;
        wheel.cancelTimer(ring[i]);
        ring[i] = wheel.scheduleTimer(deadline(i));
        next = i + 1 == ring.length ? 0 : i + 1;
        now += OP_NANOS;
        int n = 0;
        while (now >= wheel.currentTickTime()) {
            n += wheel.poll(now, onExpiry, Integer.MAX_VALUE);
        }
        return n;
    }

    @Override
    public long size() {
        return wheel.timerCount();
    }
}

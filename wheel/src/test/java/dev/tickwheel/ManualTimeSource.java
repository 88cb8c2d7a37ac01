package dev.tickwheel;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TimeSource} that moves only when a test moves it. Thread-safe: producers may read it while the stepping
 * thread advances it. Like {@link System#nanoTime()} its readings may start anywhere (even near
 * {@code Long.MAX_VALUE}, to cross the wrap-around); only differences matter, and it never goes backwards.
 */
final class ManualTimeSource implements TimeSource {

    /** The current reading. Written by advance/advanceTo (cas/getAndAdd); read volatile by any thread. */
    private final AtomicLong now;

    /** A clock reading 0. */
    ManualTimeSource() {
        this(0L);
    }

    /** A clock starting at {@code start} (any value: readings wrap like {@code System.nanoTime()}). */
    ManualTimeSource(long start) {
        this.now = new AtomicLong(start);
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    /**
     * Moves the clock forward.
     *
     * @return the new reading
     * @throws IllegalArgumentException if the amount is negative
     */
    long advance(long amount, TimeUnit unit) {
        long nanos = unit.toNanos(amount);
        if (nanos < 0) {
            throw new IllegalArgumentException("advance " + amount + " " + unit + " is negative: the clock never"
                    + " goes backwards");
        }
        return now.addAndGet(nanos);
    }

    /**
     * Moves the clock to {@code start + elapsed}, where {@code start} is a reading taken earlier (differences are
     * compared, so this works across the wrap-around).
     *
     * @throws IllegalArgumentException if that would move the clock backwards
     */
    void advanceTo(long start, long elapsed) {
        long target = start + elapsed;
        for (;;) {
            long current = now.get();
            if (target - current < 0) {
                throw new IllegalArgumentException("advanceTo " + target + " is before the current reading "
                        + current + ": the clock never goes backwards");
            }
            if (now.compareAndSet(current, target)) {
                return;
            }
        }
    }
}

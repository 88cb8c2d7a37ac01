package dev.tickwheel.micrometer;

import dev.tickwheel.TimeSource;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link TimeSource} that moves only when the test moves it. Safe from any thread (the owner reads it). */
final class ManualClock implements TimeSource {

    /** Written by advance (the test thread), read by any thread. */
    private final AtomicLong now = new AtomicLong();

    @Override
    public long nanoTime() {
        return now.get();
    }

    void advance(long amount, TimeUnit unit) {
        now.addAndGet(unit.toNanos(amount));
    }
}

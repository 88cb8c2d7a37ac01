package dev.tickwheel;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A {@link CustomTimer} for tests: counts its runs, and exposes the protected {@code schedule} in milliseconds. */
final class CountingCustomTimer extends CustomTimer {
    private final AtomicInteger runs;

    CountingCustomTimer(WheelTimer timer, AtomicInteger runs) {
        super(timer);
        this.runs = runs;
    }

    void start(long ms) {
        schedule(ms, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void runTask() {
        runs.incrementAndGet();
    }
}

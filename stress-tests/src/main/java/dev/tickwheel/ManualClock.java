package dev.tickwheel;

/**
 * A {@link TimeSource} the test moves by hand, so that a jcstress state knows exactly which ticks are due and the
 * only nondeterminism left is the race under test.
 *
 * <p>Moved only by the thread that builds the state or by the arbiter, which jcstress orders before and after the
 * actors; read by the actors and by the timer's {@code schedule} calls.
 */
final class ManualClock implements TimeSource {

    static final long MS = 1_000_000L;

    /** sv by the state's constructor or the arbiter; lv by every reader. */
    private volatile long now;

    @Override
    public long nanoTime() {
        return now;
    }

    /** Moves the clock forward; one writer at a time (the constructor, or the arbiter). */
    void advanceMillis(long millis) {
        now += millis * MS;
    }
}

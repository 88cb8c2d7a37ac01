package dev.tickwheel;

/**
 * A monotonic time source in nanoseconds, with the meaning of {@link System#nanoTime()}: only differences between
 * readings matter. {@link WheelTimer} reads it on its owner thread and in {@code schedule} calls; a test can supply
 * a manual one to make timing deterministic.
 *
 * <p>Implementations must be thread-safe and must never go backwards.
 */
@FunctionalInterface
public interface TimeSource {

    /** The system's monotonic clock, {@link System#nanoTime()}. */
    TimeSource SYSTEM = System::nanoTime;

    /** @return the current time in nanoseconds; never less than an earlier reading */
    long nanoTime();
}

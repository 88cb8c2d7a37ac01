package dev.tickwheel;

import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A one-shot timer of a class you define: the extension point for adapters that must hand their callers an object
 * of their own type for every timer (Netty's {@code io.netty.util.Timeout}, for example) without allocating a
 * second object per timer. An instance is at once your object, the {@link TimerFuture} of the timer, the command
 * sent to the owner thread and the wheel's node, as a {@link WheelTimer}'s own timers are.
 *
 * <pre>{@code
 * final class Deadline extends CustomTimer {
 *     private final Call call;
 *
 *     private Deadline(WheelTimer timer, Call call) {
 *         super(timer);
 *         this.call = call;
 *     }
 *
 *     static Deadline start(WheelTimer timer, Call call, long delay, TimeUnit unit) {
 *         Deadline d = new Deadline(timer, call);
 *         d.schedule(delay, unit);   // RejectedExecutionException if the timer is shut down or full
 *         return d;
 *     }
 *
 *     @Override
 *     protected void runTask() {
 *         call.fail("deadline exceeded");
 *     }
 * }
 *
 * Deadline d = Deadline.start(timer, call, 30, TimeUnit.SECONDS);
 * // ... the response arrives first:
 * d.cancelIfNotStarted();
 * }</pre>
 *
 * <p>Everything a {@link WheelTimer} promises for its one-shot timers holds: never early, at most one run, the
 * strict cancel ({@link #cancelIfNotStarted()}) and FutureTask's cancel, the pending limit, {@code shutdown} (the
 * timer still runs at its time) and {@code shutdownNow} (which hands the instance itself back as a
 * {@link Runnable}, whose {@code run()} runs the task). {@link #schedule} takes the same lock-free path as
 * {@link WheelTimer#schedule(Runnable, long, TimeUnit)} and allocates nothing.
 *
 * <p>Memory: a {@code WheelTimer}'s own one-shot timer is 48 bytes with compressed references, and so is this class;
 * each field a subclass adds costs its size, with the object rounded up to 8 bytes (one or two references: 56).
 *
 * <p>Contract for subclasses: construct, then call {@link #schedule} exactly once, from the constructing thread or
 * after publishing the object safely; its fields are then published to the thread that runs the task. The task
 * ({@link #runTask()}) runs at most once, on the thread the {@code WheelTimer} runs tasks on.
 */
public abstract class CustomTimer extends ScheduledTimer<Void> {

    /** The key of a timer not scheduled yet: real keys are never negative. */
    private static final long UNSCHEDULED = -1L;

    /**
     * Creates a timer of {@code timer}, not yet scheduled.
     *
     * @param timer the timer that will run it
     * @throws NullPointerException if timer is null
     */
    protected CustomTimer(WheelTimer timer) {
        super(Objects.requireNonNull(timer, "timer"), null, 0, UNSCHEDULED);
    }

    /**
     * Schedules this timer to run {@link #runTask()} after the delay: never earlier, normally within one tick after
     * it. A delay of zero or less means now; any delay up to {@code Long.MAX_VALUE} in any unit works. Lock-free;
     * allocates nothing.
     *
     * @param delay the delay
     * @param unit the unit of the delay
     * @throws NullPointerException if unit is null
     * @throws IllegalStateException if this timer was scheduled before (whether or not that call was accepted)
     * @throws RejectedExecutionException if the {@code WheelTimer} is shut down or already holds its
     *                                    {@code maxPending} timers; the task then never runs
     */
    protected final void schedule(long delay, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        if (key != UNSCHEDULED) {
            throw new IllegalStateException(this + " was already scheduled: a CustomTimer is scheduled once");
        }
        key = timer().clock.firstKey(delay, unit); // plain: published by accept's offer, as in WheelTimer.schedule
        try {
            timer().accept(this, false);
        } catch (RejectedExecutionException e) {
            // Rejected before it was accepted (shut down, or maxPending): this object outlives the call, so end it
            // (cancelled, not counted: it never held a pending place), or a later reschedule or cancel would
            // treat it as a pending timer. accept's own revoke of a timer a racing shutdown took is a no-op here.
            revoke();
            throw e;
        }
    }

    /**
     * The task. Called at most once, when the timer is due and no cancel has won, on the thread the
     * {@code WheelTimer} runs tasks on (its pool, your executor, or its owner thread). If it throws, the future
     * completes exceptionally with what it threw (as a {@code Runnable}'s would); the timer carries on.
     *
     * @throws Exception anything; it completes the future exceptionally
     */
    protected abstract void runTask() throws Exception;

    /**
     * Whether this timer has left the pending state other than by a cancel: a run has claimed it (its task is about
     * to start, is running, or has returned or thrown), or it failed without running (the executor rejected it, or
     * the owner thread failed). False while it is pending, and after a cancel that won (including
     * {@code cancel(false)} against a running task, which FutureTask's contract lets win). For a timer that is not
     * cancelled, this is true exactly when {@link #cancelIfNotStarted()} can no longer win.
     *
     * @return whether the timer has started (or failed) and was not cancelled
     */
    protected final boolean isStarted() {
        int p = phase();
        return p >= CLAIMED && p <= FAILED;
    }

    /** Calls {@link #runTask()}; the task field of a custom timer is unused. */
    @Override
    final Object call(Object unused) throws Exception {
        runTask();
        return null;
    }
}

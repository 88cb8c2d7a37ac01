package dev.tickwheel.netty;

import dev.tickwheel.CustomTimer;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Timeout} of a {@link NettyWheelTimer}, and at the same time the Tickwheel timer itself (a
 * {@link CustomTimer}: the future, the command and the wheel's node): one object per timeout, 56 bytes with
 * compressed references, as a {@code HashedWheelTimeout} is.
 *
 * <p>Netty's states map onto the timer's: pending is the timer not started, {@link #cancel()} is the strict cancel
 * ({@link #cancelIfNotStarted()}: true only if it moved the timeout from pending to cancelled), and
 * {@link #isExpired()} is true once a run has claimed the timer, so that in a race between {@code cancel()} and the
 * expiry exactly one wins. Every method is safe from any thread.
 *
 * <p>Fields: both final, written before the timer is offered to the owner thread (whose queue offer publishes
 * them), read by any thread.
 */
final class TickwheelTimeout extends CustomTimer implements Timeout {

    private final NettyWheelTimer timer;
    private final TimerTask task;

    TickwheelTimeout(NettyWheelTimer timer, TimerTask task) {
        super(timer.wheelTimer());
        this.timer = timer;
        this.task = task;
    }

    /** Schedules it once; see {@link CustomTimer#schedule}. */
    void start(long delay, TimeUnit unit) {
        schedule(delay, unit);
    }

    @Override
    public Timer timer() {
        return timer;
    }

    /** @return the task, for the timeout's whole life (also after it expired or was cancelled) */
    @Override
    public TimerTask task() {
        return task;
    }

    /** @return whether the task has started (or is about to, past any cancel), or has run */
    @Override
    public boolean isExpired() {
        return isStarted();
    }

    /**
     * Cancels the timeout if it is still pending: true only if this call moved it from pending to cancelled (its task
     * then never runs); false if it had expired (started or ran) or was cancelled already. Never blocks; the
     * cancelled timer leaves the wheel soon after.
     */
    @Override
    public boolean cancel() {
        return cancelIfNotStarted();
    }

    /** Runs the task; an exception from it is logged and goes no further, so the timer carries on. */
    @Override
    protected void runTask() {
        try {
            task.run(this);
        } catch (Throwable t) {
            timer.taskFailed(task, t);
        }
    }

    @Override
    public String toString() {
        String state = isCancelled() ? "cancelled" : isExpired() ? "expired" : "pending";
        return "TickwheelTimeout(" + state + ", " + getDelay(TimeUnit.NANOSECONDS) + " ns later, task: " + task + ")";
    }
}

package dev.tickwheel;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future of a {@link WheelTimer} timer: what every {@code schedule} and {@code submit} method returns. As a
 * {@link ScheduledFuture} it keeps {@link java.util.concurrent.FutureTask}'s contract, exactly as the futures of
 * {@link java.util.concurrent.ScheduledThreadPoolExecutor} do, so code written against the JDK's executor cannot
 * tell the difference: {@link #cancel} returns true for any task that has not completed, running or not; the future
 * then reads cancelled and {@code get} throws {@link java.util.concurrent.CancellationException}; {@code
 * cancel(true)} interrupts a running task, and that interrupt never reaches the next task its thread runs.
 *
 * <p>On top of that it offers what the JDK's futures cannot:
 * <ul>
 *   <li>{@link #cancelIfNotStarted()}: the strict cancel, which succeeds only if no run of the task is in progress,
 *   so that {@code true} means the task never ran and never will (one-shot) or runs no more and is not running
 *   (periodic). In a race between this cancel and the timer's fire, exactly one of them wins.</li>
 * </ul>
 *
 * <p>Every method is safe from any thread and none blocks except {@code get} and {@code cancelAndAwait}.
 *
 * @param <V> the result type of the task
 */
public interface TimerFuture<V> extends ScheduledFuture<V> {

    /**
     * Cancels the timer only if no run of its task is in progress: it has not started (one-shot), or is between
     * two runs (periodic). Safe from any thread; never blocks; never interrupts.
     *
     * <p>Unlike {@link #cancel}, which also succeeds against a running task, {@code true} here means that the task
     * is not running now and will never start again: for a one-shot timer, that it never ran at all. It returns
     * {@code false} if a run has started (claimed by a worker thread, even if the task's first line has not run
     * yet) or the timer has ended (completed, failed, cancelled, or handed back by
     * {@link WheelTimer#shutdownNow()} and then run). Cancel and fire race by nature: exactly one of them wins.
     *
     * @return true if and only if this call cancelled the timer while no run was in progress
     */
    boolean cancelIfNotStarted();

    /**
     * Moves a pending one-shot timer's deadline to {@code delay} from now, from any thread, without a lock and
     * without allocating: the idle or keep-alive timeout pushed back on every read. Returns whether it took effect:
     * false once the timer is due and handed off to run (the task is about to start, has started or has run), the
     * timer was cancelled, or the timer is shut down. The task never runs before the new deadline, and a reschedule
     * racing the fire ends one way: the task runs once, either at the old deadline (and this returns false) or at
     * the new one. A later deadline (the common case: a timeout pushed back) is one CAS on the timer, sending the
     * owner thread nothing: the timer stays where it is linked and the owner moves it once, when its old deadline
     * comes. An earlier deadline sends the owner one move command, and many reschedules between two of its steps
     * cost it one move.
     *
     * <p>After {@link java.util.concurrent.ExecutorService#shutdown() shutdown()} this returns false and the timer
     * keeps its old deadline: a one-shot timer pending when the shutdown began still runs, at its old time. A
     * reschedule racing the shutdown either returns true, and the timer runs at the new deadline, or returns false,
     * and it runs at the old one; it never ends the timer. Against {@code shutdownNow()}, the timer is either handed
     * back (whatever this returned) or runs, once.
     *
     * @param delay the new delay from now; zero or negative means now
     * @param unit its unit
     * @return true if the timer will run at the new deadline (unless cancelled later, or handed back by
     *         {@code shutdownNow}), false if it was not pending or the timer is shut down (it then keeps its time)
     * @throws UnsupportedOperationException for a periodic timer, which keeps its period (cancel it and schedule
     *                                       anew)
     * @throws IllegalArgumentException if the new deadline, rounded up to the next tick, is more than 2^31 - 1 ticks
     *                                  after the current tick: the rescheduled deadline is kept in 32 bits so that a
     *                                  timer stays 48 bytes. A delay of at most 2^31 - 2 ticks is always accepted (35
     *                                  minutes at the default 1 µs tick, 24 days at 1 ms); one of exactly 2^31 - 1
     *                                  ticks only when the clock reads exactly on a tick, so almost never
     * @throws NullPointerException if unit is null
     */
    boolean reschedule(long delay, TimeUnit unit);

    /**
     * Cancels the timer and, if its task is running, waits until it has returned: when this returns normally the
     * task is not running and will never run again (Linux's {@code timer_delete_sync}), so a resource the task uses
     * may be closed. It cancels as {@link #cancelIfNotStarted()} does if no run is in progress, and otherwise as
     * {@code cancel(false)}: a running one-shot's outcome is dropped (the future reads cancelled), a periodic timer
     * runs no more. It never interrupts the task; it waits interruptibly.
     *
     * <p>Called from inside the task itself (on the thread running it), it cancels and returns at once without
     * waiting, since waiting for the caller's own frame would never end: the task is then still running, but no
     * later run starts.
     *
     * @return true if this call cancelled the timer while no run was in progress ({@link #cancelIfNotStarted()}'s
     *         answer: the one-shot task never ran), false otherwise
     * @throws InterruptedException if interrupted while waiting; the timer is cancelled all the same
     */
    boolean cancelAndAwait() throws InterruptedException;

    /**
     * {@link #cancelAndAwait()}, waiting at most {@code timeout}.
     *
     * @return as {@link #cancelAndAwait()}
     * @throws TimeoutException if the task was still running when the time ran out (the timer is cancelled; the
     *                          task's run goes on until it returns)
     * @throws InterruptedException if interrupted while waiting; the timer is cancelled all the same
     * @throws NullPointerException if unit is null
     */
    boolean cancelAndAwait(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException;
}

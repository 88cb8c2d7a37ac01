package dev.tickwheel;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Where due tasks run: the timer's own pool, an {@link Executor} the user supplies, or the owner thread itself.
 * One of the three is chosen when the timer is built; the owner hands every due timer to {@link #dispatch} and asks
 * the same object at shutdown what it still holds.
 *
 * <p>{@link #dispatch} is called by the owner thread only; the lifecycle methods by the owner (or the thread that
 * collects for shutdownNow once the owner is gone) and by any thread waiting for termination.
 */
abstract class TaskDispatch {

    /**
     * Hands a due timer over to run. A hand-off that throws (an executor that rejects it, a thread factory that
     * fails for a new worker) completes the timer's future exceptionally with what it threw.
     */
    abstract void dispatch(ScheduledTimer<?> t);

    /**
     * The owner has handed off a batch (at least one timer): wake whoever must run it, unless {@code stopping}
     * (shutdownNow has begun, and its hand-back will take what is queued). Owner thread only.
     */
    void afterBatch(boolean stopping) {
    }

    /**
     * The owner hands off a batch it stepped as a standing-by worker ({@code selfTaking}): that worker takes the
     * first timer itself, so a batch of one wakes nobody. Otherwise as {@link #afterBatch(boolean)}.
     */
    void afterBatch(boolean stopping, boolean selfTaking) {
        afterBatch(stopping);
    }

    /**
     * Whoever steps the owner's loop (under its step token), as it plans a park: the tick of the next due timer, or
     * an earlier cascade tick when the slot that holds it is too crowded to search (see
     * {@code TimingWheel.minKeyOrNextEvent}), or {@link Long#MAX_VALUE} if none. The own pool has a worker stand by
     * for it (see {@code WorkerPool}); other dispatches ignore it.
     *
     * @return whether a worker will stand by for that tick
     */
    final boolean readyAt(long tick) {
        return readyAt(tick, false);
    }

    /**
     * As {@link #readyAt(long)}; {@code byStandby} when a standing-by worker's own step plans: that worker comes back
     * to stand by once it has run what it took, so it covers the next tick however near (see
     * {@link StandbySlot#readyAt}).
     *
     * @return whether a worker will stand by for that tick
     */
    boolean readyAt(long tick, boolean byStandby) {
        return false;
    }

    /**
     * Whether work due now ({@code execute}, {@code submit}, a delay of zero or less) goes to {@link #submitNow}
     * straight from the producer, instead of through the owner thread like any other timer.
     */
    boolean takesWorkDueNow() {
        return false;
    }

    /**
     * Any thread: hands over a timer due now, already DISPATCHED (only if {@link #takesWorkDueNow()}), and counts it
     * as submitted before it hands it on: in {@code countFromOutside} (null: not counted, for tests that race the
     * hand-off alone), or, from one of the pool's own tasks, in a count of that worker's own
     * ({@link #submittedByWorkers()}). The caller then re-reads the run state, as for a start (see
     * {@code CommandPort.acceptNow}).
     */
    void submitNow(ScheduledTimer<?> t, LongAdder countFromOutside) {
        throw new UnsupportedOperationException("work due now goes through the owner thread here");
    }

    /**
     * {@code get()} on {@code t}, not yet done, about to block: a dispatch that keeps such a timer for the calling
     * thread to run later hands it on here, so that the caller does not wait for itself.
     */
    void beforeAwait(ScheduledTimer<?> t) {
        // nothing is kept for a thread here
    }

    /**
     * Owner, once a step: a look at what waits to run (the own pool's watchdog, see {@code PoolOwnerSide.watch}).
     *
     * @return whether handed-off work is still queued, so that the owner looks again within {@link #stallNanos()}
     */
    boolean watch(long nowNanos) {
        return false;
    }

    /**
     * Owner, as it plans a park, after publishing its plan (a volatile store): whether handed-off work waits that
     * the watchdog could add a worker for. The other half of a capped push's nudge (see {@code WorkerPool.nudgeOwner}),
     * which pushes, then reads the owner's plan: a push the last {@link #watch} missed is seen either here or by the
     * nudge.
     */
    boolean backlogToWatch() {
        return false;
    }

    /** @return how soon the owner should look again while {@link #watch} says work is queued */
    long stallNanos() {
        return Long.MAX_VALUE;
    }

    /** @return chains of due timers the owner pushed to the own pool (metrics; any thread) */
    long ownerBatches() {
        return 0;
    }

    /**
     * @return one-shot timers the own pool's workers ran to their end and counted themselves (see
     *         {@code CommandPort.onEndedInPool}; metrics, any thread)
     */
    long endedInPool() {
        return 0;
    }

    /**
     * @return timers due now that the own pool's tasks submitted, counted by their workers (see {@link #submitNow};
     *         metrics, any thread)
     */
    long submittedByWorkers() {
        return 0;
    }

    /** @return parked pool workers woken (metrics; any thread) */
    long wakeups() {
        return 0;
    }

    /** Whether a task may be running on the owner thread (so shutdownNow interrupts the owner). */
    boolean runsOnOwner() {
        return false;
    }

    /** Whether {@code t} is one of the pool's own threads (close() from a task must not wait for itself). */
    boolean isPoolThread(Thread t) {
        return false;
    }

    /** The owner exits: no more hand-offs. */
    void shutdown() {
    }

    /** shutdownNow: interrupt running tasks and pass what was handed off but not started to {@code claim}. */
    void handBack(Consumer<ScheduledTimer<?>> claim) {
    }

    /** The owner failed: what was handed off but not started fails with {@code cause}; running tasks finish. */
    void failQueued(Throwable cause) {
    }

    boolean isTerminated() {
        return true;
    }

    boolean awaitTermination(long nanos) throws InterruptedException {
        return true;
    }

    static TaskDispatch ownerThread() {
        return new OwnerThread();
    }

    static TaskDispatch executor(Executor executor) {
        return new UserExecutor(executor);
    }

    /** @param factory the worker factory (see {@link TimerThreads#checkedWorkers}), given the role to name */
    static TaskDispatch ownPool(int workers, ThreadFactory factory, String role) {
        return new WorkerPool(workers, TimerThreads.checkedWorkers(factory, role, made -> { }));
    }

    /** Tasks run inside the owner's step: no hand-off, for tiny non-blocking tasks. */
    private static final class OwnerThread extends TaskDispatch {
        @Override
        void dispatch(ScheduledTimer<?> t) {
            t.run();
            Thread.interrupted(); // a task's interrupt must not reach the owner's park
        }

        @Override
        boolean runsOnOwner() {
            return true;
        }
    }

    /** The user's executor: tasks handed to it are its own to run, even after shutdownNow. */
    private static final class UserExecutor extends TaskDispatch {
        final Executor executor;

        UserExecutor(Executor executor) {
            this.executor = executor;
        }

        @Override
        void dispatch(ScheduledTimer<?> t) {
            try {
                executor.execute(t);
            } catch (Throwable e) {
                t.fail(e);
            }
        }
    }
}

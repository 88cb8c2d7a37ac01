package dev.tickwheel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How a timer ends: the owner thread's exit, the timers it hands back to {@code shutdownNow}, its failure, and the
 * waits on all of that ({@code awaitTermination}, {@code isTerminated}, {@code close}).
 *
 * <h2>Concurrency</h2>
 * The owner (or, once it is gone or never started, the {@code shutdownNow} winner) writes {@link #handedBack} and
 * {@link #failure} and then {@link #exit}s: it stores {@link #ownerDone} (sv) and counts the latch down, which
 * publishes everything it did to the threads that wait on the latch or read {@code ownerDone}.
 */
final class Termination {

    private final CountDownLatch ownerExited = new CountDownLatch(1);
    /** Set (sv) once the owner has exited, after which no thread polls the queues except the shutdownNow winner. */
    private volatile boolean ownerDone;
    /** The timers the owner collected for shutdownNow; sv before ownerExited counts down. */
    private volatile List<Runnable> handedBack;
    /** Why the owner failed, or null. sv by the failing owner before it stores STOP; lv by producers and runners. */
    private volatile Throwable failure;

    boolean ownerDone() {
        return ownerDone;
    }

    Throwable failure() {
        return failure;
    }

    void fail(Throwable e) {
        failure = e;
    }

    /** Publishes the hand-back list early, so that what was claimed reaches the caller even if collecting fails. */
    void publishHandedBack(List<Runnable> out) {
        handedBack = out;
    }

    /**
     * The owner's exit: publish the hand-back list (if any), shut the pool down, then release every waiter.
     *
     * @param returned the timers collected for shutdownNow, or null
     */
    void exit(List<Runnable> returned, TaskDispatch dispatch) {
        if (returned != null) {
            handedBack = returned;
        }
        try {
            dispatch.shutdown();
        } finally {
            // Whatever the pool's shutdown does, waiters in shutdownNow and awaitTermination are released.
            ownerDone = true;
            ownerExited.countDown();
        }
    }

    /** Waits for the owner's exit, uninterruptibly (shutdownNow's promise); the caller's interrupt is kept. */
    void awaitOwnerExit() {
        boolean interrupted = false;
        for (;;) {
            try {
                ownerExited.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the hand-back list, once: later calls get an empty list */
    List<Runnable> takeHandedBack() {
        List<Runnable> out = handedBack;
        handedBack = null;
        return out == null ? new ArrayList<>() : out;
    }

    /** @return whether nothing was handed back and the owner did not fail: it exited on its own after shutdown() */
    boolean exitedWithoutHandBack() {
        return handedBack == null && failure == null;
    }

    boolean isTerminated(TaskDispatch dispatch) {
        return ownerDone && dispatch.isTerminated();
    }

    boolean awaitTermination(long timeout, TimeUnit unit, TaskDispatch dispatch) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        long deadline = System.nanoTime() + nanos;
        if (!ownerExited.await(nanos, TimeUnit.NANOSECONDS)) {
            return false;
        }
        // A timeout near Long.MIN_VALUE would wrap the remaining time around to centuries: no wait is no wait.
        return dispatch.awaitTermination(nanos <= 0 ? 0 : deadline - System.nanoTime());
    }

    /**
     * {@code close()}: shut down, then wait for termination; an interrupt while waiting turns into shutdownNow,
     * whose timers nobody receives, so they are cancelled rather than left with their get() waiting forever. The
     * interrupt is kept. From a thread of the timer's own (a task), it does not wait for itself.
     */
    void close(WheelTimer timer, TaskDispatch dispatch, boolean onTimerThread) {
        timer.shutdown();
        if (onTimerThread) {
            return;
        }
        boolean interrupted = false;
        while (!isTerminated(dispatch)) {
            try {
                if (awaitTermination(1, TimeUnit.DAYS, dispatch)) {
                    break;
                }
            } catch (InterruptedException e) {
                if (!interrupted) {
                    for (Runnable r : timer.shutdownNow()) {
                        ((java.util.concurrent.Future<?>) r).cancel(false);
                    }
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

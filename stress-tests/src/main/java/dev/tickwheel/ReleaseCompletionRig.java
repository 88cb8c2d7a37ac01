package dev.tickwheel;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The state of {@link GetVsReleaseCompletion} and its broken twin: a one-shot future already running (claimed and
 * started by the constructing thread, as a caller's {@code run()} would), and a completer that ends it as a release
 * store of the terminal phase allows the hardware to: the first read of the waiter stack, the null check in
 * {@link TimerState#releaseWaiters()}, passes the store ({@link TimerState#completePhase}); the swap and the unparks,
 * release writes, stay after it. Staged in program order: the completer reads the stack ({@link TimerState#hasWaiters}),
 * says so ({@link #stackRead}), holds COMPLETING for a while, stores COMPLETED, and then releases the waiters only if
 * its read saw any. The waiter starts its {@code get()} only once the stack has been read, so that it reads COMPLETING
 * and, if it pushes itself, does so after the completer's read: the interleaving that a release store makes possible.
 */
final class ReleaseCompletionRig {

    static final String VALUE = "fired";
    /** How long the completer holds COMPLETING after its read of the stack: ample for the waiter to push and park. */
    private static final long PAUSE_NANOS = 1_000_000;

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    final ScheduledTimer<String> future;
    /** Set by the completer once it has read the waiter stack; the waiter waits for it before its {@code get()}. */
    volatile boolean stackRead;

    @SuppressWarnings("unchecked")
    ReleaseCompletionRig() {
        ScheduledFuture<String> f = timer.schedule(() -> VALUE, 1, TimeUnit.MILLISECONDS);
        future = (ScheduledTimer<String>) f;
        if (future.claimRun(false) == ScheduledTimer.NOT_CLAIMED) {
            throw new IllegalStateException("a fresh timer must be claimable");
        }
        future.taskOrOutcome = Thread.currentThread(); // the runner's thread, as run() stores it
        if (!future.startRun()) {
            throw new IllegalStateException("a fresh claim must start");
        }
    }

    /** The run's end, with the stack's null check moved before the terminal phase's store (see the class comment). */
    void completeReadingStackFirst() {
        if (!future.casPhase(TimerState.RUNNING, TimerState.COMPLETING)) {
            throw new IllegalStateException("the running timer must move to COMPLETING");
        }
        future.taskOrOutcome = VALUE;
        boolean anyWaiter = future.hasWaiters();
        stackRead = true;
        long until = System.nanoTime() + PAUSE_NANOS;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
        future.completePhase(TimerState.COMPLETED);
        if (anyWaiter) {
            future.releaseWaiters();
        }
    }

    /** The waiter's side: waits until the completer has read the stack. */
    void awaitStackRead() {
        while (!stackRead) {
            Thread.onSpinWait();
        }
    }

    static void check(String v) {
        if (!VALUE.equals(v)) {
            throw new IllegalStateException("get() returned " + v + ", not the task's value " + VALUE);
        }
    }
}

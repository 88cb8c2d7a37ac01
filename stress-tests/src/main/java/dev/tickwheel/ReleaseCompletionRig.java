package dev.tickwheel;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The state of {@link GetVsReleaseCompletion} and its broken twin: a one-shot future already running (claimed and
 * started by the constructing thread, as a caller's {@code run()} would), and a completer that ends it as a release
 * store allows the hardware to: it reads the waiter stack ({@link TimerState#releaseWaiters()}) before its store of
 * COMPLETED ({@link TimerState#completePhase}) is visible, here staged in program order, with a pause between the
 * two so that a waiter arriving meanwhile finds COMPLETING. The library's own run stores, then reads; a release store
 * lets the read pass the store, which is this order.
 */
final class ReleaseCompletionRig {

    static final String VALUE = "fired";
    /** Spin-waits between the completer's read of the stack and its store of the terminal phase. */
    private static final int PAUSE_SPINS = 2_000;

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    final ScheduledTimer<String> future;

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

    /** The run's end, with the read of the waiter stack moved before the terminal phase's store. */
    void completeReadingStackFirst() {
        if (!future.casPhase(TimerState.RUNNING, TimerState.COMPLETING)) {
            throw new IllegalStateException("the running timer must move to COMPLETING");
        }
        future.taskOrOutcome = VALUE;
        future.releaseWaiters();
        for (int i = 0; i < PAUSE_SPINS; i++) {
            Thread.onSpinWait();
        }
        future.completePhase(TimerState.COMPLETED);
    }

    static void check(String v) {
        if (!VALUE.equals(v)) {
            throw new IllegalStateException("get() returned " + v + ", not the task's value " + VALUE);
        }
    }
}

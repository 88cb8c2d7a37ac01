package dev.tickwheel;

import org.openjdk.jcstress.infra.results.IIIIIIII_Result;

/**
 * {@link CancelInterruptVsPoolRunStart}'s state and actors' bodies, shared with its broken twin: a one-shot timer due
 * now, taken from its own pool's queue ({@link Rigs#takenFromOwnPool}), whose task records what it saw just after
 * its start ({@link #SPIN}).
 * The task's fields are written by the worker actor only and read by the arbiter once both actors have returned.
 */
final class PoolRunStartRig {

    /**
     * Spins at the task's start, before its reads: a cancel(true) that wins RUNNING in the few instructions after
     * the claim's CAS has returned by the reads, so that one which found no thread to interrupt shows. Without it
     * the broken twin was caught in 1 of 2 gate runs (the cancel had to return before the task's first instruction).
     */
    static final int SPIN = 32;

    /** sv by the cancelling actor once cancel(true) has returned; lv by the task at its start. */
    private volatile boolean cancelReturned;
    private boolean started;
    private boolean sawReturned;
    private boolean sawInterrupted;
    private final ScheduledTimer<?> timer = Rigs.takenFromOwnPool(this::task);

    private void task() {
        for (int i = 0; i < SPIN; i++) {
            Thread.onSpinWait(); // room for a cancel that won just after the claim to return before the read below
        }
        sawReturned = cancelReturned; // if true, the cancel's interrupt happened before this read
        sawInterrupted = Thread.currentThread().isInterrupted();
        started = true;
    }

    /** The pool's run of the timer it took; broken: the thread stored after the claim's CAS. */
    void worker(IIIIIIII_Result r, boolean publishLate) {
        if (publishLate) {
            timer.runHandedOffPublishingLate();
        } else {
            timer.runHandedOff();
        }
        r.r7 = Thread.interrupted() ? 1 : 0; // also clears it, so a leak cannot disturb the harness
    }

    void canceller(IIIIIIII_Result r) {
        boolean cancelled = timer.cancel(true);
        cancelReturned = true;
        r.r1 = cancelled ? 1 : 0;
        r.r5 = timer.isDone() ? 1 : 0;
    }

    void after(IIIIIIII_Result r) {
        r.r2 = started ? 1 : 0;
        r.r3 = sawReturned ? 1 : 0;
        r.r4 = sawInterrupted ? 1 : 0;
        r.r6 = Rigs.ending(timer);
        r.r8 = timer.runnerThread() != null || timer.runInProgress() ? 1 : 0;
    }
}

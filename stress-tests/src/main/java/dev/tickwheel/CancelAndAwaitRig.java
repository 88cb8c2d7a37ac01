package dev.tickwheel;

import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The state and actors' bodies of {@link CancelAndAwaitVsRunStart} (the run on another executor's thread, a two-step
 * claim) and {@link CancelAndAwaitVsPoolRunStart} (the own pool's one-CAS claim): a handed-off timer whose task marks
 * its start and its end in volatile fields, and reads whether cancelAndAwait had returned before it started.
 */
final class CancelAndAwaitRig {

    private volatile int started;
    private volatile int ended;
    /** sv by the canceller once cancelAndAwait returned; lv by the task as it starts. */
    private volatile boolean awaitReturned;
    /** Written by the task (the worker actor), read by the arbiter. */
    private int startedAfterReturn;
    private final boolean byOwnPool;
    private final ScheduledTimer<?> timer;

    /** @param byOwnPool whether the timer is taken from its own pool's queue and run as that pool runs it */
    CancelAndAwaitRig(boolean byOwnPool) {
        this.byOwnPool = byOwnPool;
        this.timer = byOwnPool ? Rigs.takenFromOwnPool(this::task) : Rigs.handedOff(this::task);
    }

    private void task() {
        if (awaitReturned) {
            startedAfterReturn = 1;
        }
        started = 1;
        Thread.onSpinWait(); // a short body, so that the canceller can find it running
        ended = 1;
    }

    void worker() {
        if (byOwnPool) {
            timer.runHandedOff();
        } else {
            timer.run();
        }
    }

    void canceller(IIII_Result r) {
        boolean answer;
        try {
            answer = timer.cancelAndAwait();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        int s = started;
        int e = ended;
        awaitReturned = true;
        r.r1 = answer ? 1 : 0;
        r.r2 = s;
        r.r3 = e;
    }

    void after(IIII_Result r) {
        r.r4 = startedAfterReturn;
    }
}

package dev.tickwheel;

import java.util.ArrayList;
import java.util.List;

/**
 * The state and steps of the continuation-slot races ({@link ContinuationSlots}): a pool with one detached worker
 * inside a task, whose slot holds a timer that task submitted; its take after the task, the watchdog's (or
 * {@code get()}'s) move of it to the queue, and shutdownNow's hand-back. Each step has its broken twin's form.
 */
final class SlotRig {

    final WorkerPool pool = new WorkerPool(2, r -> {
        throw new AssertionError("no thread is started in this test");
    }, 1);
    final WorkerPool.Worker w = pool.detachedWorkerInTask(null);
    final ScheduledTimer<?> timer = Rigs.handedOff();
    private final List<ScheduledTimer<?>> handedBack = new ArrayList<>();
    private ScheduledTimer<?> taken;
    private boolean moved;

    SlotRig() {
        pool.runAsTaskOf(w, () -> pool.submitNow(timer, null)); // from inside w's task, with the queue empty: a fill
        if (pool.slotOf(w) != timer) {
            throw new IllegalStateException("the task's submit did not fill its worker's slot");
        }
    }

    /** The worker's take after its task: the pool's (one CAS), or a plain read and write (the broken twin). */
    void take(boolean claimed) {
        taken = claimed ? pool.takeSlotAfterTask(w) : pool.slots.takeUnclaimed(w);
    }

    /** The watchdog's move to the queue: the pool's (announced), or a bare one (the broken twin). */
    void move(boolean announced) {
        moved = announced ? pool.slots.move(w) : pool.slots.moveUnannounced(w);
    }

    void handBack() {
        pool.handBack(handedBack::add);
    }

    /**
     * After the actors: {taken by the worker, moved to the queue, handed back, still queued, still in the slot}, each
     * 0 or 1 for a correct pool; the timer is accounted once when the taken, handed-back and left counts sum to 1
     * (a move only passes it on).
     */
    int[] settle() {
        int queued = 0;
        for (TimingWheel.Node n : Rigs.drain(pool.queue)) {
            queued += n == timer ? 1 : 100;
        }
        int inSlot = pool.slotOf(w) == timer ? 1 : 0;
        int handed = 0;
        for (ScheduledTimer<?> t : handedBack) {
            handed += t == timer ? 1 : 100;
        }
        return new int[] {taken == timer ? 1 : taken == null ? 0 : 100, moved ? 1 : 0, handed, queued, inSlot};
    }
}

/**
 * The state and steps of the fill-vs-owner races ({@link SlotFillVsOwnerPark}, {@link SlotFillVsWatchdogLook} and
 * their broken twins): a manually driven timer whose pool has one detached worker inside a task (no thread is ever
 * started: a watch that moves the continuation leaves it queued), the continuation that task submits, and the owner's
 * steps and park plan.
 */
final class SlotParkRig {

    private final WheelTimer timer = WheelTimer.builder().timeSource(new ManualClock())
            .tick(1, java.util.concurrent.TimeUnit.MILLISECONDS).manualDrive().ownerBatch(Rigs.BATCH).workerThreads(2)
            .threadFactory(r -> {
                throw new IllegalStateException("no thread is started in this test");
            }).build();
    final WorkerPool pool = timer.pool();
    final WorkerPool.Worker w = pool.detachedWorkerInTask(null);
    final ScheduledTimer<?> continuation = Rigs.handedOff();
    /** Written by the owner's actor, read by the arbiter. */
    private long planned;

    /** @param hintSet whether the slots' hint starts set (left by an earlier fill whose continuation has run since) */
    SlotParkRig(boolean hintSet) {
        pool.slots.hint = hintSet;
    }

    /** The task's submit, from inside the worker's task with the queue empty: the pool's fill. */
    void fill() {
        pool.runAsTaskOf(w, () -> pool.submitNow(continuation, null));
    }

    /** The owner: one step (its watch), then its park plan. */
    void stepAndPlan() {
        OwnerLoop loop = OwnerLoop.of(timer);
        loop.step();
        planned = loop.ownerPark.planPark();
    }

    /**
     * The owner: the watchdog's look as a step makes it (the step's work before it touches no slot, so that the look
     * meets the fill), then the next step, whose look scans the slots only if the hint is set again, then the plan.
     */
    void lookStepAndPlan() {
        OwnerLoop loop = OwnerLoop.of(timer);
        pool.watch(0L);
        loop.step();
        planned = loop.ownerPark.planPark();
    }

    /**
     * {the plan (0 = must not park, 1 = park at most a tick, 2 = park with nothing due: indefinitely; -1 if the fill
     * never reached the slot or the queue, and the test tested nothing), 1 if the owner is marked awake}.
     */
    void settle(org.openjdk.jcstress.infra.results.II_Result r) {
        r.r1 = Rigs.planKind(planned);
        r.r2 = OwnerPark.of(timer).isAwake() ? 1 : 0;
        if (pool.slotOf(w) != continuation && pool.queue.isEmpty()) {
            r.r1 = -1;
        }
    }
}

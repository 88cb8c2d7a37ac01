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
        pool.runAsTaskOf(w, () -> pool.submitNow(timer)); // from inside w's task, with the queue empty: a fill
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

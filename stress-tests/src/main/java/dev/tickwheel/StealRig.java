package dev.tickwheel;

import java.util.ArrayList;
import java.util.List;

/**
 * The state and steps of {@link StealVsHandBack} and {@link BrokenStealVsHandBack}: a worker A holding four timers
 * of a batch of five (it claimed the first), a thief B stealing from it, and shutdownNow's hand-back.
 */
final class StealRig {

    final WorkerPool pool = new WorkerPool(2, r -> {
        throw new AssertionError("no thread is started in this test");
    }, 1);
    final WorkerPool.Worker a = pool.detachedWorker();
    final WorkerPool.Worker b = pool.detachedWorker();
    final ScheduledTimer<?>[] timers = {
        Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff()
    };
    private final List<ScheduledTimer<?>> handedBack = new ArrayList<>();
    private TimingWheel.Node stolen;

    StealRig() {
        for (ScheduledTimer<?> t : timers) {
            pool.dispatch(t);
        }
        pool.afterBatch(false); // its signal finds the pool full and nobody parked
        if (pool.queue.poll(a) != timers[0]) {
            throw new IllegalStateException("A's first claim is the batch's first timer");
        }
    }

    /** B's steal: the pool's own (announced), or the queue's bare one (the broken twin). */
    void steal(boolean announced) {
        stolen = announced ? pool.stealFrom(b, a) : pool.queue.steal(b, a);
    }

    void handBack() {
        pool.handBack(handedBack::add);
    }

    /**
     * After both: {handed back, claimed by the thief's steal, left in A's or B's batch (would run after shutdownNow
     * returned, or never), 1 if each of the four timers was accounted exactly once}.
     */
    int[] settle() {
        List<TimingWheel.Node> left = new ArrayList<>();
        for (TimingWheel.Node t; left.size() < 10 && (t = pool.queue.stealOne(a)) != null; ) {
            left.add(t);
        }
        for (TimingWheel.Node t; left.size() < 10 && (t = pool.queue.stealOne(b)) != null; ) {
            left.add(t);
        }
        boolean once = true;
        for (int i = 1; i < timers.length; i++) {
            int seen = stolen == timers[i] ? 1 : 0;
            for (ScheduledTimer<?> t : handedBack) {
                seen += t == timers[i] ? 1 : 0;
            }
            for (TimingWheel.Node t : left) {
                seen += t == timers[i] ? 1 : 0;
            }
            once &= seen == 1;
        }
        return new int[] {handedBack.size(), stolen == null ? 0 : 1, left.size(), once ? 1 : 0};
    }
}

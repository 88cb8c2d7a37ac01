package dev.tickwheel;

/**
 * The state and steps of {@link RefillVsLateThief} and {@link BrokenRefillVsLateThief}, which differ only in how the
 * holder arms a batch it takes out of the queue.
 */
final class LateThiefRig {

    final WorkerPool pool = new WorkerPool(2, r -> {
        throw new AssertionError("no thread is started in this test");
    }, 1);
    final WorkerPool.Worker a = pool.detachedWorker();
    final WorkerPool.Worker b = pool.detachedWorker();
    final ScheduledTimer<?>[] timers = {Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff()};
    private final int[] takesA = new int[4];
    private final int[] takesB = new int[4];
    private final boolean armWithoutGeneration;

    LateThiefRig(boolean armWithoutGeneration) {
        this.armWithoutGeneration = armWithoutGeneration;
        pool.dispatch(timers[0]);
        pool.dispatch(timers[1]);
        pool.afterBatch(false);
        count(pool.queue.poll(a), takesA);
    }

    /** A: claims the last of its batch (giving it back), hands off two more as the owner, and takes their batch. */
    void holderAndOwner() {
        count(pollWaiting(a), takesA); // the second timer: the last of the batch, which goes back to the owner
        pool.dispatch(timers[2]);
        pool.dispatch(timers[3]);
        pool.afterBatch(false); // refills the batch given back, if it came back
        count(pollWaiting(a), takesA); // takes the new batch out, arms it, claims its first
    }

    /** B: one steal from the batch A's slot shows. */
    void thief() {
        count(pool.queue.steal(b, a), takesB);
    }

    /** After both: claims what A and B still hold; returns how many times each timer was claimed in all. */
    int[] settle() {
        for (int i = 0; i < 10; i++) {
            TimingWheel.Node t = pollWaiting(a);
            if (t == null) {
                break;
            }
            count(t, takesA);
        }
        for (int i = 0; i < 10; i++) {
            TimingWheel.Node t = pollWaiting(b);
            if (t == null) {
                break;
            }
            count(t, takesB);
        }
        int[] sum = new int[4];
        for (int i = 0; i < 4; i++) {
            sum[i] = takesA[i] + takesB[i];
        }
        return sum;
    }

    private TimingWheel.Node pollWaiting(BatchHolder h) {
        for (int spins = 0; spins < 1_000_000; spins++) {
            TimingWheel.Node t = armWithoutGeneration ? pool.queue.pollArmingWithoutGeneration(h)
                    : pool.queue.poll(h);
            if (t != HandOffQueue.RETRY) {
                return t;
            }
            Thread.onSpinWait();
        }
        return null;
    }

    /** Counts a claim into an actor's own array (A's or B's; the arbiter sums them). */
    private void count(TimingWheel.Node t, int[] takes) {
        for (int i = 0; i < timers.length; i++) {
            if (timers[i] == t) {
                takes[i]++;
            }
        }
    }
}

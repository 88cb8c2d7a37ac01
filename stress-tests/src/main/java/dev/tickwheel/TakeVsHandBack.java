package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race 19: a batch handed off by the owner (two due timers chained and pushed as one, as {@link WorkerPool#afterBatch}
 * does) taken by a worker (poll until empty, run each) against shutdownNow's hand-back draining the same queue
 * ({@link WorkerPool#handBack}: poll, then claim DISPATCHED -&gt; RETURNED). The consumers take turns on the queue;
 * each timer must be taken exactly once, and end exactly one way: run once by the worker, or handed back once. The
 * timers belong to timers with their own pools ({@link Rigs#takenFromOwnPool}), so that the worker's run is the
 * pool's one-CAS claim (session 41), whose early store of its thread relies on this exclusivity.
 *
 * <p>Result: how many times each timer was taken off the queue, and how each ended (0 ran, 1 handed back, 2 both,
 * 3 neither).
 */
@JCStressTest
@Description("Pool worker taking a handed-off batch vs shutdownNow's hand-back: each timer taken once, run or returned")
@Outcome(id = "1, 1, [01], [01]", expect = ACCEPTABLE,
        desc = "each timer taken once: run by the worker or handed back (the worker may take the first, the second, "
                + "both or neither)")
@Outcome(id = "2, .*", expect = FORBIDDEN, desc = "the first timer was taken twice")
@Outcome(id = "., 2, .*", expect = FORBIDDEN, desc = "the second timer was taken twice")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the first timer was stranded in the queue")
@Outcome(id = "., 0, .*", expect = FORBIDDEN, desc = "the second timer was stranded in the queue")
@Outcome(expect = FORBIDDEN, desc = "a timer both ran and was handed back, or neither")
@State
public class TakeVsHandBack {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    private final int[] runs = new int[2];
    private final int[] takes = new int[2];
    private final int[] returned = new int[2];
    private final ScheduledTimer<?> first = Rigs.takenFromOwnPool(() -> runs[0]++);
    private final ScheduledTimer<?> second = Rigs.takenFromOwnPool(() -> runs[1]++);

    public TakeVsHandBack() {
        pool.detachedWorker();
        pool.dispatch(first); // the owner's chain, as a step builds it
        pool.dispatch(second);
        pool.afterBatch(false); // one push; its signal finds the pool full and nobody parked
    }

    private int index(TimingWheel.Node n) {
        return n == first ? 0 : n == second ? 1 : -1;
    }

    @Actor
    public void worker() {
        for (;;) {
            TimingWheel.Node n = pool.queue.poll();
            if (n == HandOffQueue.RETRY) {
                Thread.onSpinWait(); // as WorkerPool.take: the hand-back holds the turn, or a push is mid-link
                continue;
            }
            if (n == null) {
                return;
            }
            takes[index(n)]++;
            ((ScheduledTimer<?>) n).runHandedOff();
        }
    }

    @Actor
    public void shutdownNow() {
        pool.handBack(t -> {
            int i = index(t);
            takes[i]++;
            if (t.claimReturned()) {
                returned[i]++;
            }
        });
    }

    @Arbiter
    public void after(IIII_Result r) {
        r.r1 = takes[0];
        r.r2 = takes[1];
        r.r3 = ending(0);
        r.r4 = ending(1);
    }

    private int ending(int i) {
        return runs[i] == 1 && returned[i] == 0 ? 0 : runs[i] == 0 && returned[i] == 1 ? 1
                : runs[i] > 0 && returned[i] > 0 ? 2 : 3;
    }
}

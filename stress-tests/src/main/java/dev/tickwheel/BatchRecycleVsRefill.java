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
 * Race 28: a worker emptying a batch (two due timers handed off as one {@link HandOffBatch}, as a step hands them
 * off) against the owner's next step, which hands off two more and, for them, takes whatever batches have come back
 * on the free list: the one the worker is emptying, if the worker has recycled it. The worker polls until the queue
 * reads empty; the arbiter takes what is left. Every timer must be handed out exactly once: a batch reused while
 * still in the queue would hand out its new timers under the old node, skip them, or hand one out twice.
 *
 * <p>Result: how many times each of the four timers was handed out (worker and arbiter together).
 */
@JCStressTest
@Description("Worker emptying a batch vs the owner refilling recycled batches: each timer handed out once")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "each timer handed out exactly once")
@Outcome(expect = FORBIDDEN, desc = "a timer handed out twice, or never")
@State
public class BatchRecycleVsRefill {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    private final ScheduledTimer<?>[] timers = {
        Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff()
    };
    private final int[] takes = new int[4];

    public BatchRecycleVsRefill() {
        pool.detachedWorker();
        pool.dispatch(timers[0]);
        pool.dispatch(timers[1]);
        pool.afterBatch(false); // one batch of two; its signal finds the pool full and nobody parked
    }

    @Actor
    public void worker() {
        drain(200);
    }

    @Actor
    public void owner() {
        pool.dispatch(timers[2]);
        pool.dispatch(timers[3]);
        pool.afterBatch(false);
    }

    @Arbiter
    public void after(IIII_Result r) {
        drain(200);
        r.r1 = takes[0];
        r.r2 = takes[1];
        r.r3 = takes[2];
        r.r4 = takes[3];
    }

    /** Polls until the queue reads empty; bounded, so that a broken queue cannot hang the run. */
    void drain(int maxTakes) {
        for (int spins = 0, n = 0; n < maxTakes && spins < 1_000_000; ) {
            TimingWheel.Node t = poll();
            if (t == HandOffQueue.RETRY) {
                spins++;
                Thread.onSpinWait(); // as WorkerPool.take: a push is mid-link
                continue;
            }
            if (t == null) {
                return;
            }
            n++;
            for (int i = 0; i < timers.length; i++) {
                if (timers[i] == t) {
                    takes[i]++;
                }
            }
        }
    }

    TimingWheel.Node poll() {
        return pool.queue.poll();
    }
}

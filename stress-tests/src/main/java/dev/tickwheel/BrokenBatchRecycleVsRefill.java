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
 * A deliberately BROKEN consumer, to show that {@link BatchRecycleVsRefill} can fail: the worker gives an emptied
 * batch back to the owner ({@link HandOffQueue#pollRecyclingFirst}) before it takes the batch's node out of the queue,
 * so the owner may refill and push the same node while it is still queued.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenBatchRecycleVsRefill -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN: the worker recycles an emptied batch before taking its node out; expected to fail")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "each timer handed out exactly once")
@Outcome(expect = FORBIDDEN, desc = "a timer handed out twice, or never")
@State
public class BrokenBatchRecycleVsRefill {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    private final ScheduledTimer<?>[] timers = {
        Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff()
    };
    private final int[] takes = new int[4];

    public BrokenBatchRecycleVsRefill() {
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
        return pool.queue.pollRecyclingFirst(); // BROKEN: recycles an emptied batch before its node leaves
    }
}

package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Race 30: a worker claiming from the batch it holds against a thief stealing from it. A step handed off five due
 * timers as one {@link HandOffBatch}; worker A took the batch out of the queue (armed it) and claimed the first, so it
 * holds four. A then claims until its batch reads empty ({@link HandOffQueue#poll(BatchHolder)}: CAS of the word's
 * {@code lo}); thief B steals once ({@link HandOffQueue#steal}: the upper half of what is left, copied into its own
 * batch before a CAS of the word's {@code hi}, or the last timer alone) and then claims what it stole from its own
 * batch. Each timer must be claimed exactly once, and the batch given back to the owner exactly once, by whichever
 * claim emptied it.
 *
 * <p>Result: how many times each of the four timers left was claimed (A and B together), and how many times the batch
 * came back on the free list.
 */
@JCStressTest
@Description("Holder claiming from its batch vs a thief stealing from it: each timer once, the batch given back once")
@Outcome(id = "1, 1, 1, 1, 1", expect = ACCEPTABLE, desc = "each timer claimed once; the batch given back once")
@Outcome(expect = FORBIDDEN, desc = "a timer claimed twice or never, or the batch given back twice or never")
@State
public class ClaimVsSteal {

    private final WorkerPool pool = new WorkerPool(2, r -> {
        throw new AssertionError("no thread is started in this test");
    }, 1);
    private final WorkerPool.Worker a = pool.detachedWorker();
    private final WorkerPool.Worker b = pool.detachedWorker();
    private final ScheduledTimer<?>[] timers = {
        Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff()
    };
    private final int[] takesA = new int[5];
    private final int[] takesB = new int[5];

    public ClaimVsSteal() {
        for (ScheduledTimer<?> t : timers) {
            pool.dispatch(t);
        }
        pool.afterBatch(false); // one batch of five; its signal finds the pool full and nobody parked
        if (pool.queue.poll(a) != timers[0]) {
            throw new IllegalStateException("A's first claim is the batch's first timer");
        }
    }

    @Actor
    public void holder() {
        drain(a, takesA);
    }

    @Actor
    public void thief() {
        TimingWheel.Node t = pool.queue.steal(b, a);
        if (t != null) {
            count(t, takesB);
            drain(b, takesB);
        }
    }

    @Arbiter
    public void after(IIIII_Result r) {
        r.r1 = takesA[1] + takesB[1];
        r.r2 = takesA[2] + takesB[2];
        r.r3 = takesA[3] + takesB[3];
        r.r4 = takesA[4] + takesB[4];
        int back = 0;
        for (HandOffBatch f = pool.queue.freeBatches; f != null && back < 10; f = f.freeNext) {
            back++;
        }
        r.r5 = back;
    }

    /** Claims from what {@code h} holds until it reads empty (the queue is empty: no RETRY but a bounded few). */
    private void drain(BatchHolder h, int[] takes) {
        for (int n = 0, spins = 0; n < 10 && spins < 1_000_000; ) {
            TimingWheel.Node t = pool.queue.poll(h);
            if (t == HandOffQueue.RETRY) {
                spins++;
                Thread.onSpinWait();
                continue;
            }
            if (t == null) {
                return;
            }
            n++;
            count(t, takes);
        }
    }

    private void count(TimingWheel.Node t, int[] takes) {
        for (int i = 0; i < timers.length; i++) {
            if (timers[i] == t) {
                takes[i]++;
            }
        }
    }
}

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
 * Race 18: a worker of the default pool taking a handed-off timer (poll, then run) against shutdownNow's hand-back
 * draining the same queue ({@link WorkerPool#handBack}: poll, then claim NEW -&gt; RETURNED). The timer must end
 * exactly one way: run once by the worker, or handed back once to shutdownNow's caller. Both, or neither, is the
 * bug the pool must not have.
 *
 * <p>Result: how many times the task ran, how many timers the hand-back claimed, whether the worker's poll got the
 * timer, and how the future ended (0 completed, 1 cancelled, 2 other: a returned timer is pending until its
 * caller runs or cancels it).
 */
@JCStressTest
@Description("Pool worker take vs shutdownNow hand-back: each handed-off timer runs once or is handed back once")
@Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "the worker took the timer first and ran it")
@Outcome(id = "0, 1, 0, 2", expect = ACCEPTABLE,
        desc = "the hand-back took it first: returned to shutdownNow's caller, not run, its future still pending")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "BOTH: the task ran and was also handed back")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "NEITHER: the timer was neither run nor handed back (lost)")
@Outcome(expect = FORBIDDEN, desc = "ran twice, claimed twice, or a future ending that contradicts the outcome")
@State
public class TakeVsHandBack {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    private final int[] runs = new int[1];
    private final ScheduledTimer<?> timer = Rigs.handedOff(() -> runs[0]++);
    /** Written by the worker actor, read by the arbiter. */
    private boolean took;
    /** Written by the shutdownNow actor, read by the arbiter. */
    private int claimed;

    public TakeVsHandBack() {
        pool.enqueue(timer);
    }

    @Actor
    public void worker() {
        ScheduledTimer<?> t = pool.poll();
        if (t != null) {
            took = true;
            t.run();
        }
    }

    @Actor
    public void shutdownNow() {
        pool.handBack(t -> {
            if (t.claimReturned()) {
                claimed++;
            }
        });
    }

    @Arbiter
    public void after(IIII_Result r) {
        r.r1 = runs[0];
        r.r2 = claimed;
        r.r3 = took ? 1 : 0;
        r.r4 = Rigs.ending(timer);
    }
}

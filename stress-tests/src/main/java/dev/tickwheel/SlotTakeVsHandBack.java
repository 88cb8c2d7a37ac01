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
 * A worker's take of its continuation after its task vs shutdownNow's hand-back, which claims what every slot holds:
 * run or handed back, never both, never neither ({@link BrokenSlotTakeVsHandBack}, a plain take, does both).
 *
 * <p>Result: taken by the worker, handed back, left in the queue, left in the slot.
 */
@JCStressTest
@Description("Worker's take of its continuation vs shutdownNow's hand-back: run or returned, exactly one")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "the worker took its continuation first: it runs it (interrupted, as a task taken before shutdownNow)")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "the hand-back claimed it first: shutdownNow returns it")
@Outcome(id = "1, 1, 0, 0", expect = FORBIDDEN, desc = "BOTH: it runs and shutdownNow returns it")
@Outcome(expect = FORBIDDEN, desc = "the continuation lost, or accounted twice")
@State
public class SlotTakeVsHandBack {

    private final SlotRig rig = new SlotRig();

    @Actor
    public void worker() {
        rig.take(true);
    }

    @Actor
    public void shutdownNow() {
        rig.handBack();
    }

    @Arbiter
    public void after(IIII_Result r) {
        int[] s = rig.settle();
        r.r1 = s[0];
        r.r2 = s[2];
        r.r3 = s[3];
        r.r4 = s[4];
    }
}

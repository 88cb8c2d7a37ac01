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
 * A worker's take of its continuation after its task vs the owner's watchdog moving it to the queue (it saw the
 * worker inside the same task a stall apart: see {@link ContinuationSlots}). Each empties the slot with one CAS from
 * the timer to null: exactly one has it ({@link BrokenSlotTakeVsMove}, whose take is a plain read and write, runs it
 * twice).
 *
 * <p>Result: taken by the worker, moved by the watchdog, left in the queue, left in the slot.
 */
@JCStressTest
@Description("Worker's take of its continuation vs the watchdog's move to the queue: exactly one has it")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "the worker took its continuation first: it runs it")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE,
        desc = "the watchdog moved it first: it is queued, for another worker, and the worker's take found nothing")
@Outcome(id = "1, 1, 1, 0", expect = FORBIDDEN,
        desc = "TWICE: the worker runs it and it is queued for another worker as well")
@Outcome(expect = FORBIDDEN, desc = "the continuation lost, or accounted twice")
@State
public class SlotTakeVsMove {

    private final SlotRig rig = new SlotRig();

    @Actor
    public void worker() {
        rig.take(true);
    }

    @Actor
    public void watchdog() {
        rig.move(true);
    }

    @Arbiter
    public void after(IIII_Result r) {
        int[] s = rig.settle();
        r.r1 = s[0];
        r.r2 = s[1];
        r.r3 = s[3];
        r.r4 = s[4];
    }
}

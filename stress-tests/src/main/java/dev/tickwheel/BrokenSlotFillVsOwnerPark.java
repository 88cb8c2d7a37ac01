package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A deliberately BROKEN fill, to show that {@link SlotFillVsOwnerPark} can fail: the slot is filled with a release
 * store and the hint is never set, so only the nudge remains; a fill whose nudge finds the owner still awake, before
 * it publishes its plan, leaves the owner parked for good with the continuation in the slot.
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenSlotFillVsOwnerPark -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN fill without the hint vs the owner's park plan: expected to lose the watchdog's look")
@Outcome(id = {"1, 0", "1, 1"}, expect = ACCEPTABLE,
        desc = "the step's watch saw the filled slot: the owner parks at most a tick, to look again (the nudge may "
                + "also have found that plan and marked the owner awake)")
@Outcome(id = "0, 1", expect = ACCEPTABLE,
        desc = "the watch missed the fill and the nudge found the owner awake; the owner's look after publishing its "
                + "plan saw the hint, so it does not park and its next step's watch looks at the slot")
@Outcome(id = "2, 1", expect = ACCEPTABLE,
        desc = "the fill came after the owner's look: the nudge found the published plan and woke the owner")
@Outcome(id = "2, 0", expect = FORBIDDEN,
        desc = "LOST: the owner parks with nothing due while a continuation waits in a slot it never looks at: a "
                + "task blocked on it would wait forever")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach (a withdrawn plan is always marked awake)")
@State
public class BrokenSlotFillVsOwnerPark {

    private final SlotParkRig rig = new SlotParkRig(false);

    @Actor
    public void task() {
        rig.pool.slots.fillWithoutHint(rig.w, rig.continuation); // BROKEN: no hint, a release store
    }

    @Actor
    public void owner() {
        rig.stepAndPlan();
    }

    @Arbiter
    public void after(II_Result r) {
        rig.settle(r);
    }
}

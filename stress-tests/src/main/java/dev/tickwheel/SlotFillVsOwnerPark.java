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
 * A task's fill of its worker's continuation slot vs the owner's step and park plan. A fill wakes nobody, so the
 * owner's watchdog must look within a stall (it moves the continuation to the queue if the task stays inside, perhaps
 * blocked on it). The filler stores the timer (volatile), sets the slots' hint if clear, then reads the owner's plan
 * (the nudge); the watchdog clears the hint, then reads the slots; the owner publishes its plan, then reads the hint.
 * Either the watch sees the slot, or the owner sees the hint after its plan, or the nudge finds the plan and wakes
 * the owner ({@link BrokenSlotFillVsOwnerPark}, a fill without the hint, lets the owner park for good).
 *
 * <p>Result: the plan (0 = must not park, 1 = park at most a tick, the watchdog's look, 2 = park with nothing due:
 * indefinitely) and whether the owner is marked awake afterwards (1 = the nudge woke it, or the plan was withdrawn).
 */
@JCStressTest
@Description("A task's fill of its continuation slot vs the owner's step and park plan: the watchdog always looks")
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
public class SlotFillVsOwnerPark {

    private final SlotParkRig rig = new SlotParkRig(false);

    @Actor
    public void task() {
        rig.fill(); // empty queue: a fill
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

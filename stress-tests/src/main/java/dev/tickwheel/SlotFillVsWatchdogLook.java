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
 * A task's fill of its worker's continuation slot, with the slots' hint already set, vs the owner's watchdog, which
 * clears the hint and then looks at the slots (its look, then a step's), then plans its park. The filler's read of the set hint
 * leaves it as it is; only the fill's volatile store, ordered before that read, makes the watchdog's look after its
 * clear see the slot. {@link BrokenSlotFillVsWatchdogLook} reads the hint before it stores the slot, and fails
 * ({@link SlotFillVsOwnerPark} starts with the hint clear, where the filler's own write of it decides).
 *
 * <p>Result: the plan (0 = must not park, 1 = park at most a tick, the watchdog's look, 2 = park with nothing due:
 * indefinitely) and whether the owner is marked awake afterwards (1 = the nudge woke it, or the plan was withdrawn).
 * A watch that moves the continuation (its task still inside a stall later) queues it, and the owner then keeps
 * looking: a plan of 1.
 */
@JCStressTest
@Description("A task's fill vs the watchdog's clear-then-look, the hint already set: the look sees the slot")
@Outcome(id = {"1, 0", "1, 1"}, expect = ACCEPTABLE,
        desc = "a watch saw the filled slot (the first, whose look followed the filler's read of the set hint, or the "
                + "second, after the filler set the hint the first had cleared): the owner parks at most a tick")
@Outcome(id = "0, 1", expect = ACCEPTABLE,
        desc = "the fill came after the second watch: the owner's look after publishing its plan saw the hint the "
                + "filler set, so it does not park")
@Outcome(id = "2, 1", expect = ACCEPTABLE,
        desc = "the fill came after the owner's look: the nudge found the published plan and woke the owner")
@Outcome(id = "2, 0", expect = FORBIDDEN,
        desc = "LOST: the filler read the hint still set and left it, the watchdog cleared it and looked past the "
                + "slot, and the owner parks with nothing due beside a continuation it never looks at again")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach (a withdrawn plan is always marked awake)")
@State
public class SlotFillVsWatchdogLook {

    private final SlotParkRig rig = new SlotParkRig(true);

    @Actor
    public void task() {
        rig.fill(); // empty queue: a fill
    }

    @Actor
    public void owner() {
        rig.lookStepAndPlan();
    }

    @Arbiter
    public void after(II_Result r) {
        rig.settle(r);
    }
}

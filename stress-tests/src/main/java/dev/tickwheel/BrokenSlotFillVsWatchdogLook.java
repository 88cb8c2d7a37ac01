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
 * A deliberately BROKEN fill, to show that {@link SlotFillVsWatchdogLook} can fail: the filler reads the hint (set)
 * before it stores the slot, so the watchdog's clear and its look at the slots can come between the two: the look
 * misses the slot, the hint stays clear, and the owner parks for good with the continuation in the slot. (A fill with
 * a release store, whose read of the hint the hardware may move before the store, is the same bug; on x86 it passed
 * 28 of 28 configurations, the reordering window being too narrow to catch.)
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenSlotFillVsWatchdogLook -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN fill reading the hint first vs the watchdog's clear-then-look: expected to be missed")
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
public class BrokenSlotFillVsWatchdogLook {

    private final SlotParkRig rig = new SlotParkRig(true);

    @Actor
    public void task() {
        rig.pool.slots.fillHintFirst(rig.w, rig.continuation); // BROKEN: the hint read before the store
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

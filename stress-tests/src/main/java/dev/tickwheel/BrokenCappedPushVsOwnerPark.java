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
 * A deliberately BROKEN park plan, to show that {@link CappedPushVsOwnerPark} can fail: the owner publishes its plan
 * and does not look at the pool's queue after it ({@code OwnerPark.planPark(false)}). A push after the step's watch
 * whose nudge found the owner still awake is then seen by nobody, and the owner parks with nothing due.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenCappedPushVsOwnerPark -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN park plan (no look at the pool): work due now with the awake cap full (nudges the owner) vs the owner's step and park plan")
@Outcome(id = "0, 1", expect = ACCEPTABLE,
        desc = "the step's watch missed the push and the nudge found the owner awake; the owner's look after publishing "
                + "its plan saw the queued task, so it does not park and its next step's watch takes over")
@Outcome(id = {"1, 0", "1, 1"}, expect = ACCEPTABLE,
        desc = "the step's watch saw the queued task: the owner parks at most a tick, to look again (the nudge may "
                + "also have found that plan and marked the owner awake)")
@Outcome(id = "2, 1", expect = ACCEPTABLE,
        desc = "the push came after the owner's look: the nudge found the published plan and woke the owner")
@Outcome(id = "2, 0", expect = FORBIDDEN,
        desc = "LOST NUDGE: the owner parks with nothing due though a task waits in the pool's queue, its wake-up "
                + "held back by the cap, and nobody woke the owner: a parked worker stays parked beside it")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach (a withdrawn plan is always marked awake)")
@State
public class BrokenCappedPushVsOwnerPark {

    private final WheelTimer timer = Rigs.ownPool(new ManualClock());
    /** Written by the owner's actor, read by the arbiter. */
    private long planned;

    public BrokenCappedPushVsOwnerPark() {
        Rigs.capFullWithOneParked(timer);
    }

    @Actor
    public void producer() {
        timer.execute(() -> { }); // due now, from outside the pool: pushed to it, capped, so it nudges the owner
    }

    @Actor
    public void owner() {
        OwnerLoop loop = OwnerLoop.of(timer);
        loop.step();
        planned = loop.ownerPark.planPark(false); // BROKEN: the owner does not look at the pool after its plan
    }

    @Arbiter
    public void after(II_Result r) {
        r.r1 = Rigs.planKind(planned);
        r.r2 = OwnerPark.of(timer).isAwake() ? 1 : 0;
    }
}

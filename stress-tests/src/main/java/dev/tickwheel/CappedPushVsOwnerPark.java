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
 * The capped push's nudge vs the owner's park. Work due now submitted from outside the pool while the awake
 * cap is full (every awake worker may be blocked in its task) wakes nobody; it nudges the owner instead, whose
 * watchdog then adds a worker past the cap. The nudge reads the owner's plan after the push; the owner publishes its
 * plan, then looks at the pool's queue ({@code TaskDispatch.backlogToWatch}). A push that the owner's last watch
 * missed, whose nudge found the owner still awake, must be seen by that look: else the owner parks with no timer due
 * (indefinitely), a worker stays parked beside the queued task, and the awake workers, blocked, may wait for it
 * forever. (Found in CI: a probe task of the contract suite waited 30 s behind another that waited for it.)
 *
 * <p>The pool: as many detached workers awake as the cap (blocked in tasks, as far as the pool knows) and one parked.
 * The owner's actor steps (its watch sees an empty queue or the push) and plans its park. Result: the plan (0 = must
 * not park, 1 = park at most a tick, the watchdog's look, 2 = park with nothing due: indefinitely) and whether the
 * owner is marked awake afterwards (1 = the nudge woke it, or the plan was withdrawn).
 */
@JCStressTest
@Description("Work due now with the awake cap full (nudges the owner) vs the owner's step and park plan: no lost nudge")
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
public class CappedPushVsOwnerPark {

    private final WheelTimer timer = Rigs.ownPool(new ManualClock());
    /** Written by the owner's actor, read by the arbiter. */
    private long planned;

    public CappedPushVsOwnerPark() {
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
        planned = loop.ownerPark.planPark();
    }

    @Arbiter
    public void after(II_Result r) {
        r.r1 = Rigs.planKind(planned);
        r.r2 = OwnerPark.of(timer).isAwake() ? 1 : 0;
    }
}

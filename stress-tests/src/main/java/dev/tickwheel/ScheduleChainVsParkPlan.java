package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race 6, the lost wake-up, through the start chain (issue 23): as {@link ScheduleVsParkPlan}, but the start queue's
 * only ring (2 commands, a test seam, no spare) is full of two queued starts, so a producer that offers before the
 * owner's drains pushes its new timer into the start chain ({@link TimerChain}): it claims its place by an atomic add
 * on the chain's push count, swaps itself in as the tail, then links the timer before it. The owner's handshake
 * (publish the plan, drain, read the indexes) must count that claim even before the link is visible, or the producer
 * must see the plan.
 *
 * <p>Result: the owner's decision (0 = must not park, 1 = park until a tick at or before 5, 2 = park past tick 5),
 * whether the owner is marked awake afterwards, whether the owner's drain took the new timer into the wheel, and
 * whether the producer's start went into the chain (1) or into the ring after the owner's drain (0).
 * {@link BrokenScheduleChainVsParkPlan} is the same race with an owner blind to the chain; it fails.
 */
@JCStressTest
@Description("Lost wake-up through the start chain: a schedule past the ring vs the owner's park decision")
@Outcome(id = {"0, 1, 1, 0", "0, 1, 1, 1"}, expect = ACCEPTABLE,
        desc = "the owner's re-drain after publishing its plan found the new timer (in the ring, or in the chain), "
                + "so it does not park")
@Outcome(id = {"0, 1, 0, 0", "0, 1, 0, 1"}, expect = ACCEPTABLE_INTERESTING,
        desc = "the producer had claimed its place (in the ring or the chain) but its link was not yet visible to "
                + "the re-drain; the owner's index check saw the claim, so it does not park and takes the timer next step")
@Outcome(id = {"2, 1, 0, 0", "2, 1, 0, 1"}, expect = ACCEPTABLE,
        desc = "the producer offered after the owner's re-drain, saw the plan (tick 50) and woke the owner")
@Outcome(id = {"2, 0, 0, 0", "2, 0, 0, 1"}, expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the owner plans to sleep past the new deadline, did not drain the new timer, and no "
                + "producer woke it: the timer would fire late (by up to the whole plan)")
@Outcome(expect = FORBIDDEN,
        desc = "a decision that does not match what the owner saw (a plan past tick 5 though its own drain took the "
                + "tick-5 timer, or a plan at or before tick 5): the wheel's next event or the handshake is off")
@State
public class ScheduleChainVsParkPlan {

    private final ParkPlanRace race = ParkPlanRace.chain(CommandQueue.Flaw.NONE);

    @Actor
    public void producer() {
        race.producer();
    }

    @Actor
    public void owner() {
        race.owner();
    }

    @Arbiter
    public void after(IIII_Result r) {
        race.after(r);
    }
}

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
 * A deliberately BROKEN owner, to show that {@link ScheduleChainVsParkPlan} can fail: its side of the start queue
 * looks past the chain ({@link CommandQueue.Flaw#BLIND_TO_CHAIN}): it neither drains it nor counts its claims. A new
 * timer pushed into the chain before the owner publishes its plan is then neither drained nor counted by the index
 * check, and its producer read the owner as awake: the owner parks past the timer's deadline.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenScheduleChainVsParkPlan -m quick}. It is expected to
 * FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN (owner blind to the chain): lost wake-up through the start chain: a schedule past the ring vs the owner's park decision")
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
public class BrokenScheduleChainVsParkPlan {

    private final ParkPlanRace race = ParkPlanRace.chain(CommandQueue.Flaw.BLIND_TO_CHAIN);

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

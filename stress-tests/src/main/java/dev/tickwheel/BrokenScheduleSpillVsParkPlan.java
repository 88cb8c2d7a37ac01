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
 * A deliberately BROKEN command queue, to show that {@link ScheduleSpillVsParkPlan} can fail: the owner's side looks
 * only at the first ring and the overflow, as before the spare rings existed ({@link CommandQueue.Flaw#BLIND_TO_SPARES}).
 * A start that spills into a spare ring before the owner publishes its plan is then neither drained nor counted by the
 * index check, and its producer read the owner as awake: the owner parks past the timer's deadline.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenScheduleSpillVsParkPlan -m quick}. It is expected to
 * FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN (owner blind to spare rings): a schedule that spills vs the owner's park decision")
@Outcome(id = {"0, 1, 1, 0", "0, 1, 1, 1"}, expect = ACCEPTABLE,
        desc = "the owner's re-drain after publishing its plan found the new timer (in the first ring, or in the "
                + "spare ring the producer installed), so it does not park")
@Outcome(id = {"0, 1, 0, 0", "0, 1, 0, 1"}, expect = ACCEPTABLE_INTERESTING,
        desc = "the producer had claimed its index (in either ring) but its element was not yet visible to the "
                + "re-drain; the owner's index check saw the claim, so it does not park and takes the timer next step")
@Outcome(id = {"2, 1, 0, 0", "2, 1, 0, 1"}, expect = ACCEPTABLE,
        desc = "the producer offered after the owner's re-drain, saw the plan (tick 50) and woke the owner")
@Outcome(id = {"2, 0, 0, 0", "2, 0, 0, 1"}, expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the owner plans to sleep past the new deadline, did not drain the new timer, and no "
                + "producer woke it: the timer would fire late (by up to the whole plan)")
@Outcome(expect = FORBIDDEN,
        desc = "a decision that does not match what the owner saw (a plan past tick 5 though its own drain took the "
                + "tick-5 timer, or a plan at or before tick 5): the wheel's next event or the handshake is off")
@State
public class BrokenScheduleSpillVsParkPlan {

    private final ParkPlanRace race = ParkPlanRace.spill(CommandQueue.Flaw.BLIND_TO_SPARES);

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

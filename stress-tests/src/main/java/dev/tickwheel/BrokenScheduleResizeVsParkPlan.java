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
 * A deliberately BROKEN index check, to show what {@link ScheduleResizeVsParkPlan} guards against: the start queue
 * asks JCTools' overflow whether it is empty, which halves the indexes and so reads a producer's resize claim (an odd
 * producer index) as no claim ({@link CommandQueue.Flaw#EMPTY_MID_RESIZE}). The owner then parks unless the producer,
 * re-checking after its offer, reads the plan. Under sequential consistency it always does; the lost wake-up needs the
 * producer's plan load to pass its own release store of the even index (a store buffer that still holds that store
 * while the owner publishes its plan, drains and checks). The rig is otherwise {@link ScheduleResizeVsParkPlan}'s.
 *
 * <p>It has not failed on the 2-vCPU Intel Xeon it was written on (1,199,068 samples, quick mode, 5 iterations of the
 * 14 configurations, 2026-11-28): the window is a store buffer's drain, and the owner's drain in between takes longer.
 * So it documents the window rather than demonstrating it; the fix rests on the memory model, which allows the loss.
 *
 * <p>Result: the owner's decision (0 = must not park, 1 = park until a tick at or before 5, 2 = park past tick 5),
 * whether the owner is marked awake afterwards, whether the owner's drain took the new timer into the wheel, and
 * whether the producer's start went into the overflow (1) or into the ring after the owner's drain (0).
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenScheduleResizeVsParkPlan -m tough}.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN (halving index check): a schedule that resizes the overflow vs the owner's park plan")
@Outcome(id = {"0, 1, 1, 0", "0, 1, 1, 1"}, expect = ACCEPTABLE,
        desc = "the owner's re-drain after publishing its plan found the new timer (in the ring, or in the overflow's "
                + "new chunk), so it does not park")
@Outcome(id = {"0, 1, 0, 0", "0, 1, 0, 1"}, expect = ACCEPTABLE_INTERESTING,
        desc = "the producer had claimed its index (in the ring, or the odd resize claim in the overflow) but its "
                + "element was not yet reachable by the re-drain; the index check saw the claim, so the owner does not "
                + "park and takes the timer next step")
@Outcome(id = {"2, 1, 0, 0", "2, 1, 0, 1"}, expect = ACCEPTABLE,
        desc = "the producer offered after the owner's re-drain, or its resize claim was read as no claim, and it "
                + "saw the plan (tick 50) and woke the owner")
@Outcome(id = {"2, 0, 0, 0", "2, 0, 0, 1"}, expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the owner plans to sleep past the new deadline, did not drain the new timer, and no "
                + "producer woke it: the timer would fire late (by up to the whole plan)")
@Outcome(expect = FORBIDDEN,
        desc = "a decision that does not match what the owner saw (a plan past tick 5 though its own drain took the "
                + "tick-5 timer, or a plan at or before tick 5): the wheel's next event or the handshake is off")
@State
public class BrokenScheduleResizeVsParkPlan {

    private final ParkPlanRace race = ParkPlanRace.resize(CommandQueue.Flaw.EMPTY_MID_RESIZE);

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

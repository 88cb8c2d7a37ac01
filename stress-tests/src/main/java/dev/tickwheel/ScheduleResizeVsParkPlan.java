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
 * Race 6, the lost wake-up, through the overflow's resize (issue 23): as {@link ScheduleVsParkPlan}, but the start
 * queue has one ring of 2 commands and no spare, and an overflow of chunks of 2 (a test seam); two queued starts fill
 * the ring and a third fills the overflow's first chunk. A producer that offers before the owner's drain takes that
 * third start links a new chunk: it claims by making the overflow's producer index odd (a CAS), links the chunk and
 * stores its element, and only then publishes the next even index (a release store), so that for a while its command
 * is neither drainable nor counted by an index check that halves the indexes, as JCTools' {@code isEmpty} does. The
 * owner's handshake (publish the plan, drain, check the indexes) must count that claim, or the producer must see the
 * plan.
 *
 * <p>Result: the owner's decision (0 = must not park, 1 = park until a tick at or before 5, 2 = park past tick 5),
 * whether the owner is marked awake afterwards, whether the owner's drain took the new timer into the wheel, and
 * whether the producer's start went into the overflow (1) or into the ring after the owner's drain (0). A 1 does not
 * prove a resize: a producer that reads the overflow's third start as taken (the owner drained between its failed
 * ring offer and its overflow offer) stores into the same chunk; the outcome {@code 0, 1, 0, 1} is the resize window
 * (or that store) caught by the index check.
 * {@link BrokenScheduleResizeVsParkPlan} is the same race with JCTools' halving index check.
 */
@JCStressTest
@Description("Lost wake-up through the overflow's resize: a schedule that links a new chunk vs the owner's park plan")
@Outcome(id = {"0, 1, 1, 0", "0, 1, 1, 1"}, expect = ACCEPTABLE,
        desc = "the owner's re-drain after publishing its plan found the new timer (in the ring, or in the overflow's "
                + "new chunk), so it does not park")
@Outcome(id = {"0, 1, 0, 0", "0, 1, 0, 1"}, expect = ACCEPTABLE_INTERESTING,
        desc = "the producer had claimed its index (in the ring, or the odd resize claim in the overflow) but its "
                + "element was not yet reachable by the re-drain; the index check saw the claim, so the owner does not "
                + "park and takes the timer next step")
@Outcome(id = {"2, 1, 0, 0", "2, 1, 0, 1"}, expect = ACCEPTABLE,
        desc = "the producer offered after the owner's re-drain (or its claim was not yet made when the owner "
                + "checked), saw the plan (tick 50) and woke the owner")
@Outcome(id = {"2, 0, 0, 0", "2, 0, 0, 1"}, expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the owner plans to sleep past the new deadline, did not drain the new timer, and no "
                + "producer woke it: the timer would fire late (by up to the whole plan)")
@Outcome(expect = FORBIDDEN,
        desc = "a decision that does not match what the owner saw (a plan past tick 5 though its own drain took the "
                + "tick-5 timer, or a plan at or before tick 5): the wheel's next event or the handshake is off")
@State
public class ScheduleResizeVsParkPlan {

    private final ParkPlanRace race = ParkPlanRace.resize(CommandQueue.Flaw.NONE);

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

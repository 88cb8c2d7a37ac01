package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Race 6, the lost wake-up: a producer schedules a timer earlier than anything in the wheel while the owner decides
 * to park ({@link OwnerPark#planPark()}: publish the planned wake-up tick, drain the queues once more, then check
 * the queues' producer indexes).
 *
 * <p>The wheel holds one timer due at tick 50, so without the new one the owner would plan to sleep until tick 50.
 * The producer's timer is due at tick 5. Result: the owner's decision (0 = must not park, 1 = park until a tick at
 * or before 5, 2 = park past tick 5), whether the owner is marked awake afterwards (1 = a producer woke it, or the
 * plan was withdrawn), and whether the owner's drain took the new timer into the wheel (1) or it is still queued (0).
 */
@JCStressTest
@Description("Lost wake-up: schedule of an earlier deadline vs the owner's park decision")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE,
        desc = "the owner's re-drain after publishing its plan found the new timer, so it does not park")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "the producer had claimed its queue index but its element was not yet visible to the re-drain; the "
                + "owner's index check saw the claim, so it does not park and takes the timer at its next step")
@Outcome(id = "2, 1, 0", expect = ACCEPTABLE,
        desc = "the producer offered after the owner's re-drain, saw the plan (tick 50) and woke the owner")
@Outcome(id = "2, 0, 0", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the owner plans to sleep past the new deadline, did not drain the new timer, and no "
                + "producer woke it: the timer would fire late (by up to the whole plan; never, were the wheel empty)")
@Outcome(expect = FORBIDDEN,
        desc = "a decision that does not match what the owner saw (a plan past tick 5 though its own drain took the "
                + "tick-5 timer, or a plan at or before tick 5): the wheel's next event or the handshake is off")
@State
public class ScheduleVsParkPlan {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private long planned;

    public ScheduleVsParkPlan() {
        timer.schedule(() -> { }, 50, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // the wheel's next event is tick 50
    }

    @Actor
    public void producer() {
        timer.schedule(() -> { }, 5, TimeUnit.MILLISECONDS);
    }

    @Actor
    public void owner() {
        planned = OwnerPark.of(timer).planPark();
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = planned == WheelTimer.AWAKE ? 0 : planned <= 5 ? 1 : 2;
        r.r2 = OwnerPark.of(timer).isAwake() ? 1 : 0;
        r.r3 = OwnerLoop.of(timer).wheel().size() - 1;
    }
}

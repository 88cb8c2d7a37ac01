package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Race 21: {@code reschedule} against {@code cancel} of the same pending timer (in the wheel at 10 ms). The cancel
 * always wins against a pending timer, whether it finds it NEW or MOVING; the reschedule returns true if it came
 * first. Either way the task never runs, and the timer leaves the wheel: the arbiter steps (taking the move and
 * cancel commands) and then steps past both deadlines.
 *
 * <p>Result: reschedule's answer, cancel's answer, runs, the wheel's size at the end, the pending count.
 */
@JCStressTest
@Description("Reschedule vs cancel of a pending timer: the cancel wins, the task never runs, nothing is left")
@Outcome(id = "1, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "the reschedule came first (MOVING), then the cancel took it")
@Outcome(id = "0, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "the cancel came first; the reschedule found it cancelled")
@Outcome(id = "., 0, .*", expect = FORBIDDEN, desc = "the cancel of a pending timer returned false")
@Outcome(id = "., ., 1, ., .", expect = FORBIDDEN, desc = "RAN AFTER CANCEL: the task ran though cancel returned true")
@Outcome(expect = FORBIDDEN, desc = "a cancelled timer left in the wheel (leak) or its pending count not released")
@State
public class RescheduleVsCancel {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final TimerFuture<?> future;
    /** Written by the task (on the stepping thread), read by the arbiter. */
    private int runs;

    public RescheduleVsCancel() {
        future = timer.schedule(() -> runs++, 10, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
    }

    @Actor
    public void rescheduler(IIIII_Result r) {
        r.r1 = future.reschedule(20, TimeUnit.MILLISECONDS) ? 1 : 0;
    }

    @Actor
    public void canceller(IIIII_Result r) {
        r.r2 = future.cancel(false) ? 1 : 0;
    }

    @Arbiter
    public void after(IIIII_Result r) {
        OwnerLoop.of(timer).step();
        clock.advanceMillis(30);
        OwnerLoop.of(timer).step();
        r.r3 = runs;
        r.r4 = OwnerLoop.of(timer).wheel().size();
        r.r5 = (int) timer.metrics().pending();
    }
}

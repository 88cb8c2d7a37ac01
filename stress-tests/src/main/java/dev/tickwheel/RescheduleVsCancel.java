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
 * Race 21: two {@code reschedule}s of one pending timer (in the wheel at 10 ms), to 20 ms (a deferral: one CAS, no
 * command) and then to 5 ms (earlier than where it is linked: MOVING and a move command), against {@code cancel}.
 * The cancel always wins against a pending timer, whether it finds it NEW, DEFERRED or MOVING; each reschedule
 * returns true if it came before the cancel. Either way the task never runs, and the timer leaves the wheel: the
 * arbiter steps (taking the move and cancel commands) and then steps past every deadline.
 *
 * <p>Result: the reschedules' answers (2 for the first, 1 for the second, summed), cancel's answer, runs, the wheel's
 * size at the end, the pending count.
 */
@JCStressTest
@Description("Reschedules vs cancel of a pending timer: the cancel wins, the task never runs, nothing is left")
@Outcome(id = "3, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "both reschedules came first (DEFERRED, then MOVING), then the cancel")
@Outcome(id = "2, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "the cancel came between the deferral and the move")
@Outcome(id = "0, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "the cancel came first; both reschedules found it cancelled")
@Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the first reschedule returned false yet the second true: not pending, then pending again")
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
        int first = future.reschedule(20, TimeUnit.MILLISECONDS) ? 2 : 0; // later: deferred
        r.r1 = first + (future.reschedule(5, TimeUnit.MILLISECONDS) ? 1 : 0); // earlier than 10: a move command
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

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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race 22: two {@code reschedule}s of one pending timer (in the wheel at 10 ms) to 5 ms and to 7 ms, one of them
 * racing the owner's step that takes the other's move command. Both return true and the last one to store its
 * deadline wins: the task runs once, at 5 or at 7 ms, never at 10 and never twice. The arbiter steps at every
 * millisecond up to 12.
 *
 * <p>Result: the two answers, runs, and the clock (ms) at the run.
 */
@JCStressTest
@Description("Reschedule vs reschedule (and the owner's move): one deadline wins, the task runs once at it")
@Outcome(id = "1, 1, 1, 5", expect = ACCEPTABLE, desc = "the move to 5 ms was the last stored")
@Outcome(id = "1, 1, 1, 7", expect = ACCEPTABLE, desc = "the move to 7 ms was the last stored")
@Outcome(id = "1, 1, 1, 10", expect = FORBIDDEN, desc = "LOST MOVE: both returned true, yet it ran at the old deadline")
@Outcome(id = "., ., 0, .", expect = FORBIDDEN, desc = "LOST: the task never ran")
@Outcome(expect = FORBIDDEN, desc = "a reschedule of a pending timer returned false, it ran twice, or at another time")
@State
public class RescheduleVsReschedule {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final TimerFuture<?> future;
    /** Written by the task (on the stepping thread), read by the arbiter. */
    private int runs;
    private long ranAtMs;

    public RescheduleVsReschedule() {
        future = timer.schedule(() -> {
            runs++;
            ranAtMs = clock.nanoTime() / ManualClock.MS;
        }, 10, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
    }

    @Actor
    public void first(IIII_Result r) {
        r.r1 = future.reschedule(5, TimeUnit.MILLISECONDS) ? 1 : 0;
    }

    @Actor
    public void secondThenOwner(IIII_Result r) {
        r.r2 = future.reschedule(7, TimeUnit.MILLISECONDS) ? 1 : 0;
        OwnerLoop.of(timer).step(); // takes a move command, racing the first reschedule
    }

    @Arbiter
    public void after(IIII_Result r) {
        for (int ms = 0; ms <= 12; ms++) {
            OwnerLoop.of(timer).step();
            clock.advanceMillis(1);
        }
        r.r3 = runs;
        r.r4 = (int) ranAtMs;
    }
}

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
 * Race 23: two reschedules of one timer from one thread, to 6 ms and then to 4 ms, against the owner's step at
 * 1 ms, when the timer's old key expires (the task runs inside the step). The first defers the timer (later than
 * its key); the owner, finding it DEFERRED, moves it to the key the state word carries. The second lands wherever
 * that move is: before it (still DEFERRED: a new key in the word, no command), during it (MOVING: the owner's CAS
 * back to NEW fails and it moves again) or after it (NEW at 6: earlier than the linked key, so a move command).
 * Whichever, the newest deadline wins: the task runs once at 4 ms. If the owner's fire claims the run before the
 * first reschedule, both return false and the task ran at 1 ms. The arbiter steps every millisecond up to 8.
 *
 * <p>Result: the two answers, runs, and the clock (ms) at the run.
 */
@JCStressTest
@Description("Deferral vs the owner's move at the old key: the newest deadline wins, the task runs once at it")
@Outcome(id = "1, 1, 1, 4", expect = ACCEPTABLE,
        desc = "the reschedules came before the fire's claim: the task ran once, at the newest deadline")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "the fire claimed the run first: ran at the old deadline")
@Outcome(id = "1, 1, 1, 6", expect = FORBIDDEN,
        desc = "LATE: the owner moved the timer with a stale key (a reschedule changed it during the move)")
@Outcome(id = "1, ., ., 1", expect = FORBIDDEN, desc = "IGNORED: the first reschedule returned true, yet it ran at 1 ms")
@Outcome(id = "., ., 0, .", expect = FORBIDDEN, desc = "LOST: the task never ran")
@Outcome(expect = FORBIDDEN, desc = "a reschedule of a pending timer returned false, it ran twice, or at another time")
@State
public class RescheduleVsOwnersMove {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final TimerFuture<?> future;
    /** Written by the task (on the stepping thread), read by the arbiter. */
    private int runs;
    private long ranAtMs;

    public RescheduleVsOwnersMove() {
        future = timer.schedule(() -> {
            runs++;
            ranAtMs = clock.nanoTime() / ManualClock.MS;
        }, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // in the wheel at key 1
        clock.advanceMillis(1); // due: the owner's step fires it, or moves it if deferred
    }

    @Actor
    public void producer(IIII_Result r) {
        r.r1 = future.reschedule(5, TimeUnit.MILLISECONDS) ? 1 : 0; // 1 + 5 = 6 ms: deferred
        r.r2 = future.reschedule(3, TimeUnit.MILLISECONDS) ? 1 : 0; // 1 + 3 = 4 ms
    }

    @Actor
    public void owner() {
        OwnerLoop.of(timer).step();
    }

    @Arbiter
    public void after(IIII_Result r) {
        for (int ms = 1; ms <= 8; ms++) {
            OwnerLoop.of(timer).step(); // at 1 ms: takes a move command the race step did not see
            clock.advanceMillis(1);
        }
        r.r3 = runs;
        r.r4 = (int) ranAtMs;
    }
}

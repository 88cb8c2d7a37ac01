package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race 24: a reschedule to a later deadline against the run of a timer the owner has already handed off (it was
 * NEW when the owner's step at 1 ms dispatched it to the executor, here a list; the actor then runs it as a pool
 * worker would). Either the run claims first (the task runs at 1 ms and the reschedule returns false), or the
 * reschedule defers the timer first: the run then finds it DEFERRED, claims nothing and sends the move command the
 * reschedule did not send, and the task runs once at the new deadline, 6 ms. The arbiter steps every millisecond up
 * to 8 and runs whatever the owner hands off.
 *
 * <p>Result: reschedule's answer, runs, the clock (ms) at the run, and the pending count at the end.
 */
@JCStressTest
@Description("Deferral vs a dispatched run's claim: the task runs once, at the old deadline (false) or the new (true)")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "the run claimed first: ran at the old deadline; false")
@Outcome(id = "1, 1, 6, 0", expect = ACCEPTABLE,
        desc = "the deferral came first: the run claimed nothing and sent the move; ran once at the new deadline")
@Outcome(id = "1, 1, 1, .", expect = FORBIDDEN, desc = "IGNORED: reschedule returned true, yet it ran at the old deadline")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN,
        desc = "LOST: the run claimed nothing, and nobody moved the deferred timer (the owner had let go of it)")
@Outcome(expect = FORBIDDEN, desc = "ran twice, never, at another time, or its pending count not released")
@State
public class DeferVsDispatchedRun {

    private final ManualClock clock = new ManualClock();
    private final List<Runnable> handedOff = new ArrayList<>();
    private final WheelTimer timer = Rigs.on(clock, handedOff::add);
    private final TimerFuture<?> future;
    private final Runnable dispatched;
    /** Written by the task (on the running actor's or the arbiter's thread), read by the arbiter. */
    private int runs;
    private long ranAtMs;

    public DeferVsDispatchedRun() {
        future = timer.schedule(() -> {
            runs++;
            ranAtMs = clock.nanoTime() / ManualClock.MS;
        }, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // in the wheel at key 1
        clock.advanceMillis(1);
        OwnerLoop.of(timer).step(); // NEW: handed off, not yet claimed
        dispatched = handedOff.remove(0);
    }

    @Actor
    public void producer(IIII_Result r) {
        r.r1 = future.reschedule(5, TimeUnit.MILLISECONDS) ? 1 : 0; // 1 + 5 = 6 ms, later: deferred
    }

    @Actor
    public void worker() {
        dispatched.run();
    }

    @Arbiter
    public void after(IIII_Result r) {
        for (int ms = 1; ms <= 8; ms++) {
            OwnerLoop.of(timer).step();
            while (!handedOff.isEmpty()) {
                handedOff.remove(0).run();
            }
            clock.advanceMillis(1);
        }
        r.r2 = runs;
        r.r3 = (int) ranAtMs;
        r.r4 = (int) timer.metrics().pending();
    }
}

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
 * Race 24: a reschedule to a later deadline against the owner's step that hands the due timer off to an executor
 * (here a list, run by the arbiter as a pool worker would, after the race). The hand-off commits itself in the
 * timer's state (NEW -&gt; DISPATCHED) before the executor sees the timer; the deferral is a CAS from NEW too.
 * Either the hand-off wins (the reschedule returns false; the task runs at the old deadline, 1 ms), or the deferral
 * wins (true; the owner moves the timer instead of handing it off, and it runs once at 6 ms). The arbiter steps
 * every millisecond up to 8 and runs whatever the owner hands off.
 *
 * <p>Result: reschedule's answer, runs, the clock (ms) at the run, and the pending count at the end.
 */
@JCStressTest
@Description("Deferral vs the owner's hand-off: the task runs once, at the old deadline (false) or the new one (true)")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "the hand-off came first: ran at the old deadline; false")
@Outcome(id = "1, 1, 6, 0", expect = ACCEPTABLE,
        desc = "the deferral came first: the owner moved the timer instead of handing it off; ran once at 6 ms")
@Outcome(id = "1, 1, 1, .", expect = FORBIDDEN,
        desc = "IGNORED: reschedule returned true, yet the task ran at the old deadline (a hand-off it did not see)")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "LOST: the deferral won, yet nothing ran the task")
@Outcome(expect = FORBIDDEN, desc = "ran twice, never, at another time, or its pending count not released")
@State
public class RescheduleVsHandOff {

    private final ManualClock clock = new ManualClock();
    private final List<Runnable> handedOff = new ArrayList<>();
    private final WheelTimer timer = Rigs.on(clock, handedOff::add);
    private final TimerFuture<?> future;
    /** Written by the task (on the arbiter's thread), read by the arbiter. */
    private int runs;
    private long ranAtMs;

    public RescheduleVsHandOff() {
        future = timer.schedule(() -> {
            runs++;
            ranAtMs = clock.nanoTime() / ManualClock.MS;
        }, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // in the wheel at key 1
        clock.advanceMillis(1); // due: the owner's step hands it off, or moves it if deferred
    }

    @Actor
    public void producer(IIII_Result r) {
        r.r1 = future.reschedule(5, TimeUnit.MILLISECONDS) ? 1 : 0; // 1 + 5 = 6 ms, later: deferred
    }

    @Actor
    public void owner() {
        OwnerLoop.of(timer).step();
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

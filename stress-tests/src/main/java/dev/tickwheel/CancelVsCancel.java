package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Race 2: two threads cancel the same pending one-shot timer (one with {@code mayInterruptIfRunning}, one
 * without). Exactly one may win; the loser must see the timer as already cancelled, and the timer must be
 * counted once. Result: each cancel's return, how many times the task ran once its deadline passed, the cancelled
 * count and the pending count afterwards.
 */
@JCStressTest
@Description("cancel vs cancel: exactly one returns true, counted once, the task never runs")
@Outcome(id = "1, 0, 0, 1, 0", expect = ACCEPTABLE,
        desc = "the first actor's CAS (NEW -> CANCELLED) won; the second saw CANCELLED and returned false")
@Outcome(id = "0, 1, 0, 1, 0", expect = ACCEPTABLE,
        desc = "the second actor's CAS won; the first saw CANCELLED and returned false")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN,
        desc = "both returned true: the cancel is not exclusive (and the timer would be counted and released twice)")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "neither returned true for a pending timer: both lost")
@Outcome(expect = FORBIDDEN,
        desc = "the task ran although a cancel returned true, or the cancelled/pending counters are off (a cancel "
                + "counted twice or not at all, or the pending count not released exactly once)")
@State
public class CancelVsCancel {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final ScheduledFuture<?> future;
    /** Written by the task (in the arbiter's step), read by the arbiter. */
    private int runs;

    public CancelVsCancel() {
        future = timer.schedule(() -> runs++, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // in the wheel at key 1
    }

    @Actor
    public void first(IIIII_Result r) {
        r.r1 = future.cancel(false) ? 1 : 0;
    }

    @Actor
    public void second(IIIII_Result r) {
        r.r2 = future.cancel(true) ? 1 : 0;
    }

    @Arbiter
    public void after(IIIII_Result r) {
        clock.advanceMillis(1);
        OwnerLoop.of(timer).step(); // reaps the cancel command; would run the task if no cancel had taken it
        r.r3 = runs;
        TimerMetrics m = timer.metrics();
        r.r4 = (int) m.cancelled();
        r.r5 = (int) m.pending();
    }
}

package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@code schedule} of a one-shot timer against a graceful {@code shutdown()} followed by the owner's step. A
 * graceful shutdown still runs the one-shot timers it accepted, so the task is either rejected or runs, and the
 * owner terminates only once it has nothing left (its exit test compares the start queue's indexes, so an offer
 * whose element is not yet visible keeps it alive).
 *
 * <p>The timer is due at tick 1; the arbiter advances the clock and steps until the owner exits (at most three
 * steps). Result: schedule threw {@link RejectedExecutionException} (1), how many times the task ran, the owner
 * has exited, the pending count.
 */
@JCStressTest
@Description("schedule vs shutdown(): an accepted one-shot still runs, the owner then terminates")
@Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE,
        desc = "rejected: schedule saw SHUTDOWN on entry, or re-read it after its offer and revoked its own timer "
                + "before the owner took it")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE,
        desc = "accepted before the shutdown (or the owner took it before the producer's revoke): it ran at its time, "
                + "then the owner exited")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN,
        desc = "LOST: schedule returned normally, yet the task never ran after a graceful shutdown (the owner exited "
                + "without it)")
@Outcome(id = "., ., 0, .", expect = FORBIDDEN,
        desc = "the owner never terminated after shutdown() with nothing left to run")
@Outcome(expect = FORBIDDEN,
        desc = "a rejected task ran, a task ran twice, or the pending count was not released")
@State
public class ScheduleVsShutdown {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    /** Written by the task (in a step), read by the arbiter. */
    private int runs;
    private boolean rejected;

    @Actor
    public void producer() {
        try {
            timer.schedule(() -> runs++, 1, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            rejected = true;
        }
    }

    @Actor
    public void owner() {
        timer.shutdown();
        OwnerLoop.of(timer).step();
    }

    @Arbiter
    public void after(IIII_Result r) {
        for (int i = 0; i < 3 && !timer.isTerminated(); i++) {
            clock.advanceMillis(1);
            OwnerLoop.of(timer).step();
        }
        r.r1 = rejected ? 1 : 0;
        r.r2 = runs;
        r.r3 = timer.isTerminated() ? 1 : 0;
        r.r4 = (int) timer.metrics().pending();
    }
}

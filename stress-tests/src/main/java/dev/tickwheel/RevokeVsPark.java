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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Race 16, the lost wake-up of a revoked schedule: {@code schedule} racing {@code shutdown()} while the owner steps
 * and decides to park. A schedule that offered its timer and then saw the shutdown revokes it (NEW &rarr;
 * CANCELLED) and sends a cancel command, and throws. If the owner had already drained the timer into the wheel and
 * planned a park until its deadline (an hour here), the revoked timer is all that keeps it from exiting: unless the
 * revoke wakes it, the shut-down owner sleeps until the dead timer's deadline (forever for {@code Long.MAX_VALUE})
 * instead of terminating.
 *
 * <p>Two actors on a manually driven timer: the producer, and the shutdown caller, which then acts as the owner
 * (one {@link OwnerLoop#step()}, then {@link OwnerPark#planPark()}). Shutdown, step and plan are one actor because
 * jcstress 0.16 runs a test only with a CPU per actor and the build machine has two; nothing is lost for this race,
 * since an owner whose step has not yet seen the shutdown never keeps a plan past it (planPark re-reads the run
 * state, the shutdown then resets the plan, or the unseen shutdown keeps the owner awake). The arbiter then steps
 * the owner a few times without moving the clock. Result: schedule threw {@link RejectedExecutionException}; the
 * owner's park (0 = it will not sleep: planPark answered AWAKE, or a producer woke it afterwards; 1 = it plans to
 * sleep until a tick no later than the one-hour deadline and nobody woke it; 2 = any other sleep nobody woke); the
 * owner terminated at once when stepped without moving the clock (it had nothing live).
 */
@JCStressTest
@Description("revoked schedule vs the owner's park plan after shutdown(): a dead timer must not hold the owner asleep")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE,
        desc = "rejected: schedule saw the shutdown on entry, or revoked its timer after its offer and the owner "
                + "saw the revoke (it skipped the start command, or found the cancel command when it planned) or "
                + "was woken by it, or the owner had exited before the offer; stepped again it terminates")
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE,
        desc = "accepted before the shutdown; the owner's step missed the start command and its park plan drained "
                + "it, so it will not sleep; the one-hour timer keeps it alive, as shutdown() runs it")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE,
        desc = "accepted before the shutdown: the owner drained the timer and plans to sleep until the one-hour "
                + "tick, right, since a graceful shutdown still runs it then")
@Outcome(id = "1, 1, 1", expect = FORBIDDEN,
        desc = "LOST WAKE-UP after revoke: the owner drained the timer and planned to sleep until its deadline; the "
                + "schedule then revoked it and sent its cancel command without waking the owner, which would sleep "
                + "an hour (forever for Long.MAX_VALUE) instead of terminating at once")
@Outcome(id = "., 2, .", expect = FORBIDDEN,
        desc = "the owner planned an indefinite (or later) sleep nobody woke, past every deadline it holds")
@Outcome(id = "0, ., 1", expect = FORBIDDEN,
        desc = "LOST: schedule returned normally, yet the owner terminated without running the one-shot")
@Outcome(expect = FORBIDDEN,
        desc = "rejected, yet the owner never terminated with nothing live (the revoked timer stayed linked)")
@State
public class RevokeVsPark {

    /** The one-hour deadline in 1 ms ticks, from a clock at 0. */
    static final long HOUR_TICK = TimeUnit.HOURS.toMillis(1);

    private final WheelTimer timer = Rigs.direct(new ManualClock());
    private boolean rejected;
    private long planned;

    @Actor
    public void producer() {
        try {
            timer.schedule(() -> { }, 1, TimeUnit.HOURS);
        } catch (RejectedExecutionException e) {
            rejected = true;
        }
    }

    @Actor
    public void stopperThenOwner() {
        timer.shutdown();
        OwnerLoop.of(timer).step();
        planned = OwnerPark.of(timer).planPark();
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = rejected ? 1 : 0;
        boolean asleep = planned != WheelTimer.AWAKE && !OwnerPark.of(timer).isAwake();
        r.r2 = !asleep ? 0 : planned <= HOUR_TICK ? 1 : 2;
        for (int i = 0; i < 3 && !timer.isTerminated(); i++) {
            OwnerLoop.of(timer).step(); // the clock stays put: only a timer that is already dead can let it exit
        }
        r.r3 = timer.isTerminated() ? 1 : 0;
    }
}

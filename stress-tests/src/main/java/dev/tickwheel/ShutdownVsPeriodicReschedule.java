package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
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
 * Race 8a: {@code shutdown()} against a worker that is finishing a periodic run and offering the next period.
 * A graceful shutdown ends periodic timers, so the next period must be refused wherever the race lands: the runner
 * sees the shutdown before rescheduling and ends the timer, or its resubmit sees it and revokes the timer, or the
 * owner's drain revokes the start command. The owner must then terminate, with nothing pending.
 *
 * <p>The executor only captures the due timer; the worker actor runs it. The other actor is the shutdown caller and
 * then the owner (one step). The arbiter steps a few more periods. Result: the owner had exited after the race
 * step (1), the periodic future is cancelled (ended), the owner has exited at the end, dispatches after the first
 * (more runs handed to the executor), and the pending count.
 */
@JCStressTest
@Description("shutdown() vs a periodic reschedule: the periodic timer ends and the owner terminates")
@Outcome(id = "1, 1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "the owner exited in the race step, with no start command left: the timer had already ended (the "
                + "runner saw the shutdown, its resubmit revoked it, or the step's drain revoked the start command), "
                + "or the run had not yet offered its next period and ends the timer itself afterwards")
@Outcome(id = "0, 1, 1, 0, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "the race step found a start command claimed but not yet visible, so the owner stayed; a later step "
                + "revoked it and exited")
@Outcome(id = "., 0, .*", expect = FORBIDDEN,
        desc = "the periodic timer is not ended after shutdown: its future never completes")
@Outcome(id = "., ., 0, .*", expect = FORBIDDEN,
        desc = "the owner never terminates: a rescheduled periodic timer keeps a shut-down timer alive")
@Outcome(expect = FORBIDDEN,
        desc = "a periodic run was dispatched again after shutdown(), or the pending count was not released")
@State
public class ShutdownVsPeriodicReschedule {

    private final ManualClock clock = new ManualClock();
    /** The last task the owner handed to the executor, and how many it handed (owner thread; read by the worker). */
    private Runnable handedOut;
    private int dispatches;
    private final WheelTimer timer = Rigs.on(clock, r -> {
        handedOut = r;
        dispatches++;
    });
    private final ScheduledFuture<?> future;

    public ShutdownVsPeriodicReschedule() {
        future = timer.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
        clock.advanceMillis(1);
        OwnerLoop.of(timer).step(); // dispatched: handedOut is the periodic timer, NEW, out of the wheel
    }

    @Actor
    public void worker() {
        handedOut.run();
    }

    @Actor
    public void shutdownThenOwner(IIIII_Result r) {
        timer.shutdown();
        OwnerLoop.of(timer).step();
        r.r1 = timer.isTerminated() ? 1 : 0;
    }

    @Arbiter
    public void after(IIIII_Result r) {
        for (int i = 0; i < 3 && !timer.isTerminated(); i++) {
            clock.advanceMillis(1);
            OwnerLoop.of(timer).step();
        }
        r.r2 = future.isCancelled() ? 1 : 0;
        r.r3 = timer.isTerminated() ? 1 : 0;
        r.r4 = dispatches - 1;
        r.r5 = (int) timer.metrics().pending();
    }
}

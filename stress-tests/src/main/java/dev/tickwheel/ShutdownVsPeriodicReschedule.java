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
import org.openjdk.jcstress.infra.results.IIIIIII_Result;

/**
 * Race 8a: {@code shutdown()} against a worker that is finishing a periodic run and offering the next period.
 * A graceful shutdown ends periodic timers before it returns: a future not in a run is cancelled as soon as
 * {@code shutdown()} returns (moving back to NEW, or offering its next start command), and the next period never
 * runs. One whose run is in progress (RUNNING) reads not done until the run returns (issue 21); the runner then
 * ends it cancelled. The owner must then terminate, with nothing pending.
 *
 * <p>The executor only captures the due timer; the worker actor runs it and then sets {@code runReturned}. The
 * other actor reads {@code runReturned}, then is the shutdown caller and then the owner (one step). The arbiter
 * steps a few more periods. Result: the timer had terminated after the race step (1), the periodic future is
 * cancelled at the end, the timer has terminated at the end, dispatches after the first (more runs handed to the
 * executor), the pending count, the future was cancelled right after shutdown() returned, and the run had
 * returned before shutdown() began.
 */
@JCStressTest
@Description("shutdown() vs a periodic reschedule: shutdown ends the periodic timer, and the owner terminates")
@Outcome(id = "1, 1, 1, 0, 0, 1, .", expect = ACCEPTABLE,
        desc = "shutdown() ended the timer before returning (before the run, or during or after its move back to "
                + "NEW); the owner exited in the race step, with no live start command left")
@Outcome(id = "0, 1, 1, 0, 0, 1, .", expect = ACCEPTABLE_INTERESTING,
        desc = "the race step found a start command claimed but not yet visible, so the owner stayed; a later step "
                + "dropped it (its timer already ended) and exited")
@Outcome(id = "., 1, 1, 0, 0, 0, 0", expect = ACCEPTABLE,
        desc = "shutdown() found the run in progress (RUNNING) and left it to its runner: not done when shutdown() "
                + "returned; the runner ended it cancelled when the run returned (the timer terminated after the "
                + "race step if that came first, else later)")
@Outcome(id = "., ., ., ., ., 0, 1", expect = FORBIDDEN,
        desc = "NOT ENDED BY SHUTDOWN: the run had returned before shutdown() began, yet the periodic future was not "
                + "cancelled when shutdown() returned (the timer would end only later, at its resubmit or the owner's "
                + "step)")
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
        OwnerLoop.of(timer).step(); // dispatched: handedOut is the periodic timer, DISPATCHED, out of the wheel
    }

    /** sv by the worker actor once run() has returned; lv by the shutdown actor before it calls shutdown(). */
    private volatile boolean runReturned;

    @Actor
    public void worker() {
        handedOut.run();
        runReturned = true;
    }

    @Actor
    public void shutdownThenOwner(IIIIIII_Result r) {
        r.r7 = runReturned ? 1 : 0;
        timer.shutdown();
        r.r6 = future.isCancelled() ? 1 : 0;
        OwnerLoop.of(timer).step();
        r.r1 = timer.isTerminated() ? 1 : 0;
    }

    @Arbiter
    public void after(IIIIIII_Result r) {
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

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
 * Race 15: {@code shutdown()} against a periodic run that is queued in the pool but has not started. A graceful
 * shutdown ends periodic timers before it returns: no run starts afterwards, and a future not in a run reads
 * cancelled right after {@code shutdown()}. One whose run is in progress reads not done until that run returns
 * (issue 21: as with the JDK's executor), and is then cancelled with no further run.
 *
 * <p>The owner's step has handed the due periodic timer to a capturing executor. One actor calls shutdown(), reads
 * {@code isCancelled()}, then sets {@code shutdownReturned}; the worker actor reads {@code shutdownReturned} and
 * then calls the timer's run() as a pool thread would; the task reads {@code shutdownReturned} at its very start.
 * The arbiter steps the owner over a few periods. Result: the future was cancelled right after shutdown()
 * returned; the task started; it saw shutdown already returned; run() itself was called after shutdown returned;
 * the owner terminated; runs handed to the executor after the first; the pending count.
 *
 * <p>No implementation can stop a task that began after its run's last check: if the worker is descheduled
 * between that check and the task's first instruction, a whole shutdown() fits in between. That interleaving
 * ({@code 0, 1, 1, 0, ...}: run() called before shutdown returned and its run under way, RUNNING, when shutdown
 * looked, so not cancelled yet) is a run in progress and is accepted; a run() called after shutdown returned must
 * not run the task at all.
 */
@JCStressTest
@Description("shutdown() vs a queued periodic run: ended before shutdown returns, no run starts after it")
@Outcome(id = "1, 0, 0, ., 1, 0, 0", expect = ACCEPTABLE,
        desc = "shutdown ended the timer before the run claimed it (or after the claim, before the start): the run "
                + "did nothing")
@Outcome(id = "1, 1, 0, 0, 1, 0, 0", expect = ACCEPTABLE,
        desc = "the run started and returned (back to NEW) before shutdown looked: shutdown ended the timer then, "
                + "so the next period never came")
@Outcome(id = "0, 1, 0, 0, 1, 0, 0", expect = ACCEPTABLE,
        desc = "the run was in progress when shutdown looked: its future read not done when shutdown returned, as "
                + "the JDK's does; the runner ended it cancelled when the run returned")
@Outcome(id = "0, 1, 1, 0, 1, 0, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "run() was called and started the run (RUNNING) before shutdown looked, but the task's first "
                + "instruction came after shutdown returned (the worker was descheduled after its last check): a run "
                + "in progress, allowed to finish, and not done until then")
@Outcome(id = "., 1, 1, 1, .*", expect = FORBIDDEN,
        desc = "RUN AFTER SHUTDOWN: run() was called after shutdown() returned and the task still started: "
                + "shutdown left the periodic timer live (ended later by the runner or the owner's step)")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN,
        desc = "NOT ENDED BY SHUTDOWN: the periodic future was not cancelled when shutdown() returned, though no run "
                + "of it was in progress (its task never started)")
@Outcome(id = "., ., ., ., 0, ., .", expect = FORBIDDEN,
        desc = "the owner never terminated after shutdown(): the periodic timer kept it alive")
@Outcome(expect = FORBIDDEN,
        desc = "a periodic run was handed out again after shutdown(), or the pending count was not released")
@State
public class ShutdownVsPeriodicRunStart {

    private final ManualClock clock = new ManualClock();
    /** The last task the owner handed to the executor, and how many it handed (owner thread; read by the worker). */
    private Runnable handedOut;
    private int dispatches;
    private final WheelTimer timer = Rigs.on(clock, r -> {
        handedOut = r;
        dispatches++;
    });
    private final ScheduledFuture<?> future;
    /** sv by the shutdown actor once shutdown() has returned; lv by the worker and the task. */
    private volatile boolean shutdownReturned;
    /** Written by the task (on the worker actor), read by the arbiter. */
    private boolean started;
    private boolean sawReturned;

    public ShutdownVsPeriodicRunStart() {
        future = timer.scheduleAtFixedRate(() -> {
            sawReturned = shutdownReturned;
            started = true;
        }, 1, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
        clock.advanceMillis(1);
        OwnerLoop.of(timer).step(); // dispatched: handedOut is the periodic timer, DISPATCHED, out of the wheel, queued as in a pool
    }

    @Actor
    public void shutdowner(IIIIIII_Result r) {
        timer.shutdown();
        r.r1 = future.isCancelled() ? 1 : 0;
        shutdownReturned = true;
    }

    @Actor
    public void worker(IIIIIII_Result r) {
        r.r4 = shutdownReturned ? 1 : 0;
        handedOut.run();
    }

    @Arbiter
    public void after(IIIIIII_Result r) {
        r.r2 = started ? 1 : 0;
        r.r3 = sawReturned ? 1 : 0;
        for (int i = 0; i < 3 && !timer.isTerminated(); i++) {
            clock.advanceMillis(1);
            OwnerLoop.of(timer).step();
        }
        r.r5 = timer.isTerminated() ? 1 : 0;
        r.r6 = dispatches - 1;
        r.r7 = (int) timer.metrics().pending();
    }
}

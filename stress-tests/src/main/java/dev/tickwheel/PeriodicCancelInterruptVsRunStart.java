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
 * Race 14: {@code cancel(true)} of a periodic timer against the start of a run on a pool worker. A periodic timer
 * may be cancelled while it runs (RUNNING &rarr; cancelled) and its runner is interrupted; a run claims the timer,
 * publishes its thread for that interrupt, re-checks, and only then calls the task. A cancel that lands between
 * the claim and the publication finds no thread to interrupt: unless the run re-checks after publishing, the task
 * then starts after cancel returned true, uninterrupted.
 *
 * <p>Same shape as {@link CancelInterruptVsRunStart}: the owner's step has handed the due timer to a capturing
 * executor and the worker actor runs it; the task reads {@code cancelReturned} and then its interrupt status at its
 * very start. Result: cancel's return; the task started; it saw cancel already returned; it saw its thread
 * interrupted; the future was done right after cancel returned; how the future ended (1 cancelled with get()
 * throwing CancellationException, 0 completed, 2 anything else); the worker still interrupted after run().
 */
@JCStressTest
@Description("periodic cancel(true) vs the start of a run: a run that starts after cancel returned is interrupted")
@Outcome(id = "1, 0, 0, 0, 1, 1, 0", expect = ACCEPTABLE,
        desc = "cancel came before the run's claim (DISPATCHED -> cancelled), or after the claim but before the run's "
                + "re-check: the task never started")
@Outcome(id = "1, 1, 0, 0, 1, 1, 0", expect = ACCEPTABLE,
        desc = "cancel came while the task ran, after its first reads, or after the run (the next period's start "
                + "is skipped or unlinked): one run, then none; any interrupt cleared when run() ended")
@Outcome(id = "1, 1, 0, 1, 1, 1, 0", expect = ACCEPTABLE,
        desc = "cancel interrupted the running task before its interrupt check, and returned after its flag read")
@Outcome(id = "1, 1, 1, 1, 1, 1, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "cancel came after the run published its thread and re-checked, and returned before the task's "
                + "first instruction: the task started interrupted")
@Outcome(id = "1, 1, 1, 0, .*", expect = FORBIDDEN,
        desc = "NOT INTERRUPTED: the task started after cancel(true) had returned true, and its runner was not "
                + "interrupted: the cancel came between the run's claim and its publication of the runner thread, "
                + "found no thread, and the run did not re-check")
@Outcome(id = "., ., ., ., ., ., 1", expect = FORBIDDEN,
        desc = "INTERRUPT LEAK: the worker was still interrupted after run() returned; cancel's interrupt would "
                + "hit the pool thread's next task")
@Outcome(id = "0, .*", expect = FORBIDDEN,
        desc = "cancel of a live periodic timer (pending, running or rescheduled) returned false")
@Outcome(expect = FORBIDDEN,
        desc = "cancel returned true, yet the future is not done right after it, not cancelled, or get() does not "
                + "throw CancellationException; or the task saw an interrupt nobody sent")
@State
public class PeriodicCancelInterruptVsRunStart {

    private final ManualClock clock = new ManualClock();
    /** The task the owner handed to the executor (owner step in the constructor; read by the worker actor). */
    private Runnable handedOut;
    private final WheelTimer timer = Rigs.on(clock, r -> handedOut = r);
    private final ScheduledFuture<?> future;
    /** sv by the cancelling actor once cancel(true) has returned; lv by the task at its start. */
    private volatile boolean cancelReturned;
    /** Written by the task (on the worker actor), read by the arbiter. */
    private boolean started;
    private boolean sawReturned;
    private boolean sawInterrupted;

    public PeriodicCancelInterruptVsRunStart() {
        future = timer.scheduleAtFixedRate(() -> {
            sawReturned = cancelReturned; // first: if true, the cancel's interrupt happened before this read
            sawInterrupted = Thread.currentThread().isInterrupted();
            started = true;
        }, 1, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
        clock.advanceMillis(1);
        OwnerLoop.of(timer).step(); // dispatched: handedOut is the periodic timer, DISPATCHED, out of the wheel, queued as in a pool
    }

    @Actor
    public void worker(IIIIIII_Result r) {
        handedOut.run();
        r.r7 = Thread.interrupted() ? 1 : 0; // also clears it, so a leak cannot disturb the harness
    }

    @Actor
    public void canceller(IIIIIII_Result r) {
        boolean cancelled = future.cancel(true);
        cancelReturned = true;
        r.r1 = cancelled ? 1 : 0;
        r.r5 = future.isDone() ? 1 : 0;
    }

    @Arbiter
    public void after(IIIIIII_Result r) {
        r.r2 = started ? 1 : 0;
        r.r3 = sawReturned ? 1 : 0;
        r.r4 = sawInterrupted ? 1 : 0;
        r.r6 = Rigs.ending(future);
    }
}

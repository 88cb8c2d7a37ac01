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
 * Race 13: {@code cancel(true)} of a one-shot timer against the start of its run on a pool worker, under
 * {@link java.util.concurrent.FutureTask}'s cancel contract: cancel returns true for a task that has not completed,
 * running or not; the future is then cancelled; a running task is interrupted; the interrupt never outlives
 * {@code run()}. A run claims the timer, publishes its thread, re-checks, and only then calls the task, so a
 * cancel that lands between the claim and the publication must still stop or interrupt the task.
 *
 * <p>The owner's step has handed the due timer to a capturing executor; the worker actor runs it as a pool thread
 * would. The task, at its very start, reads {@code cancelReturned} (set by the cancelling actor once cancel has
 * returned) and then its thread's interrupt status. Result: cancel's return; the task started; it saw cancel
 * already returned; it saw its thread interrupted; the future was done right after cancel returned; how the
 * future ended (0 completed, 1 cancelled with get() throwing CancellationException, 2 anything else); the worker
 * still interrupted after run() returned.
 */
@JCStressTest
@Description("one-shot cancel(true) vs the start of its run: FutureTask's cancel, interrupt never lost or leaked")
@Outcome(id = "1, 0, 0, 0, 1, 1, 0", expect = ACCEPTABLE,
        desc = "cancel came before the run's claim (DISPATCHED -> cancelled), or after the claim but before the run's "
                + "re-check: the task never started, the future is cancelled")
@Outcome(id = "1, 1, 0, 0, 1, 1, 0", expect = ACCEPTABLE,
        desc = "cancel came while the task ran, after its first reads (or after it returned, before the run "
                + "completed the future): true, the future is cancelled, any interrupt cleared when run() ended")
@Outcome(id = "1, 1, 0, 1, 1, 1, 0", expect = ACCEPTABLE,
        desc = "cancel interrupted the running task before its interrupt check, and returned after its flag read")
@Outcome(id = "1, 1, 1, 1, 1, 1, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "cancel came after the run's re-check and returned before the task's first instruction: the task "
                + "started interrupted, as FutureTask allows between its state check and the call")
@Outcome(id = "0, 1, 0, 0, 1, 0, 0", expect = ACCEPTABLE,
        desc = "the run completed the future before the cancel: false, the future holds the task's value")
@Outcome(id = "1, 1, 1, 0, .*", expect = FORBIDDEN,
        desc = "NOT INTERRUPTED: the task started after cancel(true) had returned true, and its runner was not "
                + "interrupted (a cancel between the run's claim and its publication of the runner thread found no "
                + "thread to interrupt, and the run did not re-check)")
@Outcome(id = "0, 1, 1, .*", expect = FORBIDDEN,
        desc = "cancel returned false for a task that had not even started: its first instruction came after "
                + "cancel returned (the run had claimed the timer; a one-shot that cannot be cancelled once claimed)")
@Outcome(id = "0, ., ., ., 0, .*", expect = FORBIDDEN,
        desc = "cancel returned false, yet the future was not done right after (Future requires isDone() after any "
                + "cancel): a one-shot that cannot be cancelled once running, or a cancel that refuses a run still "
                + "storing its outcome while isDone() is not yet true")
@Outcome(id = "., ., ., ., ., ., 1", expect = FORBIDDEN,
        desc = "INTERRUPT LEAK: the worker was still interrupted after run() returned; cancel's interrupt would "
                + "hit the pool thread's next task")
@Outcome(id = "1, .*, [02], .", expect = FORBIDDEN,
        desc = "cancel returned true, yet the future is not cancelled or get() does not throw "
                + "CancellationException (the run overwrote the cancel with its outcome)")
@Outcome(id = "0, .*, [12], .", expect = FORBIDDEN,
        desc = "cancel returned false, yet the future did not complete normally")
@Outcome(expect = FORBIDDEN,
        desc = "any other combination: the task saw an interrupt nobody sent, or never ran though no cancel took "
                + "it")
@State
public class CancelInterruptVsRunStart {

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

    public CancelInterruptVsRunStart() {
        future = timer.schedule(() -> {
            sawReturned = cancelReturned; // first: if true, the cancel's interrupt happened before this read
            sawInterrupted = Thread.currentThread().isInterrupted();
            started = true;
        }, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
        clock.advanceMillis(1);
        OwnerLoop.of(timer).step(); // dispatched: handedOut is the timer, DISPATCHED, out of the wheel, queued as in a pool
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

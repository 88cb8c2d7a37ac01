package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIIIII_Result;

/**
 * Race 13b: {@code cancel(true)} of a one-shot timer against the start of its run by the timer's own pool, whose
 * worker claims a timer it took from its queue in one CAS (DISPATCHED &rarr; RUNNING, its thread stored first: no
 * CLAIMED step, see {@code ScheduledTimer.claimIntoRun}). The same contract as {@link CancelInterruptVsRunStart}, the
 * run by any other executor's thread, which claims in two steps: under
 * {@link java.util.concurrent.FutureTask}'s cancel contract: cancel returns true for a task that has not completed,
 * running or not; the future is then cancelled; a running task is interrupted; the interrupt never outlives
 * {@code run()}. A cancel that wins RUNNING must find the thread to interrupt, so the worker stores it before its
 * CAS; a cancel that wins DISPATCHED must leave the task unstarted and the field cleared.
 *
 * <p>The timer is due now (submit's path), taken from its own pool's queue as a worker takes it; the worker actor
 * runs it as the pool does ({@link ScheduledTimer#runHandedOff}); state and bodies are {@link PoolRunStartRig}'s,
 * shared with the broken twin. The task, after a short spin at its start, reads whether cancel has returned, and then
 * its thread's interrupt status. Result: cancel's return; the task started; it saw cancel already returned; it saw its
 * thread interrupted; the future was done right after cancel returned; how the future ended (0 completed, 1
 * cancelled with get() throwing CancellationException, 2 anything else); the worker still interrupted after run()
 * returned; the timer still holding a runner thread, or reading as a run in progress, after both actors.
 */
@JCStressTest
@Description("one-shot cancel(true) vs its own pool's one-CAS run start: interrupt never lost or leaked")
@Outcome(id = "1, 0, 0, 0, 1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "cancel came before the run's claim (DISPATCHED -> cancelled): the task never started, the future is "
                + "cancelled")
@Outcome(id = "1, 1, 0, 0, 1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "cancel returned after the task's reads (or after it returned, before the run completed the "
                + "future): true, the future is cancelled, any interrupt cleared when run() ended")
@Outcome(id = "1, 1, 0, 1, 1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "cancel interrupted the running task before its interrupt check, and returned after its flag read")
@Outcome(id = "1, 1, 1, 1, 1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "cancel won while the task ran (or between the claim and the call, as FutureTask allows) and "
                + "returned before the task's reads: its runner was interrupted first")
@Outcome(id = "0, 1, 0, 0, 1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "the run completed the future before the cancel: false, the future holds the task's value")
@Outcome(id = "1, 1, 1, 0, .*", expect = FORBIDDEN,
        desc = "NOT INTERRUPTED: cancel(true) had returned true before the task's reads, and its runner was not "
                + "interrupted (a cancel that won RUNNING before the runner's thread was stored found no thread)")
@Outcome(id = "0, 1, 1, .*", expect = FORBIDDEN,
        desc = "cancel returned false before the task's reads, though the task had not completed: a one-shot "
                + "that cannot be cancelled once claimed")
@Outcome(id = "0, ., ., ., 0, .*", expect = FORBIDDEN,
        desc = "cancel returned false, yet the future was not done right after (Future requires isDone() after any "
                + "cancel): a one-shot that cannot be cancelled once running, or a cancel that refuses a run still "
                + "storing its outcome while isDone() is not yet true")
@Outcome(id = "., ., ., ., ., ., 1, .", expect = FORBIDDEN,
        desc = "INTERRUPT LEAK: the worker was still interrupted after run() returned; cancel's interrupt would "
                + "hit the pool thread's next task")
@Outcome(id = "1, .*, [02], ., .", expect = FORBIDDEN,
        desc = "cancel returned true, yet the future is not cancelled or get() does not throw "
                + "CancellationException (the run overwrote the cancel with its outcome)")
@Outcome(id = "0, .*, [12], ., .", expect = FORBIDDEN,
        desc = "cancel returned false, yet the future did not complete normally")
@Outcome(id = "., ., ., ., ., ., ., 1", expect = FORBIDDEN,
        desc = "THREAD LEFT BEHIND: after both actors the timer still holds a runner thread, or reads as a run in "
                + "progress (a claim that lost its CAS to a cancel did not clear the thread it stored first; a "
                + "cancelAndAwait would wait for good)")
@Outcome(expect = FORBIDDEN,
        desc = "any other combination: the task saw an interrupt nobody sent, or never ran though no cancel took "
                + "it")
@State
public class CancelInterruptVsPoolRunStart {

    private final PoolRunStartRig rig = new PoolRunStartRig();

    @Actor
    public void worker(IIIIIIII_Result r) {
        rig.worker(r, false);
    }

    @Actor
    public void canceller(IIIIIIII_Result r) {
        rig.canceller(r);
    }

    @Arbiter
    public void after(IIIIIIII_Result r) {
        rig.after(r);
    }
}

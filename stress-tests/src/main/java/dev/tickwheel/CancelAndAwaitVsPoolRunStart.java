package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race 19b: {@code cancelAndAwait()} against the start of the timer's run by its own pool, whose worker claims a
 * timer it took from its queue in one CAS (DISPATCHED &rarr; RUNNING, its thread stored first; see
 * {@code ScheduledTimer.claimIntoRun}); {@link CancelAndAwaitVsRunStart} is the same race on another executor's
 * thread, which claims in two steps. A cancel that wins DISPATCHED meets a worker that may already have stored its
 * thread: that worker clears it when its CAS fails. When cancelAndAwait returns, the task must not be running and
 * must never start again. The task marks its start and its end in volatile fields; the canceller reads both right
 * after cancelAndAwait returns, and the task reads whether cancelAndAwait had returned before it started. (A cancel
 * that wins RUNNING before the task's first instruction does not stop it, as FutureTask's does not: cancelAndAwait
 * then waits for it, so "0, 0, 0, 0", the two-step claim's cancel from CLAIMED, cannot happen here.)
 *
 * <p>Result: cancelAndAwait's answer (1 = it cancelled before any run was claimed), whether the task had started
 * and whether it had ended when cancelAndAwait returned, and whether the task started after it returned.
 */
@JCStressTest
@Description("cancelAndAwait vs its own pool's one-CAS run start: when it returns the task is not running")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "cancelled before the run's claim: the task never ran")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE,
        desc = "the task had started; cancelAndAwait waited until it returned")
@Outcome(id = "., 1, 0, .", expect = FORBIDDEN,
        desc = "RETURNED WHILE RUNNING: cancelAndAwait returned while the task was still running")
@Outcome(id = "., ., ., 1", expect = FORBIDDEN,
        desc = "STARTED AFTER: the task started after cancelAndAwait had returned")
@Outcome(expect = FORBIDDEN, desc = "an answer of true though the task ran, or a state no interleaving allows")
@State
public class CancelAndAwaitVsPoolRunStart {

    private final CancelAndAwaitRig rig = new CancelAndAwaitRig(true);

    @Actor
    public void worker() {
        rig.worker();
    }

    @Actor
    public void canceller(IIII_Result r) {
        rig.canceller(r);
    }

    @Arbiter
    public void after(IIII_Result r) {
        rig.after(r);
    }
}

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
 * Race 19: {@code cancelAndAwait()} against the start of the timer's run on a pool worker (the run claims the timer,
 * publishes its thread, starts the task). When cancelAndAwait returns, the task must not be running and must never
 * start again. The task marks its start and its end in volatile fields; the canceller reads both right after
 * cancelAndAwait returns, and the task reads whether cancelAndAwait had returned before it started.
 *
 * <p>Result: cancelAndAwait's answer (1 = it cancelled before any run was claimed), whether the task had started
 * and whether it had ended when cancelAndAwait returned, and whether the task started after it returned.
 */
@JCStressTest
@Description("cancelAndAwait vs a run starting: when it returns the task is not running and never starts")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "cancelled before the run's claim: the task never ran")
@Outcome(id = "0, 0, 0, 0", expect = ACCEPTABLE,
        desc = "the run was claimed first and the cancel stopped it before the task started (it never starts)")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE,
        desc = "the task had started; cancelAndAwait waited until it returned")
@Outcome(id = "., 1, 0, .", expect = FORBIDDEN,
        desc = "RETURNED WHILE RUNNING: cancelAndAwait returned while the task was still running")
@Outcome(id = "., ., ., 1", expect = FORBIDDEN,
        desc = "STARTED AFTER: the task started after cancelAndAwait had returned")
@Outcome(expect = FORBIDDEN, desc = "an answer of true though the task ran, or a state no interleaving allows")
@State
public class CancelAndAwaitVsRunStart {

    private final CancelAndAwaitRig rig = new CancelAndAwaitRig(false);

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

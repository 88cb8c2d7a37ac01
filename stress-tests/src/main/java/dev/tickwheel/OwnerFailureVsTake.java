package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A failing owner against a worker taking a handed-off timer. The owner does what {@code OwnerLoop.fail} does, in its
 * order: the failure stored, then STOP, then its claim on what the pool has queued (the hand-back, failing each
 * timer). The worker reads the run state, then takes the timer off the pool's queue and runs it as the pool does
 * ({@link ScheduledTimer#runHandedOff}). A worker that saw STOP before its take must fail the timer, not run it: the
 * failure was stored before STOP, and the run looks at it first.
 *
 * <p>Result: whether the worker saw STOP before its take (1) or not (0); how the timer ended (0 ran, 1 failed, 2
 * both, 3 neither); how many times it was taken off the queue (by the worker or the owner's claim).
 */
@JCStressTest
@Description("Owner failure (failure, STOP, fail the queue) vs a worker's take and run: no run once STOP is seen")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the worker took and ran the timer before it saw the owner fail")
@Outcome(id = "[01], 1, 1", expect = ACCEPTABLE,
        desc = "the timer failed: by the owner's claim, or by the worker that read the failure before running it")
@Outcome(id = "1, 0, 1", expect = FORBIDDEN, desc = "the worker saw STOP and still ran the timer")
@Outcome(expect = FORBIDDEN, desc = "the timer ran and failed, or neither; or was taken twice, or stranded")
@State
public class OwnerFailureVsTake {

    private final OwnerFailureRig rig = new OwnerFailureRig();

    @Actor
    public void owner() {
        rig.ownerFails();
    }

    @Actor
    public void worker() {
        rig.workerTakes(true);
    }

    @Arbiter
    public void after(III_Result r) {
        rig.result(r);
    }
}

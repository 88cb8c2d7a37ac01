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
 * A deliberately BROKEN pool run, to show that {@link CancelInterruptVsPoolRunStart} can fail: the worker claims in
 * one CAS (DISPATCHED &rarr; RUNNING) and stores its thread only after it
 * ({@link ScheduledTimer#runHandedOffPublishingLate}), so a cancel(true) that wins RUNNING in between finds no thread
 * to interrupt, returns true, and the task then starts uninterrupted.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenCancelInterruptVsPoolRunStart -m quick}. It is expected
 * to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN pool run (thread stored after the claim) vs cancel(true): expected to miss it")
@Outcome(id = "1, 0, 0, 0, 1, 1, 0, 0", expect = ACCEPTABLE, desc = "cancel came before the run's claim")
@Outcome(id = "1, 1, 0, [01], 1, 1, 0, 0", expect = ACCEPTABLE, desc = "cancel returned after the task's reads")
@Outcome(id = "1, 1, 1, 1, 1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "cancel won after the claim and the store, and returned before the task's reads")
@Outcome(id = "0, 1, 0, 0, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "the run completed the future before the cancel")
@Outcome(id = "1, 1, 1, 0, .*", expect = FORBIDDEN,
        desc = "NOT INTERRUPTED: cancel(true) won RUNNING before the thread was stored, found none, and returned "
                + "true before the task's reads, which found no interrupt")
@Outcome(id = "., ., ., ., ., ., ., 1", expect = FORBIDDEN,
        desc = "THREAD LEFT BEHIND: after both actors the timer still holds a runner thread, or reads as a run in "
                + "progress (a claim that lost its CAS to a cancel did not clear the thread it stored first; a "
                + "cancelAndAwait would wait for good)")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class BrokenCancelInterruptVsPoolRunStart {

    private final PoolRunStartRig rig = new PoolRunStartRig();

    @Actor
    public void worker(IIIIIIII_Result r) {
        rig.worker(r, true);
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

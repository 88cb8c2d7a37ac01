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
 * A deliberately BROKEN worker, to show that {@link OwnerFailureVsTake} can fail: it runs the timer it takes without
 * looking at the owner's failure ({@link ScheduledTimer#runHandedOffIgnoringFailure}, the pool's run before session
 * 30), so a worker that saw STOP and took the timer before the owner's claim runs it.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenOwnerFailureVsTake -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN worker (runs without looking at the failure) vs owner failure: expected to run")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the worker took and ran the timer before it saw the owner fail")
@Outcome(id = "[01], 1, 1", expect = ACCEPTABLE,
        desc = "the timer failed: by the owner's claim, or by the worker that read the failure before running it")
@Outcome(id = "1, 0, 1", expect = FORBIDDEN, desc = "the worker saw STOP and still ran the timer")
@Outcome(expect = FORBIDDEN, desc = "the timer ran and failed, or neither; or was taken twice, or stranded")
@State
public class BrokenOwnerFailureVsTake {

    private final OwnerFailureRig rig = new OwnerFailureRig();

    @Actor
    public void owner() {
        rig.ownerFails();
    }

    @Actor
    public void worker() {
        rig.workerTakes(false);
    }

    @Arbiter
    public void after(III_Result r) {
        rig.result(r);
    }
}

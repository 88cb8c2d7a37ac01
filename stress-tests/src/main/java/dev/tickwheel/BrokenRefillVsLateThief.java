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
 * A deliberately BROKEN arming, to show that {@link RefillVsLateThief} can fail: the batch taken out of the queue is
 * armed with the generation it had ({@link HandOffQueue#pollArmingWithoutGeneration}), so a thief that read the old
 * fill's word and slot can find the word as it read it after the refill, and its CAS claims the new fill's slot while
 * it keeps the old fill's timer: that timer runs twice, and the new one never.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenRefillVsLateThief -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN arming without a generation vs a late thief: expected to claim a timer twice")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "each timer claimed exactly once (the thief was not late)")
@Outcome(expect = FORBIDDEN, desc = "a timer claimed twice, or never: the stale steal succeeded")
@State
public class BrokenRefillVsLateThief {

    private final LateThiefRig rig = new LateThiefRig(true); // BROKEN: arms without a new generation

    @Actor
    public void holderAndOwner() {
        rig.holderAndOwner();
    }

    @Actor
    public void thief() {
        rig.thief();
    }

    @Arbiter
    public void after(IIII_Result r) {
        int[] takes = rig.settle();
        r.r1 = takes[0];
        r.r2 = takes[1];
        r.r3 = takes[2];
        r.r4 = takes[3];
    }
}

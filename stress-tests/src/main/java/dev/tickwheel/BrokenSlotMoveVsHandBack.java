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
 * A deliberately BROKEN move, to show that {@link SlotMoveVsHandBack} can fail: no announcement and no look at
 * {@code stop}, so the hand-back may drain the queue between the move's CAS and its push, and return without the
 * timer, which then sits in the queue after shutdownNow returned.
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenSlotMoveVsHandBack -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN move without its announcement vs shutdownNow's hand-back: expected to strand it")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE,
        desc = "the move saw stop (or lost the slot's CAS): the hand-back claimed it from the slot")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "moved first: the hand-back waited for the move to end and claimed it from the queue")
@Outcome(id = "1, 0, 1, 0", expect = FORBIDDEN,
        desc = "STRANDED: queued after the hand-back's drain: neither returned by shutdownNow nor run before it")
@Outcome(expect = FORBIDDEN, desc = "the continuation lost, or accounted twice")
@State
public class BrokenSlotMoveVsHandBack {

    private final SlotRig rig = new SlotRig();

    @Actor
    public void watchdog() {
        rig.move(false); // BROKEN: no announcement, no look at stop
    }

    @Actor
    public void shutdownNow() {
        rig.handBack();
    }

    @Arbiter
    public void after(IIII_Result r) {
        int[] s = rig.settle();
        r.r1 = s[1];
        r.r2 = s[2];
        r.r3 = s[3];
        r.r4 = s[4];
    }
}

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
 * A deliberately BROKEN take, to show that {@link SlotTakeVsHandBack} can fail: a plain read and write of the slot,
 * so the hand-back's CAS between the two returns a timer the worker then runs as well.
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenSlotTakeVsHandBack -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN plain take vs shutdownNow's hand-back: expected to run and return the continuation")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "the worker took its continuation first: it runs it (interrupted, as a task taken before shutdownNow)")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "the hand-back claimed it first: shutdownNow returns it")
@Outcome(id = "1, 1, 0, 0", expect = FORBIDDEN, desc = "BOTH: it runs and shutdownNow returns it")
@Outcome(expect = FORBIDDEN, desc = "the continuation lost, or accounted twice")
@State
public class BrokenSlotTakeVsHandBack {

    private final SlotRig rig = new SlotRig();

    @Actor
    public void worker() {
        rig.take(false); // BROKEN: a plain read and write
    }

    @Actor
    public void shutdownNow() {
        rig.handBack();
    }

    @Arbiter
    public void after(IIII_Result r) {
        int[] s = rig.settle();
        r.r1 = s[0];
        r.r2 = s[2];
        r.r3 = s[3];
        r.r4 = s[4];
    }
}

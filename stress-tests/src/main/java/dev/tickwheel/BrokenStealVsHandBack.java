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
 * A deliberately BROKEN steal, to show that {@link StealVsHandBack} can fail: the thief steals without announcing
 * itself and without reading {@code stop} ({@link HandOffQueue#steal} called bare), so the hand-back may look at the
 * thief's slot before the thief publishes the half it took out of its victim's range, and return with those timers
 * left in the thief's batch, to start after shutdownNow returned.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenStealVsHandBack -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN steal without its announcement vs shutdownNow's hand-back: expected to strand timers")
@Outcome(id = {"4, 0, 0, 1", "3, 1, 0, 1"}, expect = ACCEPTABLE,
        desc = "the hand-back took every timer but the one B's steal claimed (none if B saw stop first)")
@Outcome(id = "., ., [1-9], .", expect = FORBIDDEN,
        desc = "STRANDED: timers left in a worker's batch after the hand-back returned (a steal it did not wait for)")
@Outcome(expect = FORBIDDEN, desc = "a timer accounted twice or never")
@State
public class BrokenStealVsHandBack {

    private final StealRig rig = new StealRig();

    @Actor
    public void thief() {
        rig.steal(false); // BROKEN: no announcement, no look at stop
    }

    @Actor
    public void shutdownNow() {
        rig.handBack();
    }

    @Arbiter
    public void after(IIII_Result r) {
        int[] s = rig.settle();
        r.r1 = s[0];
        r.r2 = s[1];
        r.r3 = s[2];
        r.r4 = s[3];
    }
}

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
 * A deliberately BROKEN take, to show that {@link SlotTakeVsMove} can fail: the worker empties its slot with a plain
 * read and a plain write instead of a CAS, so a watchdog's move between the two leaves the timer both taken and
 * queued: it would run twice.
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenSlotTakeVsMove -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN plain take vs the watchdog's move: expected to run the continuation twice")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "the worker took its continuation first: it runs it")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE,
        desc = "the watchdog moved it first: it is queued, for another worker, and the worker's take found nothing")
@Outcome(id = "1, 1, 1, 0", expect = FORBIDDEN,
        desc = "TWICE: the worker runs it and it is queued for another worker as well")
@Outcome(expect = FORBIDDEN, desc = "the continuation lost, or accounted twice")
@State
public class BrokenSlotTakeVsMove {

    private final SlotRig rig = new SlotRig();

    @Actor
    public void worker() {
        rig.take(false); // BROKEN: a plain read and write
    }

    @Actor
    public void watchdog() {
        rig.move(true);
    }

    @Arbiter
    public void after(IIII_Result r) {
        int[] s = rig.settle();
        r.r1 = s[0];
        r.r2 = s[1];
        r.r3 = s[3];
        r.r4 = s[4];
    }
}

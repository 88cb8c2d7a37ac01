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
 * Race 33: a thief's steal vs shutdownNow's hand-back. Worker A holds four timers of a batch (it claimed the first);
 * thief B steals from it ({@link HeldBatches#stealFrom}: announced, then {@code stop} read, then the upper half copied
 * into B's own batch, a CAS of the victim's {@code hi}, B's batch published, the announcement withdrawn); the
 * hand-back sets {@code stop}, drains the queue, waits for announced steals to end, then claims what every worker's
 * batch has left. B keeps the one timer its steal claimed (it would run it); every other timer must be handed back:
 * one left in a batch after shutdownNow returned would start after it, neither returned nor running when it was called
 * ({@link BrokenStealVsHandBack}, a steal without the announcement, leaves the half it stole behind the hand-back).
 *
 * <p>Result: timers handed back, timers B's steal claimed (0 or 1), timers left in A's or B's batch, and whether each
 * of the four was accounted exactly once (1).
 */
@JCStressTest
@Description("Thief's steal vs shutdownNow's hand-back: nothing left in any batch, each timer once")
@Outcome(id = {"4, 0, 0, 1", "3, 1, 0, 1"}, expect = ACCEPTABLE,
        desc = "the hand-back took every timer but the one B's steal claimed (none if B saw stop first)")
@Outcome(id = "., ., [1-9], .", expect = FORBIDDEN,
        desc = "STRANDED: timers left in a worker's batch after the hand-back returned (a steal it did not wait for)")
@Outcome(expect = FORBIDDEN, desc = "a timer accounted twice or never")
@State
public class StealVsHandBack {

    private final StealRig rig = new StealRig();

    @Actor
    public void thief() {
        rig.steal(true);
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

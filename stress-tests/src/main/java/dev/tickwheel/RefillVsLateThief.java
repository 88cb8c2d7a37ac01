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
 * Race 31: a late thief against a batch given back, refilled and armed again. A step handed off two due timers as one
 * {@link HandOffBatch}; worker A armed it and claimed the first. Then A claims the second (the last: A gives the batch
 * back to the owner), the owner's next step hands off two more (its fresh batch is the one A gave back, if A has), and
 * A takes that batch out of the queue again and claims its first; meanwhile thief B steals from the batch A's slot
 * shows. A thief that read the batch's word before all that sees, at its CAS, {@code lo} and {@code hi} as it read
 * them (second slot, one left), yet the slot it read held the old fill's timer: only the generation, which each arming
 * bumps, fails its CAS ({@link BrokenRefillVsLateThief} arms without it). The arbiter claims what is left. Each of
 * the four timers must be claimed exactly once.
 *
 * <p>Result: how many times each timer was claimed (A, B and the arbiter together).
 */
@JCStressTest
@Description("Late thief vs a batch given back, refilled and re-armed: each timer claimed once")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "each timer claimed exactly once")
@Outcome(expect = FORBIDDEN, desc = "a timer claimed twice, or never (a stale steal of a refilled batch)")
@State
public class RefillVsLateThief {

    private final LateThiefRig rig = new LateThiefRig(false);

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

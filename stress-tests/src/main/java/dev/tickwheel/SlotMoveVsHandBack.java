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
 * The watchdog's (or {@code get()}'s) move of a continuation from its slot to the queue vs shutdownNow's hand-back.
 * The move announces itself, then reads {@code stop}; the hand-back sets {@code stop}, waits for announced moves to
 * end, claims the slots, then drains the queue: a timer taken out of a slot is queued before the drain looks, or was
 * never taken ({@link BrokenSlotMoveVsHandBack}, a move without the announcement, strands it in the queue).
 *
 * <p>Result: moved, handed back, left in the queue, left in the slot.
 */
@JCStressTest
@Description("Watchdog's move of a continuation vs shutdownNow's hand-back: never stranded in the queue")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE,
        desc = "the move saw stop (or lost the slot's CAS): the hand-back claimed it from the slot")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "moved first: the hand-back waited for the move to end and claimed it from the queue")
@Outcome(id = "1, 0, 1, 0", expect = FORBIDDEN,
        desc = "STRANDED: queued after the hand-back's drain: neither returned by shutdownNow nor run before it")
@Outcome(expect = FORBIDDEN, desc = "the continuation lost, or accounted twice")
@State
public class SlotMoveVsHandBack {

    private final SlotRig rig = new SlotRig();

    @Actor
    public void watchdog() {
        rig.move(true);
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

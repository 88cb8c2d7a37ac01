package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A deliberately BROKEN park, to show that {@link HandOffVsParkBehindBatch} can fail: worker B's second look reads
 * the queue only ({@link IdleWorkers#announceParkLookingAtQueueOnly}), as parkers did before the batch-owning take,
 * when a batch stayed queued until its last claim. When A takes the batch out (and its nudge reads the idle stack)
 * before B pushes itself, B finds the queue empty and parks, and nobody knows: A's two timers wait for A alone.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenHandOffVsParkBehindBatch -m quick}. It is expected to
 * FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN park (a second look at the queue only) vs a take of the queued batch: expected "
        + "to show a lost wake-up")
@Outcome(id = "0, 0, ., 1", expect = ACCEPTABLE,
        desc = "B's second look saw the batch, queued or held with timers left, and B popped itself off the idle "
                + "stack (A's nudge may also have found B on the stack before that)")
@Outcome(id = "1, 2, 1, 1", expect = ACCEPTABLE,
        desc = "B parked, and A's nudge found it on the idle stack: the owner's watchdog adds it if A blocks")
@Outcome(id = "1, 0, ., 1", expect = ACCEPTABLE_INTERESTING,
        desc = "B decided to park after a waker had popped it, whose ACTIVE store followed: woken. Not expected at "
                + "cap 1 (A, awake, holds its own recruit back)")
@Outcome(id = "1, 2, 0, .", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: B parked beside the two timers left in A's batch and A's nudge did not see it: with A "
                + "blocked in its task, nobody would ever run them")
@Outcome(id = "., ., ., 0", expect = FORBIDDEN,
        desc = "A took nothing or not the first timer, a timer was claimed twice or never, or the hint is not set")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach")
@State
public class BrokenHandOffVsParkBehindBatch {

    private final ParkBehindBatchRig rig = new ParkBehindBatchRig();

    @Actor
    public void takeOne() {
        rig.takeOne();
    }

    @Actor
    public void announcePark() {
        rig.announcePark(true); // BROKEN: the second look reads the queue only
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

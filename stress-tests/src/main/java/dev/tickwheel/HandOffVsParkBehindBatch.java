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
 * Race 29: a park announced behind a batch being taken. A step handed off three due timers as one
 * {@link HandOffBatch} (one push, before the actors run). Worker A takes one of them by the pool's own take
 * ({@link WorkerPool#take}: the poll, which takes the whole batch out of the queue under the turn, arms it, publishes
 * it as A's, sets the queue's held hint, and claims its first timer, leaving two in A's batch; then the recruit
 * {@code signal(awakeCap)}, and, since the cap holds it back, the owner's nudge if a worker could be added: one parked
 * or standing by). Worker B announces its park ({@link IdleWorkers#announcePark}: PARKED, off the awake count, onto
 * the idle stack, then a second look: the queue, and, while the hint is set, the batches workers hold, for which it
 * nudges the owner).
 *
 * <p>The pool's awake cap is 1: A is itself awake, so its recruit is held back in every interleaving. A does come
 * back to its batch after its task, but the task may block (for instance on one of the timers behind it), and only
 * the owner's watchdog can then add a worker, if it is awake: so either B must stay awake (the batch was still
 * queued), or someone must nudge the owner with B parked: A, whose nudge reads the idle stack after its hint's store,
 * or B, which reads the hint and the holders after its push onto the stack. One of the two sees the other.
 * {@link BrokenHandOffVsParkBehindBatch} looks at the queue only, as parkers did before the batch-owning take, and
 * parks unseen when A took the batch first.
 *
 * <p>Result: whether B's announcement let it park (1), B's state at the end (0 ACTIVE, 2 PARKED), whether A nudged
 * the owner (1), and whether every timer was claimed exactly once with A's the batch's first and the hint set (1).
 */
@JCStressTest
@Description("Worker takes a queued batch (its recruit capped) vs another announcing its park: the parker stays "
        + "awake, or the owner is nudged")
@Outcome(id = "0, 0, ., 1", expect = ACCEPTABLE,
        desc = "B's second look saw the batch still queued, and B popped itself off the idle stack (A's nudge may "
                + "also have found B on the stack before that)")
@Outcome(id = "1, 2, 1, 1", expect = ACCEPTABLE,
        desc = "B parked, and the owner was nudged (by A, which found B on the idle stack, or by B, which found A's "
                + "batch with timers left): the owner's watchdog adds B if A blocks")
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
public class HandOffVsParkBehindBatch {

    private final ParkBehindBatchRig rig = new ParkBehindBatchRig();

    @Actor
    public void takeOne() {
        rig.takeOne();
    }

    @Actor
    public void announcePark() {
        rig.announcePark(false);
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

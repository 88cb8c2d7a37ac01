package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.ArrayList;
import java.util.List;
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
 * it as A's and claims its first timer, leaving two in A's batch; then the recruit {@code signal(awakeCap)}, and the
 * owner's nudge if the cap held it back). Worker B, which found the queue empty before the push, announces its park
 * ({@link WorkerPool#announcePark}: PARKED, off the awake count, onto the idle stack, then a second look at the
 * queue, {@link HandOffQueue#isEmpty}).
 *
 * <p>The pool's awake cap is 1: A is itself awake, so its recruit is held back in every interleaving. B may park
 * whether or not A has taken the batch yet: the two timers left are A's, which A claims after its task, and, should
 * A block in that task, the owner's watchdog finds them through the queue's held hint (which A's arming set, before
 * its nudge: {@code HeldBatchVsOwnerPark} races that with the owner's park) and adds a worker that steals them. What
 * must hold here: A took the first timer, the other two are in A's batch, each exactly once, and the hint is set.
 * (Before 2026-11-27's batch-owning take a batch stayed at the queue's head until its last claim, and this test
 * required B's look to see it; B parking is now the expected case, not a lost wake-up.)
 *
 * <p>Result: whether B's announcement let it park (1), B's state at the end (0 ACTIVE, 2 PARKED), how many timers
 * the arbiter then steals from A's batch, and whether every timer was claimed exactly once with A's the batch's first
 * and the held hint set (1).
 */
@JCStressTest
@Description("Worker takes a queued batch vs another announcing its park: the rest stays in the taker's batch, "
        + "the watchdog's hint set")
@Outcome(id = "0, 0, 2, 1", expect = ACCEPTABLE,
        desc = "B's second look saw the batch still queued and B popped itself off the idle stack; A took the batch "
                + "and its first timer, two wait in A's batch")
@Outcome(id = "1, 2, 2, 1", expect = ACCEPTABLE,
        desc = "A took the batch out before B's look: B parks; the two left are A's, and the hint is set for the "
                + "owner's watchdog")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "B decided to park after a waker had popped it, whose ACTIVE store followed: woken. Not expected at "
                + "cap 1 (A, awake, holds its own recruit back)")
@Outcome(id = "., ., ., 0", expect = FORBIDDEN,
        desc = "A took nothing or not the first timer, a timer was claimed twice or never, or the hint is not set")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach")
@State
public class HandOffVsParkBehindBatch {

    /** Two workers, cap 1: A's recruit is held back (A itself counts as awake), so only B's own look protects B. */
    private final WorkerPool pool = new WorkerPool(2, r -> {
        throw new AssertionError("no thread is started in this test");
    }, 1);
    /** Worker A, awake, its take run by actor {@link #takeOne}. */
    private final WorkerPool.Worker a = pool.detachedWorker();
    /** Worker B, awake until it announces its park in actor {@link #announcePark}. The pool is full: no start. */
    private final WorkerPool.Worker b = pool.detachedWorker();
    private final ScheduledTimer<?>[] timers = {Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff()};
    /** Written by the actors, read by the arbiter. */
    private TimingWheel.Node tookA;
    private boolean parks;

    public HandOffVsParkBehindBatch() {
        for (ScheduledTimer<?> t : timers) {
            pool.dispatch(t); // the owner's step: three due timers into one batch
        }
        pool.afterBatch(false); // one push of the batch; its capped signal finds both workers awake: wakes nobody
    }

    @Actor
    public void takeOne() {
        tookA = pool.take(a); // the worker loop's take: poll, then the recruit (capped) if work is left
    }

    @Actor
    public void announcePark() {
        parks = pool.announcePark(b);
    }

    @Arbiter
    public void after(IIII_Result r) {
        boolean hint = pool.queue.heldHint();
        List<TimingWheel.Node> left = new ArrayList<>(Rigs.drain(pool.queue));
        for (TimingWheel.Node t; left.size() < 10 && (t = pool.queue.stealOne(a)) != null; ) {
            left.add(t);
        }
        r.r1 = parks ? 1 : 0;
        r.r2 = b.state;
        r.r3 = left.size();
        r.r4 = hint && Rigs.firstTakenThenEachOnce(timers, tookA, left) ? 1 : 0;
    }
}

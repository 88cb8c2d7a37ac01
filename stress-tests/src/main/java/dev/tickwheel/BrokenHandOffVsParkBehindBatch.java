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
 * A deliberately BROKEN park, to show that {@link HandOffVsParkBehindBatch} can fail: worker B's second look reads
 * the queue only ({@link WorkerPool#announceParkLookingAtQueueOnly}), as parkers did before the batch-owning take,
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
    /** Set by the pool's owner nudge (a test's pool has no owner: this records that it would have been woken). */
    private volatile boolean nudged;

    public BrokenHandOffVsParkBehindBatch() {
        pool.ownerNudge = () -> nudged = true;
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
        parks = announce(b);
    }

    /** BROKEN: the second look at the queue only, not at the batches workers hold. */
    boolean announce(WorkerPool.Worker w) {
        return pool.announceParkLookingAtQueueOnly(w);
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
        r.r3 = nudged ? 1 : 0;
        r.r4 = hint && Rigs.firstTakenThenEachOnce(timers, tookA, left) ? 1 : 0;
    }
}

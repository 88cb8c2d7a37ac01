package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

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
 * ({@link WorkerPool#take}: the poll, which moves the head off the stub onto the batch and claims the batch's first
 * timer, leaving the batch at the head with two unclaimed; then, since the queue still reads non-empty, the recruit
 * {@code signal(awakeCap)}, and the owner's nudge if the cap held it back). Worker B, which found the queue empty
 * before the push, announces its park ({@link WorkerPool#announcePark}: PARKED, off the awake count, onto the idle
 * stack, then a second look at the queue, {@link HandOffQueue#isEmpty}).
 *
 * <p>What the code guarantees here is B's second look, not A's recruit. The pool's awake cap is 1 (the pool's own
 * cap on a 2-CPU machine, and the state of any pool whose awake count is at its cap): A is itself awake, so its
 * recruit is held back in every interleaving ({@code awake >= awakeCap}), and its nudge reaches nobody (a test's pool
 * has no owner). A does come back to the queue by itself after its task, but a task may block (for instance on one
 * of the timers behind it), and the owner's watchdog runs only when the owner is awake: so B must not park while the
 * two timers wait. It does not, because a batch's claims before its last move neither {@code head} (the first take
 * moves it off the stub onto the batch, and it stays there) nor {@code tail} (the batch, until the last claim pushes
 * the stub behind it): {@code isEmpty} reads the tail as the batch throughout, so B's look sees work and pops itself
 * off the idle stack. {@link BrokenHandOffVsParkBehindBatch} shows the window a look into the batch would miss.
 *
 * <p>Result: whether B's announcement let it park (1), B's state at the end (0 ACTIVE, 2 PARKED), how many timers the
 * arbiter then drains from the queue (the unclaimed ones), and whether every timer was handed out exactly once, A's
 * being the batch's first (1).
 */
@JCStressTest
@Description("Worker takes one timer of a queued batch vs another announcing its park: the rest of the batch keeps "
        + "the parker awake")
@Outcome(id = "0, 0, 2, 1", expect = ACCEPTABLE,
        desc = "B's second look saw the batch (before or after A's claim began: the tail is the batch until its last "
                + "claim) and B popped itself off the idle stack; A took the first timer, two wait for B")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "B decided to park after a waker had popped it, whose ACTIVE store followed: woken. Not expected at "
                + "cap 1 (A, awake, holds its own recruit back): the cap did not hold, but no wake-up was lost")
@Outcome(id = "., 2, .*", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: B stays parked, nobody woke it, and the rest of the batch waits (A's recruit is capped, "
                + "A may block in its task)")
@Outcome(id = "., [01], ., 0", expect = FORBIDDEN,
        desc = "A took nothing or not the first timer, or a timer was handed out twice or never")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach (timers lost or taken twice)")
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
        List<TimingWheel.Node> left = Rigs.drain(pool.queue);
        r.r1 = parks ? 1 : 0;
        r.r2 = b.state;
        r.r3 = left.size();
        r.r4 = Rigs.firstTakenThenEachOnce(timers, tookA, left) ? 1 : 0;
    }
}

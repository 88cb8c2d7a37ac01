package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Race 32: a worker taking a batch out of the queue, with the awake cap full, vs the owner's step and park plan. The
 * worker's take ({@link WorkerPool#take}) arms the batch, publishes it as its own, sets the queue's held hint if it
 * was clear, claims the first timer, and, since timers are left and the cap holds its recruit back, nudges the owner
 * (a nudge goes out only when the pool could add a worker: here one is parked).
 * The owner's step runs its watchdog (queue empty? hint set? then the holders' slots) and plans its park, after which
 * it looks again ({@code TaskDispatch.backlogToWatch}: queued, or the hint). If the worker then blocks in its task,
 * only the watchdog can add a worker for the timers left in its batch: so the owner must not park with nothing due
 * while they wait unseen. The hint's store, then the nudge's read of the plan; the plan's store, then the look at
 * the hint: one of the two sees the other.
 *
 * <p>The pool: as many detached workers awake as the cap (blocked in tasks, as far as the pool knows; the first is
 * the taker) and one parked. Two due timers were handed off as one batch before the actors run. Result: the plan (0
 * = must not park, 1 = park at most a tick, the watchdog's look, 2 = park with nothing due: indefinitely) and whether
 * the owner is marked awake afterwards (1 = the nudge woke it, or the plan was withdrawn).
 */
@JCStressTest
@Description("Worker taking a batch with the awake cap full (hint, then nudge) vs the owner's step and park plan")
@Outcome(id = "0, 1", expect = ACCEPTABLE,
        desc = "the step's watch missed the held batch and the nudge found the owner awake; the owner's look after "
                + "publishing its plan saw the hint, so it does not park")
@Outcome(id = {"1, 0", "1, 1"}, expect = ACCEPTABLE,
        desc = "the step's watch saw the batch (queued, or held with a timer left): the owner parks at most a tick")
@Outcome(id = "2, 1", expect = ACCEPTABLE,
        desc = "the hint came after the owner's look: the nudge found the published plan and woke the owner")
@Outcome(id = "2, 0", expect = FORBIDDEN,
        desc = "LOST NUDGE: the owner parks with nothing due though a timer waits in a blocked worker's batch")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach (a withdrawn plan is always marked awake)")
@State
public class HeldBatchVsOwnerPark {

    private final WheelTimer timer = Rigs.ownPool(new ManualClock());
    private final WorkerPool pool;
    private final WorkerPool.Worker taker;
    /** Written by the owner's actor, read by the arbiter. */
    private long planned;

    public HeldBatchVsOwnerPark() {
        pool = Rigs.capFullWithOneParked(timer);
        taker = pool.worker(1);
        OwnerLoop.of(timer).step(); // an empty step first, so that the actor's is not the timer's first
        pool.dispatch(Rigs.handedOff()); // as the owner's step: two due timers into one batch, one push
        pool.dispatch(Rigs.handedOff());
        pool.afterBatch(false); // its capped signal wakes nobody
        pool.queue.clearHeldHint(); // as a new queue: no batch held yet
    }

    @Actor
    public void worker() {
        pool.take(taker); // takes the batch out, arms it, claims one; one left and the cap full: nudges the owner
    }

    @Actor
    public void owner() {
        OwnerLoop loop = OwnerLoop.of(timer);
        loop.step();
        planned = loop.ownerPark.planPark();
    }

    @Arbiter
    public void after(II_Result r) {
        r.r1 = Rigs.planKind(planned);
        r.r2 = OwnerPark.of(timer).isAwake() ? 1 : 0;
    }
}

package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Race 17: the default pool's lost wake-up. A producer (the owner handing off a step's chain, or a thread submitting
 * work due now) pushes a timer to the pool's {@link HandOffQueue} and then signals ({@link IdleWorkers#signal()}: no
 * spinner, so it pops a parked worker if there is one), while the only worker, which found the queue empty, announces
 * that it parks ({@link IdleWorkers#announcePark}: PARKED, onto the idle stack, then a second look at the queue).
 * Either the worker sees the timer and wakes itself, or the producer sees it on the idle stack and wakes it; a worker
 * left PARKED beside a queued timer is the lost wake-up (the timer would wait for the next hand-off, or forever).
 *
 * <p>Result: whether announcePark let the worker park (1), the worker's state at the end (0 ACTIVE, 2 PARKED), and
 * whether the timer is still queued (1: nobody took it in this test; the question is whether someone is awake to).
 */
@JCStressTest
@Description("Pool push + signal vs a worker announcing its park: a parked worker beside a queued timer has a waker")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE,
        desc = "the worker was woken before it could park: its own second look saw the timer, or the producer "
                + "popped it off the idle stack first")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE,
        desc = "the worker decided to park; the producer then saw it on the idle stack and woke it")
@Outcome(id = "., 2, 1", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the worker stays parked, nobody woke it, and the timer waits in the queue")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach")
@State
public class HandOffVsPark {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    /** The pool's one worker (so the pool is full: signal starts nobody), its steps run by the worker actor. */
    private final WorkerPool.Worker worker = pool.detachedWorker();
    private final ScheduledTimer<?> timer = Rigs.handedOff();
    /** Written by the worker actor, read by the arbiter. */
    private boolean parks;

    @Actor
    public void producer() {
        pool.queue.push(timer);
        pool.idleWorkers.signal();
    }

    @Actor
    public void worker() {
        parks = pool.idleWorkers.announcePark(worker);
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = parks ? 1 : 0;
        r.r2 = worker.state;
        r.r3 = pool.queue.isEmpty() ? 0 : 1;
    }
}

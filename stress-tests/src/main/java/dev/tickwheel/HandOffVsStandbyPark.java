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
 * Race 25: the standby's lost wake-up. A producer pushes a timer to the pool and signals ({@link IdleWorkers#signal()}:
 * no spinner, no idle stack, so it takes the worker standing by out of its slot), while the only worker, which found
 * the queue empty, becomes the standby ({@link StandbySlot#take}, then {@link StandbySlot#arm}: the
 * slot's CAS, then a look at the queue) and would park until the next due tick. Either the worker sees the timer and
 * leaves the slot, or the producer sees the slot and takes the worker out of it; a worker left standing by beside a
 * queued timer is the lost wake-up (the timer would wait until that tick, or forever when none is planned).
 *
 * <p>Result: whether the worker would park as the standby (1), its state at the end (0 ACTIVE, 1 STANDBY), and
 * whether the timer is still queued (1: nobody took it in this test; the question is whether someone is awake to),
 * and the pool's awake count (1: the worker, back from the slot, counted once).
 */
@JCStressTest
@Description("Pool push + signal vs a worker becoming the standby: a standby beside a queued timer has a waker")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE,
        desc = "the worker left the slot before it could park: its look saw the timer, or the producer took it out "
                + "first")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE,
        desc = "the worker decided to park as the standby; the producer then saw the slot and took it out")
@Outcome(id = "., 1, 1, .", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the worker stands by, nobody took it out, and the timer waits in the queue")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach, or the awake count off (the worker is awake: 1)")
@State
public class HandOffVsStandbyPark {

    private final WorkerPool pool = StandbyRigs.pool();
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
        parks = pool.standbySlot.take(worker) && pool.standbySlot.arm(worker) != StandbySlot.GONE;
    }

    @Arbiter
    public void after(IIII_Result r) {
        r.r1 = parks ? 1 : 0;
        r.r2 = worker.state;
        r.r3 = pool.queue.isEmpty() ? 0 : 1;
        r.r4 = pool.idleWorkers.awakeWorkers();
    }
}

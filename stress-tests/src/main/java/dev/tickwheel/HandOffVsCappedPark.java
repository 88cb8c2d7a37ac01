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
 * Race 21: the awake cap's handshake. The owner's batches, a task due now and a worker's recruit wake a parked worker
 * only while fewer than the cap ({@link IdleWorkers#awakeCap}, here 1) are awake; a worker leaving the awake count
 * does so before it puts itself on the idle stack and takes its second look. So a producer that reads the count
 * before the worker left it (and wakes nobody) pushed before that look, and the worker sees the timer; one that
 * reads it after finds the worker on the idle stack. A worker left PARKED beside a queued timer, with the producer
 * holding back because it still counted it awake, is the lost wake-up.
 *
 * <p>Result: whether announcePark let the worker park (1), its state at the end (0 ACTIVE, 2 PARKED), and whether the
 * timer is still queued.
 */
@JCStressTest
@Description("Pool push + capped signal vs the only worker leaving the awake count to park: no lost wake-up")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE,
        desc = "the worker's second look saw the timer (the producer held back, counting it awake), or the producer "
                + "found it on the idle stack and popped it first")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE,
        desc = "the worker decided to park; the producer then saw it on the idle stack and woke it")
@Outcome(id = "., 2, 1", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the producer counted the worker awake and held back, and the worker parked without "
                + "seeing the timer")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach")
@State
public class HandOffVsCappedPark {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    }, 1);
    /** The pool's one worker, awake (the count is 1: the cap); its steps run by the worker actor. */
    private final WorkerPool.Worker worker = pool.detachedWorker();
    private final ScheduledTimer<?> timer = Rigs.handedOff();
    /** Written by the worker actor, read by the arbiter. */
    private boolean parks;

    @Actor
    public void producer() {
        pool.queue.push(timer);
        pool.idleWorkers.signal(pool.idleWorkers.awakeCap); // held back while the worker still counts as awake
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

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
 * Race 17: the default pool's lost wake-up. The owner offers a due timer to the {@link WorkerPool}'s queue and then
 * looks for a parked worker to wake ({@link WorkerPool#wakeOne()}), while a worker that found the queue empty
 * announces that it parks ({@link WorkerPool#announcePark}: PARKED, then a second look at the queue). Either the
 * worker sees the timer and stays up, or the owner sees the worker parked and wakes it (PARKED -&gt; ACTIVE); a
 * worker left parked beside a queued timer is the lost wake-up (the timer would wait for the next batch, or forever
 * if none comes).
 *
 * <p>Result: whether the worker decided to park (1), its state at the end (0 ACTIVE, 2 PARKED), and whether the
 * owner's wakeOne reported someone to run the timer.
 */
@JCStressTest
@Description("Owner offer + wake vs worker announcing its park: a parked worker always has a waker")
@Outcome(id = "0, 0, [01]", expect = ACCEPTABLE,
        desc = "the worker's second look saw the timer and it did not park; the owner found it searching, or PARKED "
                + "(and woke it, harmlessly)")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE,
        desc = "the worker parked after the owner's offer was invisible to it; the owner saw it PARKED and woke it")
@Outcome(id = "1, 2, .", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the worker parks, nobody moved it to ACTIVE, and the timer waits in the queue")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach")
@State
public class WakeVsPark {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    private final WorkerPool.Worker worker = pool.detachedWorker();
    private final ScheduledTimer<?> timer = Rigs.handedOff();
    /** Written by the worker actor, read by the arbiter. */
    private boolean parks;
    /** Written by the owner actor, read by the arbiter. */
    private boolean woke;

    public WakeVsPark() {
        pool.register(worker); // started and searching (a new worker's state), its spin found the queue empty
    }

    @Actor
    public void owner() {
        pool.enqueue(timer);
        woke = pool.wakeOne();
    }

    @Actor
    public void worker() {
        parks = pool.announcePark(worker);
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = parks ? 1 : 0;
        r.r2 = worker.state;
        r.r3 = woke ? 1 : 0;
    }
}

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
 * Race 18: the spinner's way out. A producer that finds a worker spinning wakes nobody (the spinner watches the
 * queue), so the spinner that gives up must not park past a push it did not see: it clears the spinner flag first and
 * then announces its park like any worker (PARKED, onto the idle stack, a second look). Here the spinner gives up
 * while a producer pushes and signals: either the spinner's look sees the timer, or the producer sees no spinner and
 * finds the worker on the idle stack.
 *
 * <p>Result: whether announcePark let the worker park (1), its state at the end (0 ACTIVE, 2 PARKED), and whether the
 * timer is still queued.
 */
@JCStressTest
@Description("Push + signal vs the spinner giving up and parking: no push is left with the spinner gone to sleep")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the spinner's second look saw the timer (or it was woken first)")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE,
        desc = "the producer saw no spinner, found the worker on the idle stack, and woke it")
@Outcome(id = "., 2, 1", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the producer trusted the spinner, which parked without seeing the timer")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach")
@State
public class HandOffVsSpinnerPark {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    private final WorkerPool.Worker worker = pool.detachedWorker();
    private final ScheduledTimer<?> timer = Rigs.handedOff();
    private boolean parks;

    public HandOffVsSpinnerPark() {
        // the worker is the spinner and has just seen the queue empty for the last time
        pool.idleWorkers.becomeSpinner();
    }

    @Actor
    public void producer() {
        pool.queue.push(timer);
        pool.idleWorkers.signal();
    }

    @Actor
    public void spinner() {
        pool.idleWorkers.stopSpinning(); // as IdleWorkers.spin ends
        parks = pool.idleWorkers.announcePark(worker); // as IdleWorkers.park begins
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = parks ? 1 : 0;
        r.r2 = worker.state;
        r.r3 = pool.queue.isEmpty() ? 0 : 1;
    }
}

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
 * A deliberately BROKEN park, to show that {@link HandOffVsCappedPark} can fail: the worker leaves the awake count
 * only after its second look ({@link IdleWorkers#announceParkCountingLate}). A producer that pushes after that look
 * and reads the count before the worker left it holds back, and the worker parks beside the timer.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenHandOffVsCappedPark -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN park (counted out of the awake workers after its look) vs push + capped signal")
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
public class BrokenHandOffVsCappedPark {

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
        parks = pool.idleWorkers.announceParkCountingLate(worker); // BROKEN: counts itself out after the look
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = parks ? 1 : 0;
        r.r2 = worker.state;
        r.r3 = pool.queue.isEmpty() ? 0 : 1;
    }
}

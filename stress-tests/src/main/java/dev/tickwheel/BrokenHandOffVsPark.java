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
 * A deliberately BROKEN park, to show that {@link HandOffVsPark} can fail: the worker looks at the queue first and
 * only then puts itself on the idle stack, with no second look. A push and signal that fall between its look and its
 * announcement find nobody to wake, and the worker parks beside the timer.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenHandOffVsPark -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN park (look, then announce) vs push + signal: expected to show a lost wake-up")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the worker's only look saw the timer: it did not park")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the producer's signal came after the announcement: woken")
@Outcome(id = "., 2, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: parked beside a queued timer, nobody to wake it")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach")
@State
public class BrokenHandOffVsPark {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    private final WorkerPool.Worker worker = pool.detachedWorker();
    private final ScheduledTimer<?> timer = Rigs.handedOff();
    private boolean parks;

    @Actor
    public void producer() {
        pool.queue.push(timer);
        pool.idleWorkers.signal();
    }

    @Actor
    public void worker() {
        if (pool.queue.isEmpty()) { // BROKEN: the look comes before the announcement, and is not repeated
            pool.idleWorkers.pushIdle(worker);
            parks = true;
        }
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = parks ? 1 : 0;
        r.r2 = worker.state;
        r.r3 = pool.queue.isEmpty() ? 0 : 1;
    }
}

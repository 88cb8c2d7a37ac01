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
 * A deliberately BROKEN spinner, to show that {@link HandOffVsSpinnerPark} can fail: it announces its park (and
 * takes its second look) while still flagged as the spinner, and clears the flag only afterwards. A producer that
 * pushes after that look still sees a spinner and wakes nobody.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenHandOffVsSpinnerPark -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN spinner (announce, then clear the flag) vs push + signal: expected to lose a wake-up")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the spinner's second look saw the timer (or it was woken first)")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE,
        desc = "the producer saw no spinner, found the worker on the idle stack, and woke it")
@Outcome(id = "., 2, 1", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the producer trusted the spinner, which parked without seeing the timer")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach")
@State
public class BrokenHandOffVsSpinnerPark {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    private final WorkerPool.Worker worker = pool.detachedWorker();
    private final ScheduledTimer<?> timer = Rigs.handedOff();
    private boolean parks;

    public BrokenHandOffVsSpinnerPark() {
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
        parks = pool.idleWorkers.announcePark(worker); // BROKEN: announced while still the spinner
        pool.idleWorkers.stopSpinning();
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = parks ? 1 : 0;
        r.r2 = worker.state;
        r.r3 = pool.queue.isEmpty() ? 0 : 1;
    }
}

package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIIII_Result;

/**
 * A deliberately BROKEN shutdown, to show that {@link ShutdownVsPeriodicRunEnd} catches the first bug of issue 21:
 * the state, actors and outcomes of that test, but the shutdown actor also ends a periodic timer whose run is in
 * progress at once, as {@code shutdown()} did before the fix (it moved RUNNING to CANCELLED; here a
 * {@code cancel(false)} right after shutdown() does the same), so the future reads done while its task runs.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenShutdownVsPeriodicRunEnd -m quick}. It is expected to
 * FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN shutdown (ends a running periodic at once) vs a periodic run's end: expected to "
        + "show DONE WHILE RUNNING")
@Outcome(id = "1, 0, 0, 1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "shutdown() found the timer not in a run (handed off and not yet claimed, or back to NEW after the "
                + "run): it ended it at once")
@Outcome(id = "0, 1, 0, 1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "shutdown() found the run in progress and left it to its runner: not done while the task still ran; "
                + "the runner ended it cancelled when the run returned")
@Outcome(id = "0, 0, 0, 1, 1, 0, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "shutdown() found the run in progress (RUNNING) while its task had not yet set inTask, or had "
                + "returned by the read of inTask: the future was still not done when read")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN,
        desc = "DONE WHILE RUNNING: the future read done (cancelled by shutdown) while its task was in progress")
@Outcome(id = "., ., 1, .*", expect = FORBIDDEN,
        desc = "RUN AFTER SHUTDOWN: run() was called after shutdown() returned and the task started")
@Outcome(id = "., ., ., [02], .*", expect = FORBIDDEN,
        desc = "NOT CANCELLED: the periodic timer did not end cancelled after shutdown")
@Outcome(expect = FORBIDDEN,
        desc = "the timer never terminated (a run's hold on termination was never released), a run was handed "
                + "out again after shutdown, or the pending count was released twice or not at all")
@State
public class BrokenShutdownVsPeriodicRunEnd {

    private final ManualClock clock = new ManualClock();
    /** The last task the owner handed to the executor, and how many it handed (owner thread; read by the worker). */
    private Runnable handedOut;
    private int dispatches;
    private final WheelTimer timer = Rigs.on(clock, r -> {
        handedOut = r;
        dispatches++;
    });
    private final ScheduledFuture<?> future;
    /** sv by the shutdown actor once shutdown() has returned; lv by the worker actor. */
    private volatile boolean shutdownReturned;
    /** sv by the task at its start (true) and its end (false); lv by the shutdown actor. */
    private volatile boolean inTask;
    /** Written by the worker actor, read by the arbiter. */
    private boolean calledAfter;
    private boolean started;
    /** The task's work: a few volatile stores, so that a shutdown() can land inside the task. */
    private volatile int work;

    public BrokenShutdownVsPeriodicRunEnd() {
        future = timer.scheduleAtFixedRate(() -> {
            inTask = true;
            started = true;
            for (int i = 0; i < 20; i++) {
                work = work * 31 + i;
            }
            inTask = false;
        }, 1, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
        clock.advanceMillis(1);
        OwnerLoop.of(timer).step(); // handedOut is the periodic timer, DISPATCHED, queued as in a pool
    }

    @Actor
    public void shutdowner(IIIIIII_Result r) {
        timer.shutdown();
        future.cancel(false); // the bug: a running periodic ended at once, as shutdown() did before issue 21
        r.r1 = future.isDone() ? 1 : 0;
        r.r2 = inTask ? 1 : 0;
        shutdownReturned = true;
    }

    @Actor
    public void worker() {
        calledAfter = shutdownReturned;
        handedOut.run();
    }

    @Arbiter
    public void after(IIIIIII_Result r) {
        r.r3 = calledAfter && started ? 1 : 0;
        for (int i = 0; i < 3 && !timer.isTerminated(); i++) {
            clock.advanceMillis(1);
            OwnerLoop.of(timer).step();
        }
        r.r4 = Rigs.ending(future);
        r.r5 = timer.isTerminated() ? 1 : 0;
        r.r6 = dispatches - 1;
        r.r7 = (int) timer.metrics().pending();
    }
}

package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * A deliberately BROKEN reschedule, to show that {@link RescheduleVsShutdown} catches the bug of issue 21: the
 * state, actors and outcomes of that test, but the producer's earlier-deadline reschedule is the one before the fix,
 * written out here: NEW &rarr; MOVING by CAS, the move command, then a re-read of the run state that, seeing a
 * shutdown, ends the MOVING timer cancelled (and returns false), although the owner would have moved it.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenRescheduleVsShutdown -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN reschedule (cancels on seeing a shutdown after its offer) vs shutdown(): expected "
        + "to show CANCELLED BY NOBODY")
@Outcome(id = "1, 1, 0, 1, 0", expect = ACCEPTABLE,
        desc = "the reschedule came first: moved, and run once at its new deadline")
@Outcome(id = "0, 1, 0, 1, 0", expect = ACCEPTABLE,
        desc = "the reschedule saw the shutdown, or found the timer handed off: it kept its old deadline and ran")
@Outcome(id = "., ., 1, ., .", expect = FORBIDDEN,
        desc = "CANCELLED BY NOBODY: the broken reschedule saw the shutdown after its offer and ended the timer")
@Outcome(id = "., 0, .*", expect = FORBIDDEN, desc = "LOST: the timer never ran")
@Outcome(expect = FORBIDDEN, desc = "ran twice, the owner never terminated, or the pending count was not released")
@State
public class BrokenRescheduleVsShutdown {

    private volatile Thread owner;
    private final WheelTimer timer = Rigs.direct(() -> Thread.currentThread() == owner ? 10 * ManualClock.MS : 0L);
    private final ScheduledTimer<?> future;
    private int runs;

    public BrokenRescheduleVsShutdown() {
        future = (ScheduledTimer<?>) timer.schedule(() -> runs++, 10, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
    }

    /** The earlier-deadline path of reschedule before issue 21's fix, to key 2. */
    private boolean brokenReschedule() {
        if (!timer.isActive()) {
            return false;
        }
        long s = future.word();
        if (ScheduledTimer.phaseOf(s) != ScheduledTimer.NEW
                || !future.casWord(s, ScheduledTimer.withKey(s, ScheduledTimer.MOVING, 2))) {
            return false;
        }
        timer.offerMove(future, 2);
        if (!timer.isActive() && future.casPhase(ScheduledTimer.MOVING, ScheduledTimer.CANCELLED)) {
            future.setOutcome(null);
            timer.onCancelled(future, ScheduledTimer.NEW); // the bug: nobody asked for this cancel
            return false;
        }
        return true;
    }

    @Actor
    public void rescheduler(IIIII_Result r) {
        r.r1 = brokenReschedule() ? 1 : 0;
    }

    @Actor
    public void shutdownThenOwner() {
        owner = Thread.currentThread();
        timer.shutdown();
        OwnerLoop.of(timer).step();
    }

    @Arbiter
    public void after(IIIII_Result r) {
        owner = Thread.currentThread();
        for (int i = 0; i < 3 && !timer.isTerminated(); i++) {
            OwnerLoop.of(timer).step();
        }
        r.r2 = runs;
        r.r3 = Rigs.ending(future);
        r.r4 = timer.isTerminated() ? 1 : 0;
        r.r5 = (int) timer.metrics().pending();
    }
}

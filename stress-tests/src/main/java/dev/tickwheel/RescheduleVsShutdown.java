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
 * Issue 21: a reschedule to an earlier deadline against a graceful {@code shutdown()} and the owner's step at the
 * timer's old deadline. A one-shot timer pending when the shutdown began runs: at the new deadline if the reschedule
 * returned true, else at the old one; nobody cancelled it, so it never ends cancelled.
 *
 * <p>The timer is linked at 10 ms. The producer's clock reads 0 (a thread that read its clock before the owner's
 * step), so {@code reschedule(2 ms)} is a move to an earlier key: NEW &rarr; MOVING by CAS, then a move command. The
 * owner actor's clock reads 10 ms: it calls shutdown() and steps, meeting the timer as due at its old key, before,
 * during or after the reschedule (a MOVING timer met before its command is offered is the window that lost it).
 * Both keys are due by that step, so the two acceptable outcomes differ only in what the reschedule returned. The
 * arbiter steps until the owner exits. Result: reschedule returned true; runs; how the future ended (0 completed,
 * 1 cancelled, 2 anything else); the timer terminated; the pending count.
 */
@JCStressTest
@Description("an earlier reschedule vs shutdown() and the owner's step: the timer still runs, once, never cancelled")
@Outcome(id = "1, 1, 0, 1, 0", expect = ACCEPTABLE,
        desc = "the reschedule came first (before the shutdown, or before the owner met the timer): moved, and run "
                + "once at its new deadline")
@Outcome(id = "0, 1, 0, 1, 0", expect = ACCEPTABLE,
        desc = "the reschedule saw the shutdown, or found the timer handed off: it kept its old deadline and ran")
@Outcome(id = "., ., 1, ., .", expect = FORBIDDEN,
        desc = "CANCELLED BY NOBODY: the timer ended cancelled, though no cancel was called (the reschedule's side "
                + "ended it on seeing the shutdown)")
@Outcome(id = "., 0, .*", expect = FORBIDDEN,
        desc = "LOST: the timer never ran (the owner exited with a MOVING timer out of its reach, or the move "
                + "command landed in a queue nobody reads)")
@Outcome(expect = FORBIDDEN,
        desc = "ran twice, the owner never terminated, or the pending count was not released")
@State
public class RescheduleVsShutdown {

    /** The owner actor's and the arbiter's thread, whose clock reads 10 ms; every other thread's reads 0. */
    private volatile Thread owner;
    private final WheelTimer timer = Rigs.direct(() -> Thread.currentThread() == owner ? 10 * ManualClock.MS : 0L);
    private final TimerFuture<?> future;
    /** Written by the task (inside a step), read by the arbiter. */
    private int runs;

    public RescheduleVsShutdown() {
        future = timer.schedule(() -> runs++, 10, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // linked at 10 ms
    }

    @Actor
    public void rescheduler(IIIII_Result r) {
        r.r1 = future.reschedule(2, TimeUnit.MILLISECONDS) ? 1 : 0;
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

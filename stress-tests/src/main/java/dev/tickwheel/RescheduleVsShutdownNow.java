package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Issue 21: a reschedule to an earlier deadline against the owner's step at the timer's old deadline and then
 * {@code shutdownNow()}. The timer is either handed back or runs, exactly once, and nobody cancelled it.
 *
 * <p>As {@link RescheduleVsShutdown}: the timer is linked at 10 ms, the producer's clock reads 0 (so its
 * {@code reschedule(2 ms)} is a move command), the owner actor's reads 10 ms. The owner actor steps (meeting the timer
 * as due at its old key, perhaps MOVING with its command not yet offered) and then calls shutdownNow(), which, with
 * no owner thread, collects on the calling thread. Result: reschedule returned true; runs; handed back by
 * shutdownNow; the future reads cancelled; the pending count.
 */
@JCStressTest
@Description("an earlier reschedule vs the owner's step and shutdownNow(): run or handed back, exactly once")
@Outcome(id = "., 1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "the owner's step ran the timer (at its old deadline, or moved at its new one) before shutdownNow")
@Outcome(id = "1, 0, 1, 0, 0", expect = ACCEPTABLE,
        desc = "the reschedule moved the timer (MOVING or relinked at its new key) and shutdownNow collected it "
                + "before any step ran it: handed back")
@Outcome(id = "., 0, 0, .*", expect = FORBIDDEN,
        desc = "LOST: neither run nor handed back (the step skipped a MOVING timer whose command came after "
                + "shutdownNow's collection, or the reschedule's side ended it)")
@Outcome(id = "., 1, 1, .*", expect = FORBIDDEN, desc = "BOTH: run and handed back")
@Outcome(id = "., ., ., 1, .", expect = FORBIDDEN, desc = "CANCELLED BY NOBODY: no cancel was called")
@Outcome(expect = FORBIDDEN, desc = "ran twice, handed back twice, or the pending count was not released")
@State
public class RescheduleVsShutdownNow {

    /** The owner actor's and the arbiter's thread, whose clock reads 10 ms; every other thread's reads 0. */
    private volatile Thread owner;
    private final WheelTimer timer = Rigs.direct(() -> Thread.currentThread() == owner ? 10 * ManualClock.MS : 0L);
    private final TimerFuture<?> future;
    /** Written by the task (inside a step), read by the arbiter. */
    private int runs;
    /** Written by the owner actor, read by the arbiter. */
    private List<Runnable> handedBack;

    public RescheduleVsShutdownNow() {
        future = timer.schedule(() -> runs++, 10, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // linked at 10 ms
    }

    @Actor
    public void rescheduler(IIIII_Result r) {
        r.r1 = future.reschedule(2, TimeUnit.MILLISECONDS) ? 1 : 0;
    }

    @Actor
    public void ownerThenShutdownNow() {
        owner = Thread.currentThread();
        OwnerLoop.of(timer).step();
        handedBack = timer.shutdownNow();
    }

    @Arbiter
    public void after(IIIII_Result r) {
        int back = 0;
        for (Runnable t : handedBack) {
            back += t == future ? 1 : 10; // anything else handed back is wrong
        }
        r.r2 = runs;
        r.r3 = back;
        r.r4 = future.isCancelled() ? 1 : 0;
        r.r5 = (int) timer.metrics().pending();
    }
}

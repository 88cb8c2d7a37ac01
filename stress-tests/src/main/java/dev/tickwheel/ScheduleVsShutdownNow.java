package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Race 4: {@code schedule} of a due task against {@code shutdownNow} on the owner (a step, then shutdownNow, which
 * in manual drive collects on the calling thread).
 *
 * <p>Every accepted timer must be accounted for exactly once: it ran, or it was handed back, or its future ended
 * cancelled. Result: schedule threw {@link RejectedExecutionException} (1), how many timers shutdownNow handed
 * back, how many times the task ran, whether the returned future is cancelled, and the pending count afterwards.
 */
@JCStressTest
@Description("schedule vs shutdownNow: rejected, handed back or ran, never lost and never twice")
@Outcome(id = "1, 0, 0, 0, 0", expect = ACCEPTABLE,
        desc = "rejected: schedule saw the STOP state on entry, or offered after the owner's last drain, saw STOP "
                + "when it re-read the state and revoked its own timer")
@Outcome(id = "0, 0, 1, 0, 0", expect = ACCEPTABLE,
        desc = "ran: schedule completed before the owner's step, which ran the due task")
@Outcome(id = "0, 1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "handed back: schedule offered after the step's drain and shutdownNow's collection claimed it")
@Outcome(id = "0, 0, 0, 0, .*", expect = FORBIDDEN,
        desc = "LOST: schedule returned normally, yet the task neither ran nor was handed back nor cancelled; its "
                + "future never completes (the owner's collection missed it and the producer saw no shutdown)")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN,
        desc = "rejected AND handed back: the caller was told it was refused, and shutdownNow's caller may run it")
@Outcome(id = "0, 1, 1, .*", expect = FORBIDDEN, desc = "ran AND handed back: the task may run twice")
@Outcome(expect = FORBIDDEN,
        desc = "any other combination: a task rejected yet run, a future cancelled though accepted and not run, or "
                + "the pending count not back to 0 (an accounting leak)")
@State
public class ScheduleVsShutdownNow {

    private final WheelTimer timer = Rigs.direct(new ManualClock());
    /** Written by the stepping actor (the task runs inside its step). */
    private int runs;
    private final Runnable task = () -> runs++;
    private ScheduledFuture<?> future;
    private boolean rejected;
    private List<Runnable> handedBack;

    @Actor
    public void producer() {
        try {
            future = timer.schedule(task, 0, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            rejected = true;
        }
    }

    @Actor
    public void owner() {
        OwnerLoop.of(timer).step();
        handedBack = timer.shutdownNow();
    }

    @Arbiter
    public void after(IIIII_Result r) {
        r.r1 = rejected ? 1 : 0;
        r.r2 = handedBack.size();
        r.r3 = runs;
        r.r4 = future != null && future.isCancelled() ? 1 : 0;
        r.r5 = (int) timer.metrics().pending();
    }
}

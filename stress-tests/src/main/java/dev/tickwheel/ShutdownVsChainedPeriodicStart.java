package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A periodic timer's first start into the start chain against {@code shutdown()} (issue 23, session 35). The start
 * ring (2 commands, no spare, the chain open: {@link Rigs#fullRingChained}) is full of two queued one-shot starts, so
 * the producer's {@code scheduleAtFixedRate} pushes its timer into the chain, marking its state word first. The timer
 * is registered for {@code shutdown()} before that push, so {@code shutdown()} may end it (a CAS to CANCELLED) while
 * the producer marks it: the mark must be an atomic or, or it erases the cancel, and the producer's re-check then
 * revokes the timer a second time (the pending count released twice). A second reader found that with a plain store.
 *
 * <p>The arbiter steps the owner through 120 ms so the two queued one-shots run (a graceful shutdown runs them).
 * Result: the periodic schedule threw {@link RejectedExecutionException} (1), its future is cancelled (1), its task's
 * runs, and the pending count afterwards.
 */
@JCStressTest
@Description("A periodic start pushed into the start chain vs shutdown(): ended once, counted once, never run")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "rejected: the producer saw SHUTDOWN on entry, or after its push and revoked its own timer")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE,
        desc = "accepted first: shutdown() found it registered and ended it (cancelled), before any run")
@Outcome(id = "., ., ., -1", expect = FORBIDDEN,
        desc = "DOUBLE RELEASE: the pending count went below zero (the mark erased shutdown's cancel, and the "
                + "producer's re-check revoked the timer again)")
@Outcome(expect = FORBIDDEN,
        desc = "a periodic task ran after shutdown(), a future neither rejected nor cancelled, or a pending count "
                + "left over")
@State
public class ShutdownVsChainedPeriodicStart {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.fullRingChained(clock, CommandQueue.Flaw.NONE);
    private ScheduledFuture<?> future;
    private boolean rejected;
    /** Written by the task (in a step), read by the arbiter. */
    private int runs;

    public ShutdownVsChainedPeriodicStart() {
        timer.schedule(() -> { }, 60, TimeUnit.MILLISECONDS);
        timer.schedule(() -> { }, 60, TimeUnit.MILLISECONDS); // the ring is full: the next start is chained
    }

    @Actor
    public void producer() {
        try {
            future = timer.scheduleAtFixedRate(() -> runs++, 50, 50, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            rejected = true;
        }
    }

    @Actor
    public void owner() {
        timer.shutdown();
    }

    @Arbiter
    public void after(IIII_Result r) {
        for (int ms = 0; ms < 120 && !timer.isTerminated(); ms += 10) {
            OwnerLoop.of(timer).step();
            clock.advanceMillis(10);
        }
        r.r1 = rejected ? 1 : 0;
        r.r2 = future != null && future.isCancelled() ? 1 : 0;
        r.r3 = runs;
        r.r4 = (int) timer.metrics().pending();
    }
}

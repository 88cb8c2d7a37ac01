package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
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
 * Race 8b: {@code cancel} against {@code shutdownNow}'s collection claiming the same pending timer (NEW -&gt;
 * CANCELLED against NEW -&gt; RETURNED). Exactly one of them takes it from NEW. A cancel that comes after the
 * claim cancels the handed-back timer (RETURNED -&gt; CANCELLED, as a cancel of a task returned by
 * {@code ScheduledThreadPoolExecutor.shutdownNow} does): it returns true, the caller's later run of it does
 * nothing, and it is not counted as cancelled a second time.
 *
 * <p>Result: cancel's return, how many timers shutdownNow handed back, whether the task ran when the arbiter (as
 * shutdownNow's caller) ran what it was handed, the cancelled count, the pending count.
 */
@JCStressTest
@Description("cancel vs shutdownNow claiming the same timer: one claim from NEW, never run after a true cancel")
@Outcome(id = "1, 0, 0, 1, 0", expect = ACCEPTABLE,
        desc = "cancel's CAS came first: the timer ended cancelled (counted once) and shutdownNow did not return it")
@Outcome(id = "1, 1, 0, 0, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "shutdownNow claimed it first (RETURNED); the cancel then cancelled the handed-back timer, so running "
                + "it does nothing, and it is not counted as cancelled (shutdownNow already accounted for it)")
@Outcome(id = "1, 1, 1, .*", expect = FORBIDDEN,
        desc = "cancel returned true, yet the handed-back timer still ran when its new owner ran it")
@Outcome(id = "., 1, ., 1, .", expect = FORBIDDEN,
        desc = "BOTH CLAIMED FROM NEW: handed back and counted as cancelled (the claim and the cancel are not "
                + "exclusive)")
@Outcome(expect = FORBIDDEN,
        desc = "cancel of a pending or handed-back timer returned false, the timer was handed back twice, or the "
                + "pending count was not released exactly once")
@State
public class CancelVsShutdownNow {

    private final WheelTimer timer = Rigs.direct(new ManualClock());
    /** Written by the task (when the arbiter runs what was handed back), read by the arbiter. */
    private int runs;
    private final ScheduledFuture<?> future;
    private List<Runnable> handedBack;

    public CancelVsShutdownNow() {
        future = timer.schedule(() -> runs++, 5, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // in the wheel at key 5
    }

    @Actor
    public void producer(IIIII_Result r) {
        r.r1 = future.cancel(false) ? 1 : 0;
    }

    @Actor
    public void owner() {
        handedBack = timer.shutdownNow();
    }

    @Arbiter
    public void after(IIIII_Result r) {
        r.r2 = handedBack.size();
        for (Runnable task : handedBack) {
            task.run(); // as shutdownNow's caller may
        }
        r.r3 = runs;
        r.r4 = (int) timer.metrics().cancelled();
        r.r5 = (int) timer.metrics().pending();
    }
}

package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race 20: work due now ({@code submit}) goes straight to the default pool, never through the owner, so it races
 * {@code shutdownNow} on its own: the producer pushes its timer to the pool's queue and then re-reads the run state
 * (revoking its timer if it sees a shutdown), while shutdownNow stores STOP and then drains the queue for its
 * hand-back. The timer (manual drive: shutdownNow collects on its own thread; the pool's one worker is a test's,
 * which does not run) must end exactly one way: rejected (submit throws and the timer is cancelled), or handed back.
 * A timer left queued and pending after both is lost: the real workers exit once shutdownNow has drained.
 *
 * <p>Result: whether submit threw, how many timers shutdownNow handed back, how many pending timers were left in the
 * queue, and the pending count afterwards.
 */
@JCStressTest
@Description("submit (straight to the pool) vs shutdownNow: rejected or handed back, never lost, never both")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "rejected: submit saw STOP on entry, or pushed after the drain, saw STOP and revoked its timer")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "handed back: the drain took the pushed timer")
@Outcome(id = "0, 0, 1, .", expect = FORBIDDEN,
        desc = "LOST: submit returned normally, the drain missed its timer, and no worker will ever take it")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "rejected AND handed back")
@Outcome(expect = FORBIDDEN, desc = "any other combination, or the pending count not back to 0")
@State
public class ExecuteVsShutdownNow {

    private final WheelTimer timer = WheelTimer.builder().timeSource(new ManualClock()).tick(1, TimeUnit.MILLISECONDS)
            .manualDrive().ownerBatch(Rigs.BATCH).workerThreads(1).build();
    private final WorkerPool pool = timer.pool();
    private boolean rejected;
    private List<Runnable> handedBack;

    public ExecuteVsShutdownNow() {
        pool.detachedWorker(); // the pool's one worker, so that submit's signal starts no thread
    }

    @Actor
    public void producer() {
        try {
            timer.submit(() -> { });
        } catch (RejectedExecutionException e) {
            rejected = true;
        }
    }

    @Actor
    public void shutdownNow() {
        handedBack = timer.shutdownNow();
    }

    @Arbiter
    public void after(IIII_Result r) {
        int left = 0;
        // Bounded (Rigs.drain): a queue left mid-push fails the sample instead of hanging the arbiter.
        for (TimingWheel.Node n : Rigs.drain(pool.queue)) {
            if (!((ScheduledTimer<?>) n).isDone()) {
                left++;
            }
        }
        r.r1 = rejected ? 1 : 0;
        r.r2 = handedBack.size();
        r.r3 = left;
        r.r4 = (int) timer.metrics().pending();
    }
}

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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A deliberately BROKEN submit, to show that {@link ExecuteVsShutdownNow} can fail: the producer checks the run state
 * before its push and never again, so a shutdownNow whose drain comes between the check and the push leaves the
 * timer queued, accepted and pending, with nobody left to run it.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenExecuteVsShutdownNow -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN submit (no re-read after the push) vs shutdownNow: expected to lose the timer")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "rejected: submit saw STOP on entry, or pushed after the drain, saw STOP and revoked its timer")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "handed back: the drain took the pushed timer")
@Outcome(id = "0, 0, 1, .", expect = FORBIDDEN,
        desc = "LOST: submit returned normally, the drain missed its timer, and no worker will ever take it")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "rejected AND handed back")
@Outcome(expect = FORBIDDEN, desc = "any other combination, or the pending count not back to 0")
@State
public class BrokenExecuteVsShutdownNow {

    private final WheelTimer timer = WheelTimer.builder().timeSource(new ManualClock()).tick(1, TimeUnit.MILLISECONDS)
            .manualDrive().ownerBatch(Rigs.BATCH).workerThreads(1).build();
    private final WorkerPool pool = timer.pool();
    private boolean rejected;
    private List<Runnable> handedBack;

    public BrokenExecuteVsShutdownNow() {
        pool.detachedWorker(); // the pool's one worker, so that submit's signal starts no thread
    }

    @Actor
    public void producer() {
        if (timer.isShutdown()) { // BROKEN: the only look at the run state comes before the push
            rejected = true;
            return;
        }
        ScheduledTimer<Void> t = new ScheduledTimer<>(timer, (Runnable) () -> { }, 0, 0L);
        t.initHandedOff();
        timer.counters.submittedNow.increment(); // counted as acceptNow counts it, so serial runs balance
        pool.submitNow(t, null);
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

package dev.tickwheel;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The state and actors shared by {@link ScheduleResizeVsShutdownNow} and {@link ScheduleChainVsShutdownNow}: a manually
 * driven timer whose start queue holds three starts (60 ms out) past its ring of 2, so that the producer's start (5 ms
 * out, so it waits in the queue) goes to the place under test behind the third, against {@code shutdownNow}'s
 * collection, which polls the start queue until it is empty.
 *
 * <p>Result: schedule threw {@link RejectedExecutionException} (1), how many timers shutdownNow handed back beyond the
 * three queued before, whether the producer's future is cancelled, and the pending count afterwards.
 */
final class QueuedStartVsShutdownNowRace {

    private final WheelTimer timer;
    private ScheduledFuture<?> future;
    private boolean rejected;
    private List<Runnable> handedBack;

    QueuedStartVsShutdownNowRace(WheelTimer timer) {
        this.timer = timer;
        for (int i = 0; i < 3; i++) { // two fill the ring, the third goes to the place under test
            timer.schedule(() -> { }, 60, TimeUnit.MILLISECONDS);
        }
    }

    void producer() {
        try {
            future = timer.schedule(() -> { }, 5, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            rejected = true;
        }
    }

    void owner() {
        handedBack = timer.shutdownNow();
    }

    void after(IIII_Result r) {
        r.r1 = rejected ? 1 : 0;
        r.r2 = handedBack.size() - 3;
        r.r3 = future != null && future.isCancelled() ? 1 : 0;
        r.r4 = (int) timer.metrics().pending();
    }
}

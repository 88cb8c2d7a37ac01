package dev.tickwheel;

import static java.util.concurrent.TimeUnit.HOURS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * shutdownNow landing while the owner is inside a step. The owner reads the run state once at the top of a step,
 * then drains the start queue; a periodic timer it takes from the queue after a racing shutdownNow stored STOP was
 * ended as if by shutdown() (revoked), so shutdownNow did not hand it back although it had never run. Seen once as
 * a flaky run of the contract suite's shutdownNow test (a fixed-rate timer missing from the hand-back); here the
 * interleaving is forced with the step hook, which runs after that read.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WheelTimerShutdownNowRaceTest {

    @Test
    void aPeriodicTimerTakenFromTheQueueAfterShutdownNowIsHandedBack() throws Exception {
        AtomicReference<WheelTimer> ref = new AtomicReference<>();
        AtomicBoolean armed = new AtomicBoolean();
        CountDownLatch inStep = new CountDownLatch(1);
        WheelTimer timer = WheelTimer.builder().stepHook(() -> {
            if (armed.compareAndSet(true, false)) {
                inStep.countDown();
                // Hold this step (its run state is already read) until shutdownNow has stored STOP.
                while (!ref.get().isShutdown()) {
                    Thread.onSpinWait();
                }
            }
        }).build();
        ref.set(timer);
        armed.set(true);
        AtomicBoolean ran = new AtomicBoolean();
        // Its offer wakes the parked owner (an empty wheel plans no event), whose step then holds in the hook with
        // this timer still in the start queue.
        ScheduledFuture<?> p = timer.scheduleAtFixedRate(() -> ran.set(true), 1, 1, HOURS);
        assertTrue(inStep.await(30, TimeUnit.SECONDS), "the owner's step did not start");

        List<Runnable> back = timer.shutdownNow();

        assertEquals(1, back.size(), () -> "handed back " + back);
        assertSame(p, back.get(0));
        assertFalse(p.isDone(), "a handed-back timer is neither run nor cancelled");
        assertFalse(ran.get());
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(0, timer.metrics().pending());
    }
}

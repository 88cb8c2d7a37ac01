package dev.tickwheel;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The counters of {@link WheelTimer#metrics()} on every path that starts or ends a timer. schedule and cancel update
 * no counter of their own (the start and cancel queues' producer indexes count them), so each path that offers a
 * command which is not a new timer or a cancel from NEW must be corrected: a periodic timer's next period, a
 * linked timer run from outside, a periodic timer cancelled while it runs, and the hand-back of shutdownNow. Each
 * test drives the owner by hand on a manual clock and checks the counts at rest, where they are exact.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WheelTimerMetricsTest {

    private final ManualTimeSource clock = new ManualTimeSource(0);

    private WheelTimer manual() {
        return WheelTimer.builder().timeSource(clock).manualDrive().executor(Runnable::run).build();
    }

    private static void assertCounts(WheelTimer timer, long pending, long scheduled, long fired, long cancelled,
                                     long rejected) {
        WheelTimerManualClockTest.assertMetrics(timer, pending, scheduled, fired, cancelled, rejected);
    }

    @Test
    void oneShotsScheduledCancelledAndRun() {
        WheelTimer timer = manual();
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> a = timer.schedule(runs::incrementAndGet, 5, MILLISECONDS);
        ScheduledFuture<?> b = timer.schedule(runs::incrementAndGet, 5, MILLISECONDS);
        ScheduledFuture<?> c = timer.schedule(runs::incrementAndGet, 5, MILLISECONDS);
        assertCounts(timer, 3, 3, 0, 0, 0);
        assertTrue(b.cancel(false)); // still in the start queue
        OwnerLoop.of(timer).step();
        assertTrue(c.cancel(false)); // in the wheel
        assertFalse(c.cancel(false)); // a second cancel is not counted
        assertCounts(timer, 1, 3, 0, 2, 0);
        clock.advance(5, MILLISECONDS);
        OwnerLoop.of(timer).step();
        assertEquals(1, runs.get());
        assertTrue(a.isDone());
        assertFalse(a.cancel(false));
        assertCounts(timer, 0, 3, 1, 2, 0);
    }

    @Test
    void aPeriodicTimerCountsOnceWhateverItsPeriodsAndEndsOnce() {
        WheelTimer timer = manual();
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> p = timer.scheduleAtFixedRate(runs::incrementAndGet, 1, 1, MILLISECONDS);
        for (int i = 0; i < 5; i++) {
            clock.advance(1, MILLISECONDS);
            OwnerLoop.of(timer).step();
        }
        assertEquals(5, runs.get());
        assertCounts(timer, 1, 1, 5, 0, 0); // five periods, each a start command, one timer
        assertTrue(p.cancel(false)); // between runs: from NEW, a cancel command
        OwnerLoop.of(timer).step();
        assertCounts(timer, 0, 1, 5, 1, 0);
    }

    @Test
    void aPeriodicTimerCancelledWhileItRunsIsCountedOnce() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().executor(pool).build();
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ScheduledFuture<?> p = timer.scheduleWithFixedDelay(() -> {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, 1, 1, MILLISECONDS);
            clock.advance(1, MILLISECONDS);
            OwnerLoop.of(timer).step();
            assertTrue(running.await(30, TimeUnit.SECONDS));
            assertTrue(p.cancel(false)); // from RUNNING: no cancel command is sent
            release.countDown();
            pool.submit(() -> { }).get(30, TimeUnit.SECONDS); // the run has returned
            OwnerLoop.of(timer).step();
            assertCounts(timer, 0, 1, 1, 1, 0);
            assertFalse(p.cancel(false));
            assertCounts(timer, 0, 1, 1, 1, 0);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLinkedTimerRunFromOutsideEndsOnceAndIsNotACancel() {
        WheelTimer timer = manual();
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> t = timer.schedule(runs::incrementAndGet, 1, TimeUnit.HOURS);
        OwnerLoop.of(timer).step(); // linked into the wheel
        ((Runnable) t).run(); // sends a command to unlink it
        assertEquals(1, runs.get());
        OwnerLoop.of(timer).step();
        assertCounts(timer, 0, 1, 0, 0, 0);
    }

    @Test
    void shutdownNowHandsBackAndCountsTheTimersOnce() {
        WheelTimer timer = manual();
        ScheduledFuture<?> a = timer.schedule(() -> { }, 1, TimeUnit.HOURS);
        OwnerLoop.of(timer).step();
        ScheduledFuture<?> b = timer.schedule(() -> { }, 1, TimeUnit.HOURS); // still in the start queue
        List<Runnable> back = timer.shutdownNow();
        assertEquals(2, back.size());
        assertCounts(timer, 0, 2, 0, 0, 0);
        assertTrue(a.cancel(false)); // the caller's now: accepted, not counted again
        assertCounts(timer, 0, 2, 0, 0, 0);
        assertThrows(RejectedExecutionException.class, () -> timer.schedule(() -> { }, 1, MILLISECONDS));
        assertCounts(timer, 0, 2, 0, 0, 1);
        ((Runnable) b).run();
        assertTrue(b.isDone());
        assertCounts(timer, 0, 2, 0, 0, 1);
    }

    @Test
    void periodicTimersEndedByShutdownAreNotCancels() {
        WheelTimer timer = manual();
        ScheduledFuture<?> p = timer.scheduleAtFixedRate(() -> { }, 1, 1, MILLISECONDS);
        ScheduledFuture<?> q = timer.scheduleAtFixedRate(() -> { }, 1, 1, MILLISECONDS);
        OwnerLoop.of(timer).step();
        timer.shutdown();
        OwnerLoop.of(timer).step();
        assertTrue(p.isCancelled());
        assertTrue(q.isCancelled());
        assertCounts(timer, 0, 2, 0, 0, 0);
    }

    @Test
    void aBacklogBeyondThePooledChunksLosesNothingAndCountsExactly() {
        // Two pooled chunks of 1,024: 10,000 starts and 5,000 cancels pile up before the first step, beyond the one
        // ring of 2,048 each queue has, so both spill into linked chunks.
        WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().executor(Runnable::run)
                .pooledQueueChunks(2).build();
        AtomicInteger runs = new AtomicInteger();
        List<ScheduledFuture<?>> kept = new java.util.ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            ScheduledFuture<?> f = timer.schedule(runs::incrementAndGet, 1 + i % 7, MILLISECONDS);
            if (i % 2 == 0) {
                assertTrue(f.cancel(false));
            } else {
                kept.add(f);
            }
        }
        assertCounts(timer, 5_000, 10_000, 0, 5_000, 0);
        assertEquals(2 * 2_048, timer.metrics().commandQueueRoom(), "two chunks: one ring a queue, no spare");
        assertEquals((10_000 - 2_048) + (5_000 - 2_048), timer.metrics().commandQueueSpills());
        clock.advance(10, MILLISECONDS);
        OwnerLoop.of(timer).step();
        assertEquals(5_000, runs.get());
        for (ScheduledFuture<?> f : kept) {
            assertTrue(f.isDone());
        }
        assertCounts(timer, 0, 10_000, 5_000, 5_000, 0);
    }

    @Test
    void aBacklogGrowsSpareRingsThatTheNextBacklogReusesWithoutSpilling() {
        // 128 chunks: a first ring of 8,192 a queue, and spare rings of 8,192, 16,384, 32,768 and 65,536 as backlogs
        // need them. 40,000 starts before the first step take the first ring and three spare ones (65,536 in all).
        WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().executor(Runnable::run)
                .pooledQueueChunks(128).build();
        assertEquals(2 * 8_192, timer.metrics().commandQueueRoom(), "only the first rings up front");
        AtomicInteger runs = new AtomicInteger();
        for (int round = 1; round <= 2; round++) {
            for (int i = 0; i < 40_000; i++) {
                timer.schedule(runs::incrementAndGet, 1, MILLISECONDS);
            }
            assertEquals(65_536 + 8_192, timer.metrics().commandQueueRoom(), "round " + round);
            assertEquals(0, timer.metrics().commandQueueSpills(), "nothing spilled, round " + round);
            clock.advance(2, MILLISECONDS);
            for (int step = 0; step < 4; step++) {
                OwnerLoop.of(timer).step(); // a step takes at most its batch (16,384) of commands
            }
            assertEquals(40_000 * round, runs.get(), "every start taken from every ring, round " + round);
        }
        assertCounts(timer, 0, 80_000, 80_000, 0, 0);
    }

    @Test
    void withALimitPendingIsExactAndTheOtherCountsAgree() {
        WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().executor(Runnable::run)
                .maxPending(2).build();
        Future<?> a = timer.schedule(() -> { }, 1, MILLISECONDS);
        timer.schedule(() -> { }, 1, MILLISECONDS);
        assertThrows(RejectedExecutionException.class, () -> timer.schedule(() -> { }, 1, MILLISECONDS));
        assertCounts(timer, 2, 2, 0, 0, 1);
        assertTrue(a.cancel(false));
        assertCounts(timer, 1, 2, 0, 1, 1);
        clock.advance(1, MILLISECONDS);
        OwnerLoop.of(timer).step();
        assertCounts(timer, 0, 2, 1, 1, 1);
    }
}

package dev.tickwheel;

import static dev.tickwheel.FaultThreads.awaitBlocked;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link TimerFuture#cancelAndAwait()}: after it returns the task is not running and never runs again. The race
 * of the wait against a run that is starting is the jcstress test CancelAndAwaitVsRunStart; these are the rules,
 * each with a task held at a latch so that "running" is a fact, not a timing.
 */
class CancelAndAwaitTest {

    /** A one-shot that is running when this returns, until {@code release} opens. */
    private static TimerFuture<?> runningUntil(WheelTimer timer, CountDownLatch release) throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        TimerFuture<?> f = timer.schedule(() -> {
            entered.countDown();
            release.await();
            return null;
        }, 0, MILLISECONDS);
        assertTrue(entered.await(30, SECONDS));
        return f;
    }

    @Test
    void aPendingTimerIsCancelledAndNeverRuns() throws Exception {
        try (WheelTimer timer = WheelTimer.create()) {
            AtomicInteger runs = new AtomicInteger();
            TimerFuture<?> f = timer.schedule(runs::incrementAndGet, 1, HOURS);
            assertTrue(f.cancelAndAwait(), "it had not started: the strict answer is true");
            assertTrue(f.isCancelled());
            assertFalse(f.cancelAndAwait(), "already cancelled");
            assertEquals(0, runs.get());
        }
    }

    @Test
    void aRunningOneShotIsWaitedForUntilItReturns() throws Exception {
        try (WheelTimer timer = WheelTimer.create()) {
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean returned = new AtomicBoolean();
            TimerFuture<?> f = timer.schedule(() -> {
                entered.countDown();
                release.await();
                returned.set(true);
                return "done";
            }, 0, MILLISECONDS);
            assertTrue(entered.await(30, SECONDS));
            AtomicReference<Object> answer = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    answer.set(f.cancelAndAwait());
                    answer.set(answer.get() + (returned.get() ? ", task had returned" : ", TASK STILL RUNNING"));
                } catch (InterruptedException e) {
                    answer.set(e);
                }
            });
            waiter.start();
            awaitBlocked(waiter);
            assertTrue(waiter.isAlive(), "cancelAndAwait waits while the task runs");
            assertTrue(f.isCancelled(), "cancelled at once: the outcome will be dropped");
            release.countDown();
            waiter.join(SECONDS.toMillis(30));
            assertEquals("false, task had returned", answer.get());
        }
    }

    @Test
    void aRunningPeriodicIsWaitedForAndRunsNoMore() throws Exception {
        try (WheelTimer timer = WheelTimer.create()) {
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger runs = new AtomicInteger();
            AtomicInteger running = new AtomicInteger();
            TimerFuture<?> f = timer.scheduleAtFixedRate(() -> {
                running.incrementAndGet();
                runs.incrementAndGet();
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                running.decrementAndGet();
            }, 0, 1, MILLISECONDS);
            assertTrue(entered.await(30, SECONDS));
            Thread waiter = new Thread(() -> {
                try {
                    f.cancelAndAwait();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            waiter.start();
            awaitBlocked(waiter);
            release.countDown();
            waiter.join(SECONDS.toMillis(30));
            assertFalse(waiter.isAlive());
            assertEquals(0, running.get(), "not running when cancelAndAwait returned");
            int after = runs.get();
            // No sleep stands in for a latch: schedule a marker after the period and wait for it; had the periodic
            // timer a next run, it would have been due long before the marker.
            timer.schedule(() -> { }, 20, MILLISECONDS).get(30, SECONDS);
            assertEquals(after, runs.get(), "no run after cancelAndAwait returned");
            assertEquals(1, after);
        }
    }

    @Test
    void fromInsideItsOwnTaskItCancelsAndReturnsWithoutWaiting() throws Exception {
        try (WheelTimer timer = WheelTimer.create()) {
            AtomicReference<TimerFuture<?>> self = new AtomicReference<>();
            CountDownLatch scheduled = new CountDownLatch(1);
            CountDownLatch answered = new CountDownLatch(1);
            AtomicReference<Object> answer = new AtomicReference<>();
            AtomicInteger runs = new AtomicInteger();
            self.set(timer.scheduleWithFixedDelay(() -> {
                runs.incrementAndGet();
                try {
                    scheduled.await();
                    answer.set(self.get().cancelAndAwait());
                } catch (InterruptedException e) {
                    answer.set(e);
                }
                answered.countDown();
            }, 0, 1, MILLISECONDS));
            scheduled.countDown();
            assertTrue(answered.await(30, SECONDS), "no deadlock: it returned inside the task");
            assertEquals(false, answer.get());
            timer.schedule(() -> { }, 20, MILLISECONDS).get(30, SECONDS);
            assertEquals(1, runs.get(), "the periodic timer ran no more");
            assertTrue(self.get().isCancelled());
        }
    }

    @Test
    void theTimedWaitThrowsTimeoutExceptionWhileTheTaskRunsAndTheTimerStaysCancelled() throws Exception {
        try (WheelTimer timer = WheelTimer.create()) {
            CountDownLatch release = new CountDownLatch(1);
            TimerFuture<?> f = runningUntil(timer, release);
            TimeoutException e = assertThrows(TimeoutException.class, () -> f.cancelAndAwait(20, MILLISECONDS));
            assertTrue(e.getMessage().contains("still running"), e.getMessage());
            assertTrue(f.isCancelled());
            release.countDown();
            assertFalse(f.cancelAndAwait(30, SECONDS), "now it returns once the task has");
        }
    }

    @Test
    void anInterruptedWaitThrowsAndTheTimerStaysCancelled() throws Exception {
        try (WheelTimer timer = WheelTimer.create()) {
            CountDownLatch release = new CountDownLatch(1);
            TimerFuture<?> f = runningUntil(timer, release);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    f.cancelAndAwait();
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            waiter.start();
            awaitBlocked(waiter);
            waiter.interrupt();
            waiter.join(SECONDS.toMillis(30));
            assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
            assertTrue(f.isCancelled());
            release.countDown();
        }
    }

    @Test
    void aCompletedTimerReturnsFalseAtOnce() throws Exception {
        try (WheelTimer timer = WheelTimer.create()) {
            TimerFuture<String> f = timer.schedule(() -> "x", 0, MILLISECONDS);
            assertEquals("x", f.get(30, SECONDS));
            assertFalse(f.cancelAndAwait());
            assertFalse(f.cancelAndAwait(0, MILLISECONDS));
            assertEquals("x", f.get(), "a completed outcome is kept");
        }
    }
}

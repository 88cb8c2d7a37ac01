package dev.tickwheel.netty;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of Netty's {@link Timer} as users of {@code HashedWheelTimer} see it, written once and run against
 * Netty's {@code HashedWheelTimer} ({@link HashedWheelTimerContractTest}), which keeps the suite honest about what
 * the contract is, and against {@link NettyWheelTimer} ({@link NettyWheelTimerContractTest}), which also holds the
 * cases where it documents a difference. If a case fails against {@code HashedWheelTimer}, the case is wrong.
 *
 * <p>Synchronisation is by latches and futures. Waits for something that must happen are bounded by
 * {@link #LONG_WAIT_SECONDS} so that a broken timer fails instead of hanging. That something does NOT happen is
 * checked after a later timeout has run (a sentinel), which can only miss a bug, never report a false one. The only
 * timing assertions are "never early".
 */
abstract class NettyTimerContractTest {

    /** Bound on waits for something that must happen: a hang guard, not a timing bound. */
    static final long LONG_WAIT_SECONDS = 30;

    /** The timer under test, made fresh for every test and stopped after it. */
    Timer timer;

    /** @return a new timer with its implementation's defaults, but a tick of at most 10 ms (so tests stay short) */
    abstract Timer newTimer();

    /** @return a new timer that rejects a newTimeout beyond {@code max} pending timeouts */
    abstract Timer newTimerWithMaxPending(long max);

    /** @return the timer's count of pending timeouts (both implementations have {@code pendingTimeouts()}) */
    abstract long pendingTimeouts(Timer t);

    @BeforeEach
    void createTimer() {
        timer = newTimer();
    }

    @AfterEach
    void stopTimer() {
        timer.stop(); // a second stop returns an empty set: tests that stopped it already are fine
    }

    /** A task that counts its runs and records the timeout it was given; its future completes at the first run. */
    static final class Recorder implements TimerTask {
        final AtomicInteger runs = new AtomicInteger();
        final CompletableFuture<Timeout> ran = new CompletableFuture<>();
        volatile long ranAtNanos;
        volatile Thread thread;
        volatile boolean expiredInside;
        volatile boolean cancelledInside;
        volatile boolean cancelInside;

        @Override
        public void run(Timeout timeout) {
            ranAtNanos = System.nanoTime();
            thread = Thread.currentThread();
            expiredInside = timeout.isExpired();
            cancelledInside = timeout.isCancelled();
            cancelInside = timeout.cancel();
            runs.incrementAndGet();
            ran.complete(timeout);
        }

        Timeout awaitRun() throws Exception {
            return ran.get(LONG_WAIT_SECONDS, SECONDS);
        }
    }

    /** Schedules a sentinel {@code millis} out and waits for it: whatever was due before it has had its turn. */
    void awaitSentinel(long millis) throws Exception {
        Recorder sentinel = new Recorder();
        timer.newTimeout(sentinel, millis, MILLISECONDS);
        sentinel.awaitRun();
    }

    /** Polls a condition that the timer makes true eventually (a count it updates), with the hang guard. */
    static void eventually(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + SECONDS.toNanos(LONG_WAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "never: " + what);
            LockSupport.parkNanos(MILLISECONDS.toNanos(1));
        }
    }

    // ==========================================================================================================
    // Expiry

    @Test
    void runsTheTaskOnceNeverEarlyAndHandsItItsOwnTimeout() throws Exception {
        Recorder task = new Recorder();
        long before = System.nanoTime();
        Timeout t = timer.newTimeout(task, 30, MILLISECONDS);
        assertSame(timer, t.timer());
        assertSame(task, t.task());
        assertSame(t, task.awaitRun(), "the task was handed another Timeout");
        assertTrue(task.ranAtNanos - before >= MILLISECONDS.toNanos(30),
                "ran " + (task.ranAtNanos - before) + " ns after newTimeout, before its 30 ms delay");
        awaitSentinel(20);
        assertEquals(1, task.runs.get());
        assertTrue(t.isExpired());
        assertFalse(t.isCancelled());
        assertFalse(t.cancel(), "cancel() after expiry returned true");
        assertFalse(t.isCancelled());
        assertSame(task, t.task(), "task() changed after expiry");
    }

    @Test
    void insideItsTaskATimeoutIsExpiredAndCannotBeCancelled() throws Exception {
        Recorder task = new Recorder();
        timer.newTimeout(task, 1, MILLISECONDS);
        task.awaitRun();
        assertTrue(task.expiredInside, "isExpired() false inside the task");
        assertFalse(task.cancelledInside);
        assertFalse(task.cancelInside, "cancel() from inside the running task returned true");
    }

    @Test
    void tasksRunOnANonDaemonThreadOfTheTimer() throws Exception {
        Recorder task = new Recorder();
        timer.newTimeout(task, 0, MILLISECONDS);
        task.awaitRun();
        assertNotSame(Thread.currentThread(), task.thread);
        assertFalse(task.thread.isDaemon(), "the default threads are daemon threads: " + task.thread);
    }

    @Test
    void zeroAndNegativeDelaysRunSoon() throws Exception {
        Recorder zero = new Recorder();
        Recorder negative = new Recorder();
        Recorder mostNegative = new Recorder();
        timer.newTimeout(zero, 0, SECONDS);
        timer.newTimeout(negative, -5, SECONDS);
        timer.newTimeout(mostNegative, Long.MIN_VALUE, NANOSECONDS);
        zero.awaitRun();
        negative.awaitRun();
        mostNegative.awaitRun();
    }

    @Test
    void aTaskThatThrowsDoesNotStopTheTimer() throws Exception {
        CountDownLatch thrown = new CountDownLatch(2);
        timer.newTimeout(t -> {
            thrown.countDown();
            throw new IllegalStateException("a task failure the timer must survive (expected in the log)");
        }, 1, MILLISECONDS);
        timer.newTimeout(t -> {
            thrown.countDown();
            throw new AssertionError("an Error the timer must survive (expected in the log)");
        }, 1, MILLISECONDS);
        assertTrue(thrown.await(LONG_WAIT_SECONDS, SECONDS));
        Recorder after = new Recorder();
        timer.newTimeout(after, 5, MILLISECONDS);
        after.awaitRun();
    }

    @Test
    void theLongestDelaysAreAcceptedAndStayPending() throws Exception {
        List<Timeout> far = new ArrayList<>();
        Recorder task = new Recorder();
        for (TimeUnit unit : new TimeUnit[] {NANOSECONDS, MILLISECONDS, DAYS}) {
            far.add(timer.newTimeout(task, Long.MAX_VALUE, unit));
        }
        awaitSentinel(20);
        for (Timeout t : far) {
            assertFalse(t.isExpired(), t::toString);
            assertFalse(t.isCancelled(), t::toString);
        }
        eventually("three pending timeouts (the sentinel's run may still be ending)", () -> pendingTimeouts(timer) == 3);
        for (Timeout t : far) {
            assertTrue(t.cancel(), t::toString);
        }
        assertEquals(0, task.runs.get());
    }

    @Test
    void nullTaskOrUnitIsANullPointerException() {
        assertThrows(NullPointerException.class, () -> timer.newTimeout(null, 1, SECONDS));
        assertThrows(NullPointerException.class, () -> timer.newTimeout(new Recorder(), 1, null));
    }

    // ==========================================================================================================
    // Cancel

    @Test
    void cancelBeforeExpiryWinsOnceAndTheTaskNeverRuns() throws Exception {
        Recorder task = new Recorder();
        Timeout t = timer.newTimeout(task, 20, MILLISECONDS);
        assertTrue(t.cancel());
        assertTrue(t.isCancelled());
        assertFalse(t.isExpired());
        assertFalse(t.cancel(), "a second cancel() also returned true");
        assertSame(task, t.task(), "task() changed after cancel");
        awaitSentinel(60);
        assertEquals(0, task.runs.get(), "a cancelled timeout ran");
        assertFalse(t.isExpired());
    }

    @Test
    void cancelOfARunningTaskReturnsFalseAndTheTaskRunsToItsEnd() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Boolean> finished = new CompletableFuture<>();
        Timeout t = timer.newTimeout(x -> {
            started.countDown();
            try {
                finished.complete(release.await(LONG_WAIT_SECONDS, SECONDS));
            } catch (InterruptedException e) {
                finished.completeExceptionally(e);
            }
        }, 1, MILLISECONDS);
        assertTrue(started.await(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(t.isExpired());
        assertFalse(t.cancel(), "cancel() of a running task returned true");
        assertFalse(t.isCancelled());
        release.countDown();
        assertTrue(finished.get(LONG_WAIT_SECONDS, SECONDS), "the running task did not run to its end");
        assertFalse(t.isCancelled());
    }

    @Test
    void exactlyOneOfCancelAndExpiryWinsForEveryTimeout() throws Exception {
        int n = 2_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        Semaphore ran = new Semaphore(0);
        List<Timeout> timeouts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int id = i;
            timeouts.add(timer.newTimeout(t -> {
                runs.incrementAndGet(id);
                ran.release();
            }, i % 3, MILLISECONDS));
        }
        boolean[] cancelled = new boolean[n];
        int notCancelled = 0;
        for (int i = 0; i < n; i++) {
            cancelled[i] = timeouts.get(i).cancel();
            notCancelled += cancelled[i] ? 0 : 1;
        }
        assertTrue(ran.tryAcquire(notCancelled, LONG_WAIT_SECONDS, SECONDS), "timeouts that were not cancelled"
                + " never ran: " + ran.availablePermits() + " of " + notCancelled);
        awaitSentinel(10);
        for (int i = 0; i < n; i++) {
            Timeout t = timeouts.get(i);
            assertEquals(cancelled[i] ? 0 : 1, runs.get(i), "timeout " + i + ", cancel() returned " + cancelled[i]);
            assertEquals(cancelled[i], t.isCancelled(), "timeout " + i);
            assertEquals(!cancelled[i], t.isExpired(), "timeout " + i);
        }
    }

    // ==========================================================================================================
    // Stop

    @Test
    void stopReturnsTheUnprocessedTimeoutsCancelledAndOnlyOnce() throws Exception {
        Recorder task = new Recorder();
        Timeout hour = timer.newTimeout(task, 1, HOURS);
        Timeout forever = timer.newTimeout(task, Long.MAX_VALUE, DAYS);
        Timeout cancelled = timer.newTimeout(task, 1, HOURS);
        assertTrue(cancelled.cancel());
        Recorder done = new Recorder();
        Timeout expired = timer.newTimeout(done, 1, MILLISECONDS);
        done.awaitRun();

        Set<Timeout> unprocessed = timer.stop();

        assertEquals(Set.of(hour, forever), unprocessed);
        for (Timeout t : unprocessed) {
            assertTrue(t.isCancelled(), "a timeout stop() returned is not cancelled: " + t);
            assertFalse(t.isExpired());
            assertFalse(t.cancel(), "stop() returned a timeout that a later cancel() could still cancel");
            assertSame(task, t.task());
        }
        assertTrue(expired.isExpired());
        assertTrue(timer.stop().isEmpty(), "a second stop() returned timeouts again");
        assertEquals(0, task.runs.get());
    }

    @Test
    void stopInterruptsARunningTaskAndReturnsAfterItHasEnded() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<String> end = new AtomicReference<>();
        timer.newTimeout(t -> {
            started.countDown();
            try {
                new CountDownLatch(1).await(LONG_WAIT_SECONDS, SECONDS);
                end.set("not interrupted");
            } catch (InterruptedException e) {
                end.set("interrupted");
            }
        }, 0, MILLISECONDS);
        assertTrue(started.await(LONG_WAIT_SECONDS, SECONDS));
        timer.stop();
        assertEquals("interrupted", end.get(), "stop() returned before the running task ended, or did not"
                + " interrupt it");
        assertFalse(Thread.currentThread().isInterrupted(), "stop() left the caller interrupted");
    }

    @Test
    void stopFromATaskThrowsIllegalStateExceptionAndTheTimerRunsOn() throws Exception {
        CompletableFuture<Throwable> fromTask = new CompletableFuture<>();
        timer.newTimeout(t -> {
            try {
                t.timer().stop();
                fromTask.complete(null);
            } catch (Throwable e) {
                fromTask.complete(e);
            }
        }, 1, MILLISECONDS);
        Throwable e = fromTask.get(LONG_WAIT_SECONDS, SECONDS);
        assertTrue(e instanceof IllegalStateException, "stop() from a task: " + e);
        Recorder after = new Recorder();
        timer.newTimeout(after, 1, MILLISECONDS);
        after.awaitRun();
    }

    @Test
    void newTimeoutAfterStopThrowsIllegalStateExceptionAndNeverRuns() throws Exception {
        timer.newTimeout(new Recorder(), 1, HOURS);
        timer.stop();
        Recorder late = new Recorder();
        assertThrows(IllegalStateException.class, () -> timer.newTimeout(late, 0, MILLISECONDS));
        assertEquals(0, late.runs.get());
    }

    @Test
    void anUnusedTimerStopsWithNothingAndThenRejectsTimeouts() {
        assertTrue(timer.stop().isEmpty());
        assertThrows(IllegalStateException.class, () -> timer.newTimeout(new Recorder(), 1, SECONDS));
    }

    // ==========================================================================================================
    // maxPendingTimeouts

    @Test
    void maxPendingTimeoutsRejectsBeyondTheLimitAndACancelFreesAPlace() throws Exception {
        Timer limited = newTimerWithMaxPending(2);
        try {
            Recorder task = new Recorder();
            Timeout first = limited.newTimeout(task, 1, HOURS);
            limited.newTimeout(task, 1, HOURS);
            assertEquals(2, pendingTimeouts(limited));
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                    () -> limited.newTimeout(task, 1, HOURS));
            assertTrue(e.getMessage().contains("(2)") || e.getMessage().contains(" 2 "),
                    "the rejection does not name the limit: " + e.getMessage());
            assertTrue(first.cancel());
            eventually("the cancelled timeout leaves the pending count", () -> pendingTimeouts(limited) == 1);
            limited.newTimeout(task, 1, HOURS);
            assertEquals(0, task.runs.get());
        } finally {
            limited.stop();
        }
    }

    @Test
    void pendingTimeoutsCountsTimeoutsUntilTheyExpireOrAreCancelled() throws Exception {
        Recorder task = new Recorder();
        Timeout a = timer.newTimeout(task, 1, HOURS);
        timer.newTimeout(task, 1, HOURS);
        Recorder soon = new Recorder();
        timer.newTimeout(soon, 1, MILLISECONDS);
        soon.awaitRun();
        eventually("the expired timeout leaves the pending count", () -> pendingTimeouts(timer) == 2);
        assertTrue(a.cancel());
        eventually("the cancelled timeout leaves the pending count", () -> pendingTimeouts(timer) == 1);
    }
}

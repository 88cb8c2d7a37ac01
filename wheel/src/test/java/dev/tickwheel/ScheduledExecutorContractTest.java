package dev.tickwheel;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@link ScheduledExecutorService} contract that {@link WheelTimer} promises, written once and run against
 * every implementation by a subclass each (as JCTools runs its {@code QueueSanityTest} against every queue): the
 * JDK's {@link java.util.concurrent.ScheduledThreadPoolExecutor} ({@link StpeContractTest}), which keeps this suite
 * honest about what the contract is, and {@link WheelTimer} ({@link WheelTimerContractTest}). The aim is a drop-in:
 * a user who swaps {@code Executors.newScheduledThreadPool} for {@code WheelTimer.create()} must not be able to
 * tell, so the suite pins down the JDK's behaviour where users can see it: FutureTask's cancel contract for every
 * one-shot, interrupts that never leak into a later task, shutdown() ending periodic tasks before it returns,
 * non-daemon task threads. What WheelTimer has in addition (its builder, its metrics, shutdownNow's hand-back)
 * lives in the WheelTimer subclass.
 *
 * <p>Synchronisation is by latches and futures only. Waits for something that must happen are bounded by
 * {@link #LONG_WAIT_SECONDS} so that a broken implementation fails instead of hanging. A check that something
 * does NOT happen uses a short bounded wait ({@link #ABSENCE_MILLIS}); it can only miss a bug, never report a false
 * one. The only waits on the clock create lateness on purpose (a run that outlasts several periods); they stand in
 * for no latch.
 */
abstract class ScheduledExecutorContractTest {

    /** Bound on waits for something that must happen: generous, only there so that a bug fails instead of hangs. */
    static final long LONG_WAIT_SECONDS = 30;

    /** Short bounded wait when asserting that something does NOT happen (cannot cause a false failure). */
    static final long ABSENCE_MILLIS = 50;

    /** The executor under test, made fresh for every test. */
    ScheduledExecutorService executor;

    /** @return a new, running executor with at least two worker threads */
    abstract ScheduledExecutorService newExecutor();

    /**
     * @return exactly how many threads run the tasks of {@link #newExecutor()}'s executors: the tests that block
     *         every worker ({@link #blockEveryWorker}) or make every worker prove itself ({@link #onEveryWorker})
     *         rely on it
     */
    abstract int workerThreads();

    /** @return a new, running executor with exactly {@code workers} threads that run tasks */
    abstract ScheduledExecutorService newExecutor(int workers);

    /**
     * @return how much later than the exact remaining delay {@link ScheduledFuture#getDelay} may report (WheelTimer
     *         reports its deadline rounded up to the tick; the JDK reports it exactly)
     */
    abstract long delayRoundingNanos();

    @BeforeEach
    void createExecutor() {
        executor = newExecutor();
    }

    @AfterEach
    void shutDownExecutor() throws InterruptedException {
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS), "the executor did not terminate");
    }

    // ==========================================================================================================
    // One-shot tasks

    @Test
    void scheduledRunnableRunsOnceNeverEarlyAndCompletesWithNull() throws Exception {
        long delay = MILLISECONDS.toNanos(20);
        AtomicInteger runs = new AtomicInteger();
        AtomicLongArray ranAt = new AtomicLongArray(1);
        long before = System.nanoTime();
        ScheduledFuture<?> f = executor.schedule(() -> {
            ranAt.set(0, System.nanoTime());
            runs.incrementAndGet();
        }, delay, NANOSECONDS);

        assertNull(f.get(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(ranAt.get(0) - before >= delay,
                () -> "ran " + (ranAt.get(0) - before) + " ns after schedule, before its delay of " + delay + " ns");
        assertEquals(1, runs.get());
        assertTrue(f.isDone());
        assertFalse(f.isCancelled());
    }

    @Test
    void scheduledCallableReturnsItsResultNeverEarly() throws Exception {
        long delay = MILLISECONDS.toNanos(20);
        AtomicLongArray ranAt = new AtomicLongArray(1);
        long before = System.nanoTime();
        ScheduledFuture<String> f = executor.schedule(() -> {
            ranAt.set(0, System.nanoTime());
            return "result";
        }, 20, MILLISECONDS);

        assertEquals("result", f.get(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(ranAt.get(0) - before >= delay,
                () -> "ran " + (ranAt.get(0) - before) + " ns after schedule, before its delay of " + delay + " ns");
        assertTrue(f.isDone());
        assertFalse(f.isCancelled());
    }

    @Test
    void zeroAndNegativeDelaysMeanNow() throws Exception {
        CountDownLatch ran = new CountDownLatch(5);
        executor.schedule(ran::countDown, 0, SECONDS);
        executor.schedule(ran::countDown, -1, NANOSECONDS);
        executor.schedule(ran::countDown, -5, HOURS);
        executor.schedule(ran::countDown, Long.MIN_VALUE, TimeUnit.DAYS);
        ScheduledFuture<String> c = executor.schedule(() -> {
            ran.countDown();
            return "now";
        }, Long.MIN_VALUE, NANOSECONDS);

        await(ran, "tasks with a delay of zero or less");
        assertEquals("now", c.get(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(c.getDelay(NANOSECONDS) <= 0);
    }

    /**
     * execute runs the task at once: it is due when execute is called, so it runs ahead of a timer scheduled just
     * before it that falls due later, even when both wait for a worker. Every worker is blocked until both are due;
     * then one worker goes free and must take the executed task first. Only the order is asserted, no time bound.
     * Should the test thread stall between the two calls until the timer is due (then there is no order to check),
     * the pair is tried again.
     */
    @Test
    void executeRunsTheTaskAtOnceAheadOfATimerDueLater() {
        List<CountDownLatch> releases = new ArrayList<>();
        for (int i = 0; i < workerThreads(); i++) {
            releases.add(new CountDownLatch(1));
        }
        try {
            blockEveryWorker(releases);
            AtomicInteger order = new AtomicInteger();
            long giveUp = System.nanoTime() + SECONDS.toNanos(LONG_WAIT_SECONDS);
            for (int attempt = 1; ; attempt++) {
                AtomicInteger executedRanAs = new AtomicInteger(-1);
                AtomicInteger timerRanAs = new AtomicInteger(-1);
                CountDownLatch bothRan = new CountDownLatch(2);
                ScheduledFuture<?> timer = executor.schedule(() -> {
                    timerRanAs.set(order.getAndIncrement());
                    bothRan.countDown();
                }, 20, MILLISECONDS);
                executor.execute(() -> {
                    executedRanAs.set(order.getAndIncrement());
                    bothRan.countDown();
                });
                long timerDueIn = timer.getDelay(NANOSECONDS);
                if (timerDueIn > 0) { // the timer falls due after execute was called
                    // Lateness on purpose: until both are due, and 5 ms more for an executor whose own thread hands
                    // due timers to the workers' queue (if it is later still, the order holds all the more).
                    waitForClock(System.nanoTime() + timerDueIn + MILLISECONDS.toNanos(5));
                    releases.get(0).countDown();

                    await(bothRan, "the executed task and the timer, on the one free worker");
                    assertTrue(executedRanAs.get() < timerRanAs.get(), "the task given to execute ran after a timer"
                            + " that fell due later (execute did not make it due at once); attempt " + attempt);
                    return;
                }
                assertTrue(System.nanoTime() - giveUp < 0, "the test thread stalled 20 ms between two calls in every"
                        + " one of " + attempt + " attempts");
            }
        } finally {
            releases.forEach(CountDownLatch::countDown);
        }
    }

    @Test
    void submitRunsRunnablesAndCallablesAtOnceWithTheirResults() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        Future<?> plain = executor.submit((Runnable) ran::countDown);
        Future<String> withResult = executor.submit(() -> { }, "given");
        Future<Integer> callable = executor.submit(() -> 42);

        await(ran, "submit(Runnable)");
        assertNull(plain.get(LONG_WAIT_SECONDS, SECONDS));
        assertEquals("given", withResult.get(LONG_WAIT_SECONDS, SECONDS));
        assertEquals(42, callable.get(LONG_WAIT_SECONDS, SECONDS));
    }

    @Test
    void invokeAllRunsEveryTaskAndReturnsTheirFuturesInOrder() throws Exception {
        List<Callable<Integer>> tasks = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            int value = i;
            tasks.add(() -> value * value);
        }
        IllegalStateException boom = new IllegalStateException("boom");
        tasks.add(() -> {
            throw boom;
        });

        List<Future<Integer>> futures = executor.invokeAll(tasks);

        assertEquals(tasks.size(), futures.size());
        for (int i = 0; i < 10; i++) {
            assertTrue(futures.get(i).isDone());
            assertEquals(i * i, futures.get(i).get());
        }
        ExecutionException e = assertThrows(ExecutionException.class, () -> futures.get(10).get());
        assertSame(boom, e.getCause());
    }

    /**
     * invokeAll with a timeout cancels, with interrupt, the tasks not done in time: a task blocked at the timeout
     * sees the interrupt. The timeout is on the real clock, so on a machine too slow to start the blocked task
     * within it the task is cancelled before it starts (correct, but no interrupt to see): then the case is tried
     * again with twice the timeout, so that no machine is too slow for it.
     */
    @Test
    void invokeAllWithTimeoutCancelsTheTasksNotDoneInTimeAndInterruptsThem() throws Exception {
        long giveUp = System.nanoTime() + SECONDS.toNanos(LONG_WAIT_SECONDS);
        for (long timeoutMillis = ABSENCE_MILLIS; ; timeoutMillis *= 2) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            List<Callable<String>> tasks = List.of(() -> "quick", () -> {
                started.countDown();
                try {
                    never.await(LONG_WAIT_SECONDS, SECONDS);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                    throw e;
                }
                return "blocked, and never interrupted";
            });

            // The bound is what is under test: the blocked task cannot finish within it.
            List<Future<String>> futures = executor.invokeAll(tasks, timeoutMillis, MILLISECONDS);

            assertEquals("quick", futures.get(0).get());
            assertTrue(futures.get(1).isCancelled());
            assertTrue(futures.get(1).isDone());
            assertThrows(CancellationException.class, () -> futures.get(1).get());
            if (started.getCount() == 0) { // it started before the cancel, so the cancel interrupted it
                await(interrupted, "the interrupt of the task blocked at invokeAll's timeout");
                return;
            }
            assertTrue(System.nanoTime() - giveUp < 0, "the blocked task never started within invokeAll's timeout,"
                    + " the last time " + timeoutMillis + " ms");
        }
    }

    @Test
    void invokeAnyReturnsTheResultOfATaskThatSucceeded() throws Exception {
        List<Callable<String>> tasks = List.of(() -> {
            throw new IllegalStateException("first fails");
        }, () -> "second succeeds");

        assertEquals("second succeeds", executor.invokeAny(tasks));
    }

    /**
     * invokeAny cancels, with interrupt, the tasks still running when one has succeeded. The task that succeeds
     * waits until the other has started, so the other is certainly running when invokeAny returns.
     */
    @Test
    void invokeAnyCancelsTheTasksStillRunningAndInterruptsThem() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        List<Callable<String>> tasks = List.of(() -> {
            await(started, "the other task");
            return "succeeded";
        }, () -> {
            started.countDown();
            try {
                never.await(LONG_WAIT_SECONDS, SECONDS);
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return "blocked, and never interrupted";
        });

        assertEquals("succeeded", executor.invokeAny(tasks));

        await(interrupted, "the interrupt of the task still running when invokeAny returned");
    }

    @Test
    void invokeAnyThrowsExecutionExceptionWhenEveryTaskFails() {
        IllegalStateException boom = new IllegalStateException("boom");
        List<Callable<String>> tasks = List.of(() -> {
            throw boom;
        }, () -> {
            throw boom;
        });

        ExecutionException e = assertThrows(ExecutionException.class, () -> executor.invokeAny(tasks));
        assertSame(boom, e.getCause());
    }

    // ==========================================================================================================
    // Periodic tasks

    @Test
    void scheduleAtFixedRateRunsRepeatedlyNeverEarlyUntilCancelled() throws Exception {
        long initial = MILLISECONDS.toNanos(10);
        long period = MILLISECONDS.toNanos(5);
        int wanted = 5;
        AtomicLongArray startedAt = new AtomicLongArray(wanted);
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch enough = new CountDownLatch(wanted);
        long before = System.nanoTime();
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            int i = runs.getAndIncrement();
            if (i < wanted) {
                startedAt.set(i, System.nanoTime());
            }
            enough.countDown();
        }, initial, period, NANOSECONDS);

        await(enough, "fixed-rate runs");
        assertTrue(f.cancel(false));

        for (int i = 0; i < wanted; i++) {
            long at = startedAt.get(i) - before;
            long due = initial + i * period;
            assertTrue(at >= due, "run " + i + " started " + at + " ns after schedule, before its time " + due);
        }
        assertTrue(f.isCancelled());
        assertTrue(f.isDone());
        assertThrows(CancellationException.class, () -> f.get(LONG_WAIT_SECONDS, SECONDS));
    }

    /**
     * The first run blocks for more than {@code overdue} periods, so that many runs are overdue when it returns.
     * Fixed rate means they then follow back to back, not a period apart, and never overlap. Asserted by count (how
     * many of the gaps between the overdue runs are far shorter than a period) rather than by a time limit: an
     * implementation without catch-up has no such gap at all, since it never starts a run early; a stalled thread
     * only turns one gap long.
     */
    @Test
    void scheduleAtFixedRateCatchesUpAfterALateRunWithoutOverlap() throws Exception {
        long period = MILLISECONDS.toNanos(50);
        int overdue = 8;
        int recorded = overdue + 2;
        AtomicLongArray startedAt = new AtomicLongArray(recorded);
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicBoolean overlapped = new AtomicBoolean();
        CountDownLatch firstRunStarted = new CountDownLatch(1);
        CountDownLatch releaseFirstRun = new CountDownLatch(1);
        CountDownLatch enough = new CountDownLatch(recorded);
        long before = System.nanoTime();
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            if (inFlight.incrementAndGet() != 1) {
                overlapped.set(true);
            }
            int i = runs.getAndIncrement();
            if (i < recorded) {
                startedAt.set(i, System.nanoTime());
            }
            if (i == 0) {
                firstRunStarted.countDown();
                awaitUninterruptibly(releaseFirstRun);
            }
            inFlight.decrementAndGet();
            enough.countDown();
        }, 0, period, NANOSECONDS);

        await(firstRunStarted, "the first run");
        // Lateness on purpose: hold the first run until `overdue` more runs are due (waits on the clock, which is
        // the condition under test, not on another thread).
        waitForClock(before + overdue * period + period / 2);
        releaseFirstRun.countDown();
        await(enough, "the catch-up runs");
        assertTrue(f.cancel(false));

        assertFalse(overlapped.get(), "two runs of one fixed-rate task overlapped");
        for (int i = 0; i < recorded; i++) {
            long at = startedAt.get(i) - before;
            assertTrue(at >= i * period, "run " + i + " started " + at + " ns after schedule, before its time");
        }
        int backToBack = 0;
        StringBuilder gaps = new StringBuilder();
        for (int i = 2; i <= overdue; i++) {
            long gap = startedAt.get(i) - startedAt.get(i - 1);
            gaps.append(gap / 1_000).append("us ");
            if (gap < period / 2) {
                backToBack++;
            }
        }
        int expected = overdue - 3; // tolerates two stalled threads
        assertTrue(backToBack >= expected, "only " + backToBack + " of the " + (overdue - 1)
                + " gaps between overdue runs were short (catch-up), expected at least " + expected + ": " + gaps);
    }

    @Test
    void scheduleWithFixedDelayWaitsTheDelayAfterEachRunEnds() throws Exception {
        long delay = MILLISECONDS.toNanos(5);
        int wanted = 4;
        AtomicLongArray startedAt = new AtomicLongArray(wanted);
        AtomicLongArray endedAt = new AtomicLongArray(wanted);
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicBoolean overlapped = new AtomicBoolean();
        CountDownLatch enough = new CountDownLatch(wanted);
        long before = System.nanoTime();
        ScheduledFuture<?> f = executor.scheduleWithFixedDelay(() -> {
            if (inFlight.incrementAndGet() != 1) {
                overlapped.set(true);
            }
            int i = runs.getAndIncrement();
            if (i < wanted) {
                startedAt.set(i, System.nanoTime());
                endedAt.set(i, System.nanoTime());
            }
            inFlight.decrementAndGet();
            enough.countDown();
        }, 1, delay, NANOSECONDS);

        await(enough, "fixed-delay runs");
        assertTrue(f.cancel(false));

        assertFalse(overlapped.get(), "two runs of one fixed-delay task overlapped");
        assertTrue(startedAt.get(0) - before >= 1);
        for (int i = 1; i < wanted; i++) {
            long gap = startedAt.get(i) - endedAt.get(i - 1);
            assertTrue(gap >= delay, "run " + i + " started " + gap + " ns after run " + (i - 1)
                    + " ended, before the delay of " + delay + " ns");
        }
    }

    @Test
    void periodicTaskWithNonPositiveInitialDelayStartsAtOnce() {
        CountDownLatch ran = new CountDownLatch(2);
        ScheduledFuture<?> rate = executor.scheduleAtFixedRate(ran::countDown, -1, 1, HOURS);
        ScheduledFuture<?> delay = executor.scheduleWithFixedDelay(ran::countDown, 0, 1, HOURS);

        await(ran, "periodic tasks with an initial delay of zero or less");
        assertTrue(rate.cancel(false));
        assertTrue(delay.cancel(false));
    }

    // ==========================================================================================================
    // The future: delay, order, get, state

    @Test
    void getDelayIsPositiveAndDecreasesWithTheClockBeforeDue() {
        long hour = HOURS.toNanos(1);
        long before = System.nanoTime();
        ScheduledFuture<?> f = executor.schedule(() -> { }, 1, HOURS);
        long d1 = f.getDelay(NANOSECONDS);
        long afterFirst = System.nanoTime();

        assertTrue(d1 > 0);
        assertTrue(d1 <= hour + delayRoundingNanos(), "getDelay " + d1 + " exceeds the delay of one hour");
        assertTrue(d1 >= hour - (afterFirst - before), "getDelay " + d1 + " is less than the time left");
        assertTrue(f.getDelay(SECONDS) <= 3600 && f.getDelay(SECONDS) >= 3599);

        waitForClock(afterFirst + MILLISECONDS.toNanos(2)); // let the clock move, so the delay must shrink
        long beforeSecond = System.nanoTime();
        long d2 = f.getDelay(NANOSECONDS);

        assertTrue(d2 > 0);
        assertTrue(d1 - d2 >= beforeSecond - afterFirst,
                "getDelay went from " + d1 + " to " + d2 + " while the clock moved " + (beforeSecond - afterFirst));
        assertFalse(f.isDone());
    }

    @Test
    void getDelayIsNotPositiveOnceRun() throws Exception {
        ScheduledFuture<?> f = executor.schedule(() -> { }, 1, MILLISECONDS);
        f.get(LONG_WAIT_SECONDS, SECONDS);

        assertTrue(f.getDelay(NANOSECONDS) <= 0, () -> "getDelay " + f.getDelay(NANOSECONDS) + " after the run");
    }

    @Test
    void compareToOrdersFuturesByDeadline() {
        ScheduledFuture<?> hour = executor.schedule(() -> { }, 1, HOURS);
        ScheduledFuture<?> day = executor.schedule(() -> { }, 1, TimeUnit.DAYS);
        ScheduledFuture<?> minute = executor.schedule(() -> "callable", 1, TimeUnit.MINUTES);
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> { }, 2, 1, HOURS);

        assertTrue(hour.compareTo(day) < 0);
        assertTrue(day.compareTo(hour) > 0);
        assertEquals(0, hour.compareTo(hour));
        List<ScheduledFuture<?>> sorted = new ArrayList<>(List.of(day, periodic, hour, minute));
        Collections.sort(sorted);
        assertEquals(List.of(minute, hour, periodic, day), sorted);

        Delayed twoMinutes = new FixedDelay(TimeUnit.MINUTES.toNanos(2));
        assertTrue(minute.compareTo(twoMinutes) < 0);
        assertTrue(hour.compareTo(twoMinutes) > 0);
    }

    @Test
    void getWithTimeoutThrowsTimeoutExceptionWhileNotDone() {
        ScheduledFuture<?> f = executor.schedule(() -> { }, 1, HOURS);

        assertThrows(TimeoutException.class, () -> f.get(0, NANOSECONDS));
        assertThrows(TimeoutException.class, () -> f.get(-1, SECONDS));
        assertThrows(TimeoutException.class, () -> f.get(ABSENCE_MILLIS, MILLISECONDS));
        assertFalse(f.isDone());
        assertFalse(f.isCancelled());
    }

    @Test
    void getBlocksUntilTheTaskCompletes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        ScheduledFuture<String> f = executor.schedule(() -> {
            started.countDown();
            release.await();
            return "done";
        }, 0, SECONDS);
        await(started, "the task");

        assertThrows(TimeoutException.class, () -> f.get(ABSENCE_MILLIS, MILLISECONDS)); // still running
        assertFalse(f.isDone());
        AtomicReference<Object> got = new AtomicReference<>();
        CountDownLatch gotIt = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try {
                got.set(f.get());
            } catch (Exception e) {
                got.set(e);
            }
            gotIt.countDown();
        }, "get-waiter");
        waiter.start();
        release.countDown();

        await(gotIt, "get()");
        assertEquals("done", got.get());
        assertTrue(f.isDone());
    }

    @Test
    void cancelBeforeFireReturnsTrueAndTaskNeverRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = executor.schedule(runs::incrementAndGet, 1, HOURS);

        assertTrue(f.cancel(false));

        assertTrue(f.isCancelled());
        assertTrue(f.isDone());
        assertThrows(CancellationException.class, f::get);
        assertThrows(CancellationException.class, () -> f.get(1, SECONDS));
        assertFalse(f.cancel(false), "a second cancel must report that it changed nothing");
        assertFalse(f.cancel(true));
        List<Runnable> notRun = executor.shutdownNow();
        assertFalse(containsSame(notRun, f), "shutdownNow handed back a cancelled task");
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
        assertEquals(0, runs.get());
    }

    @Test
    void cancelAfterCompletionReturnsFalseAndKeepsTheResult() throws Exception {
        ScheduledFuture<String> f = executor.schedule(() -> "kept", 0, SECONDS);
        assertEquals("kept", f.get(LONG_WAIT_SECONDS, SECONDS));

        assertFalse(f.cancel(false));
        assertFalse(f.cancel(true));

        assertFalse(f.isCancelled());
        assertTrue(f.isDone());
        assertEquals("kept", f.get());
    }

    @Test
    void cancelOfPeriodicTaskStopsFurtherRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger afterCancel = new AtomicInteger(Integer.MAX_VALUE);
        CountDownLatch twoRuns = new CountDownLatch(2);
        CountDownLatch ranAgain = new CountDownLatch(1);
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            int n = runs.incrementAndGet();
            int seenAtCancel = afterCancel.get();
            // One run may have begun just before the cancel and count afterwards.
            if (seenAtCancel != Integer.MAX_VALUE && n > seenAtCancel + 1) {
                ranAgain.countDown();
            }
            twoRuns.countDown();
        }, 0, 1, MILLISECONDS);
        await(twoRuns, "two periodic runs");

        assertTrue(f.cancel(false));
        afterCancel.set(runs.get());

        assertTrue(f.isCancelled());
        assertThrows(CancellationException.class, () -> f.get(LONG_WAIT_SECONDS, SECONDS));
        // Short bounded wait: 50 periods without a new run.
        assertFalse(ranAgain.await(ABSENCE_MILLIS, MILLISECONDS), "a periodic task ran again after cancel");
    }

    @Test
    void cancelWithInterruptOfRunningPeriodicTaskInterruptsItAndStopsFurtherRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() > 1) {
                return;
            }
            started.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        }, 0, 1, MILLISECONDS);
        await(started, "the periodic run");

        assertTrue(f.cancel(true));

        await(interrupted, "the interrupt of the running periodic task");
        assertTrue(f.isCancelled());
        assertTrue(f.isDone());
        assertThrows(CancellationException.class, f::get);
        executor.shutdown();
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
        assertEquals(1, runs.get(), "a periodic task ran again after cancel");
    }

    @Test
    void cancelWithoutInterruptOfRunningPeriodicTaskLetsTheRunFinishThenStopsIt() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean wasInterrupted = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(1);
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() > 1) {
                return;
            }
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                wasInterrupted.set(true);
            }
            finished.countDown();
        }, 0, 1, MILLISECONDS);
        await(started, "the periodic run");

        assertTrue(f.cancel(false));
        assertTrue(f.isCancelled());
        release.countDown();

        await(finished, "the run in progress");
        executor.shutdown();
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
        assertFalse(wasInterrupted.get(), "cancel(false) interrupted the running task");
        assertEquals(1, runs.get(), "a periodic task ran again after cancel");
    }

    // ==========================================================================================================
    // Cancel of a one-shot: FutureTask's contract, for every way to start one

    /**
     * As {@link java.util.concurrent.FutureTask}: {@code cancel(false)} of a running one-shot returns true; the
     * future is cancelled and done at once and {@code get} throws {@link CancellationException}; the task is not
     * interrupted and runs on to its end, which leaves the future cancelled.
     */
    @ParameterizedTest
    @EnumSource(OneShot.class)
    void cancelWithoutInterruptOfARunningOneShotReturnsTrueAndTheTaskRunsOn(OneShot form) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Future<?> f = form.start(executor, () -> {
            started.countDown();
            try {
                release.await(LONG_WAIT_SECONDS, SECONDS);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            ended.countDown();
        });
        try {
            await(started, form + ": the task");

            assertTrue(f.cancel(false), form + ": cancel(false) of a running task must return true");
            assertTrue(f.isCancelled(), form + ": isCancelled after the cancel");
            assertTrue(f.isDone(), form + ": isDone after the cancel");
            assertThrows(CancellationException.class, f::get, form + ": get after the cancel");
            assertThrows(CancellationException.class, () -> f.get(0, SECONDS), form + ": timed get after the cancel");
            assertFalse(f.cancel(true), form + ": a second cancel must report that it changed nothing");
        } finally {
            release.countDown();
        }
        await(ended, form + ": the cancelled task running on to its end");
        assertFalse(interrupted.get(), form + ": cancel(false), or the cancel(true) after it, interrupted the task");
        assertTrue(f.isCancelled(), form + ": the task's end undid the cancel");
        assertThrows(CancellationException.class, f::get, form + ": get after the cancelled task ended");
    }

    /**
     * As FutureTask: {@code cancel(true)} of a running one-shot returns true, the future is cancelled at once, and
     * the task is interrupted.
     */
    @ParameterizedTest
    @EnumSource(OneShot.class)
    void cancelWithInterruptOfARunningOneShotReturnsTrueAndInterruptsIt(OneShot form) {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Future<?> f = form.start(executor, () -> {
            started.countDown();
            try {
                never.await(LONG_WAIT_SECONDS, SECONDS);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        await(started, form + ": the task");

        assertTrue(f.cancel(true), form + ": cancel(true) of a running task must return true");
        assertTrue(f.isCancelled(), form + ": isCancelled after the cancel");
        assertTrue(f.isDone(), form + ": isDone after the cancel");
        assertThrows(CancellationException.class, f::get, form + ": get after the cancel");
        await(interrupted, form + ": the interrupt of the running task");
    }

    /** As FutureTask: cancel of a one-shot that completed, or failed, returns false and changes nothing. */
    @ParameterizedTest
    @EnumSource(OneShot.class)
    void cancelOfAOneShotThatCompletedOrFailedReturnsFalseAndKeepsItsOutcome(OneShot form) throws Exception {
        IllegalStateException boom = new IllegalStateException("boom");
        Future<?> completed = form.start(executor, () -> { });
        Future<?> failed = form.start(executor, () -> {
            throw boom;
        });
        assertEquals(form.result, completed.get(LONG_WAIT_SECONDS, SECONDS));
        assertSame(boom, assertThrows(ExecutionException.class, () -> failed.get(LONG_WAIT_SECONDS, SECONDS))
                .getCause());

        for (Future<?> f : List.of(completed, failed)) {
            assertFalse(f.cancel(false), form + ": cancel(false) of an ended task");
            assertFalse(f.cancel(true), form + ": cancel(true) of an ended task");
            assertFalse(f.isCancelled(), form.name());
            assertTrue(f.isDone(), form.name());
        }
        assertEquals(form.result, completed.get());
        assertSame(boom, assertThrows(ExecutionException.class, failed::get).getCause());
    }

    /**
     * The interrupt of a {@code cancel(true)} stays with the task it cancelled: afterwards every worker, the one that
     * ran the cancelled task included, starts its next task uninterrupted and is not interrupted during it. In
     * every other round the task restores its interrupt status as it leaves (as a well-behaved task does); in the
     * others it ends just as the cancel comes, without looking at the interrupt, so that the interrupt may land
     * after its run (the cancel may then lose to the task's end and return false).
     */
    @ParameterizedTest
    @EnumSource(OneShot.class)
    void interruptOfACancelledRunningOneShotNeverReachesALaterTask(OneShot form) throws Exception {
        for (int round = 0; round < 2 * workerThreads() + 2; round++) {
            String what = form + ", round " + round;
            boolean restoresInterrupt = round % 2 == 0;
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch ended = new CountDownLatch(1);
            AtomicBoolean cancelling = new AtomicBoolean();
            Future<?> f = form.start(executor, () -> {
                started.countDown();
                endOnCancel(restoresInterrupt, cancelling);
                ended.countDown();
            });
            await(started, what + ": the task");

            cancelling.set(true);
            boolean cancelled = f.cancel(true);

            if (restoresInterrupt) {
                assertTrue(cancelled, what + ": cancel(true) of a running task must return true");
            }
            await(ended, what + ": the cancelled task's end");
            List<String> leaked = workersStartingInterrupted();
            assertTrue(leaked.isEmpty(), what + ": the interrupt of the cancelled task reached a later task on "
                    + leaked);
        }
    }

    /** As the one-shot case: the interrupt of a periodic task's cancel(true) never reaches a later task. */
    @Test
    void interruptOfACancelledRunningPeriodicTaskNeverReachesALaterTask() throws Exception {
        for (int round = 0; round < 2 * workerThreads() + 2; round++) {
            boolean fixedRate = round % 2 == 0;
            boolean restoresInterrupt = round % 4 < 2;
            String what = (fixedRate ? "fixed rate" : "fixed delay") + ", round " + round;
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch ended = new CountDownLatch(1);
            AtomicBoolean cancelling = new AtomicBoolean();
            Runnable task = () -> {
                started.countDown();
                endOnCancel(restoresInterrupt, cancelling);
                ended.countDown();
            };
            ScheduledFuture<?> f = fixedRate
                    ? executor.scheduleAtFixedRate(task, 0, 1, HOURS)
                    : executor.scheduleWithFixedDelay(task, 0, 1, HOURS);
            await(started, what + ": the first run");

            cancelling.set(true);
            assertTrue(f.cancel(true), what + ": cancel(true) of a periodic task that has not ended");

            await(ended, what + ": the cancelled run's end");
            List<String> leaked = workersStartingInterrupted();
            assertTrue(leaked.isEmpty(), what + ": the interrupt of the cancelled task reached a later task on "
                    + leaked);
        }
    }

    /**
     * The body of a task about to be cancelled with interrupt: either it waits for the interrupt and restores its
     * interrupt status as it leaves, or it ends as soon as the cancel is about to come, ignoring the interrupt.
     */
    private static void endOnCancel(boolean restoresInterrupt, AtomicBoolean cancelling) {
        if (restoresInterrupt) {
            try {
                new CountDownLatch(1).await(LONG_WAIT_SECONDS, SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            spinUntil(cancelling);
        }
    }

    // ==========================================================================================================
    // Exceptions

    @Test
    void exceptionFromOneShotCompletesItsFutureWithExecutionException() {
        IllegalStateException boom = new IllegalStateException("boom");
        ScheduledFuture<?> runnable = executor.schedule((Runnable) () -> {
            throw boom;
        }, 1, MILLISECONDS);
        ScheduledFuture<?> callable = executor.schedule(() -> {
            throw new java.io.IOException("checked");
        }, 0, MILLISECONDS);
        Error error = new TaskError();
        ScheduledFuture<?> throwsError = executor.schedule(() -> {
            throw error;
        }, 0, MILLISECONDS);

        ExecutionException e = assertThrows(ExecutionException.class,
                () -> runnable.get(LONG_WAIT_SECONDS, SECONDS));
        assertSame(boom, e.getCause());
        assertTrue(runnable.isDone());
        assertFalse(runnable.isCancelled());
        ExecutionException checked = assertThrows(ExecutionException.class,
                () -> callable.get(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(checked.getCause() instanceof java.io.IOException);
        ExecutionException fromError = assertThrows(ExecutionException.class,
                () -> throwsError.get(LONG_WAIT_SECONDS, SECONDS));
        assertSame(error, fromError.getCause());
    }

    @Test
    void exceptionFromOneTaskDoesNotStopTheOthers() throws Exception {
        for (int i = 0; i < 4; i++) { // more failures than worker threads
            executor.execute(() -> {
                throw new IllegalStateException("boom");
            });
        }
        assertEquals("still works", executor.schedule(() -> "still works", 1, MILLISECONDS)
                .get(LONG_WAIT_SECONDS, SECONDS));
    }

    @Test
    void exceptionFromFixedRateTaskEndsItWithThatException() throws Exception {
        assertPeriodicEndsWithItsException(true);
    }

    @Test
    void exceptionFromFixedDelayTaskEndsItWithThatException() throws Exception {
        assertPeriodicEndsWithItsException(false);
    }

    private void assertPeriodicEndsWithItsException(boolean fixedRate) throws Exception {
        IllegalStateException boom = new IllegalStateException("third run fails");
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch ranAgain = new CountDownLatch(1);
        Runnable task = () -> {
            int n = runs.incrementAndGet();
            if (n == 3) {
                throw boom;
            }
            if (n > 3) {
                ranAgain.countDown();
            }
        };
        ScheduledFuture<?> f = fixedRate
                ? executor.scheduleAtFixedRate(task, 0, 1, MILLISECONDS)
                : executor.scheduleWithFixedDelay(task, 0, 1, MILLISECONDS);

        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(LONG_WAIT_SECONDS, SECONDS));
        assertSame(boom, e.getCause());
        assertTrue(f.isDone());
        assertFalse(f.isCancelled());
        assertFalse(f.cancel(false), "cancel of a task that ended with an exception");
        // Short bounded wait: 50 periods without a new run.
        assertFalse(ranAgain.await(ABSENCE_MILLIS, MILLISECONDS), "the periodic task ran after its exception");
        assertEquals(3, runs.get());
    }

    // ==========================================================================================================
    // Shutdown

    @Test
    void shutdownRejectsNewWork() {
        executor.shutdown();

        assertTrue(executor.isShutdown());
        Runnable r = () -> { };
        Callable<String> c = () -> "x";
        assertThrows(RejectedExecutionException.class, () -> executor.schedule(r, 1, SECONDS));
        assertThrows(RejectedExecutionException.class, () -> executor.schedule(c, 1, SECONDS));
        assertThrows(RejectedExecutionException.class, () -> executor.scheduleAtFixedRate(r, 1, 1, SECONDS));
        assertThrows(RejectedExecutionException.class, () -> executor.scheduleWithFixedDelay(r, 1, 1, SECONDS));
        assertThrows(RejectedExecutionException.class, () -> executor.execute(r));
        assertThrows(RejectedExecutionException.class, () -> executor.submit(r));
        assertThrows(RejectedExecutionException.class, () -> executor.submit(c));
        assertThrows(RejectedExecutionException.class, () -> executor.invokeAll(List.of(c)));
    }

    /**
     * shutdown() lets scheduled one-shots run and ends periodic tasks before it returns, as far as a caller can see:
     * a periodic task waiting for its next run reads cancelled as soon as shutdown() returns, and no periodic run
     * starts after that. A run in progress finishes (the JDK cancels its future when that run ends, not before).
     * The fixed-rate task is held in its second run across the shutdown, so that no periodic task is between being
     * taken by a worker and starting, a window no executor can close.
     */
    @Test
    void shutdownLetsScheduledOneShotTasksRunAndEndsPeriodicOnes() throws Exception {
        AtomicBoolean shutdownReturned = new AtomicBoolean();
        AtomicInteger startsAfterShutdown = new AtomicInteger();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch inSecondRun = new CountDownLatch(1);
        CountDownLatch releaseSecondRun = new CountDownLatch(1);
        ScheduledFuture<String> oneShot = executor.schedule(() -> "ran after shutdown", 30, MILLISECONDS);
        ScheduledFuture<?> running = executor.scheduleAtFixedRate(() -> {
            if (shutdownReturned.get()) {
                startsAfterShutdown.incrementAndGet();
            }
            if (runs.incrementAndGet() == 2) {
                inSecondRun.countDown();
                awaitInTask(releaseSecondRun);
            }
        }, 0, 1, MILLISECONDS);
        ScheduledFuture<?> waiting = executor.scheduleWithFixedDelay(() -> {
            if (shutdownReturned.get()) {
                startsAfterShutdown.incrementAndGet();
            }
        }, 1, 1, HOURS);
        final boolean waitingCancelledAtOnce;
        try {
            await(inSecondRun, "the fixed-rate task's second run");

            executor.shutdown();
            shutdownReturned.set(true);
            waitingCancelledAtOnce = waiting.isCancelled();
        } finally {
            releaseSecondRun.countDown();
        }

        assertTrue(executor.isShutdown());
        assertEquals("ran after shutdown", oneShot.get(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS),
                "periodic tasks kept the executor from terminating");
        assertTrue(executor.isTerminated());
        // Terminated: no run can start any more, so the counts are final.
        assertAll(
                () -> assertTrue(waitingCancelledAtOnce,
                        "a periodic task waiting for its next run did not read cancelled when shutdown() returned"),
                () -> assertEquals(0, startsAfterShutdown.get(), "periodic runs started after shutdown() returned"),
                () -> assertEquals(2, runs.get(), "runs of the fixed-rate task"));
        assertEndedCancelled(running, waiting);
    }

    /**
     * The hard case of shutdown() ending periodic tasks: every worker is blocked in a task while periodic tasks fall
     * due (an executor that hands due tasks to its workers' queue, as WheelTimer does, has queued them there; the
     * JDK keeps them in its delay queue), then shutdown(), then the workers go free. The periodic tasks read
     * cancelled as soon as shutdown() returns and never start a run; a one-shot that fell due with them still runs.
     */
    @Test
    void shutdownEndsPeriodicTasksThatFellDueWhileEveryWorkerWasBlocked() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger periodicRuns = new AtomicInteger();
        final ScheduledFuture<?> rate;
        final ScheduledFuture<?> delay;
        final ScheduledFuture<String> oneShot;
        final boolean rateCancelledAtOnce;
        final boolean delayCancelledAtOnce;
        try {
            blockEveryWorker(release);
            rate = executor.scheduleAtFixedRate(periodicRuns::incrementAndGet, 1, 1, MILLISECONDS);
            delay = executor.scheduleWithFixedDelay(periodicRuns::incrementAndGet, 1, 1, MILLISECONDS);
            oneShot = executor.schedule(() -> "fell due with them", 1, MILLISECONDS);
            long dueIn = Math.max(oneShot.getDelay(NANOSECONDS),
                    Math.max(rate.getDelay(NANOSECONDS), delay.getDelay(NANOSECONDS)));
            // Lateness on purpose (a wait on the clock, not on another thread): until all three are due, and 10 ms
            // more, by which an executor that hands due tasks to its workers' queue has normally done so. Should its
            // own thread be later still, the test checks the easier case; it cannot fail falsely.
            waitForClock(System.nanoTime() + dueIn + MILLISECONDS.toNanos(10));

            executor.shutdown();
            rateCancelledAtOnce = rate.isCancelled();
            delayCancelledAtOnce = delay.isCancelled();
        } finally {
            release.countDown();
        }

        assertEquals("fell due with them", oneShot.get(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS),
                "periodic tasks kept the executor from terminating");
        assertTrue(executor.isTerminated());
        // Terminated: no run can start any more. Every worker was blocked until after shutdown() returned, so any
        // periodic run at all started after it.
        assertAll(
                () -> assertTrue(rateCancelledAtOnce,
                        "a due fixed-rate task did not read cancelled when shutdown() returned"),
                () -> assertTrue(delayCancelledAtOnce,
                        "a due fixed-delay task did not read cancelled when shutdown() returned"),
                () -> assertEquals(0, periodicRuns.get(),
                        "periodic runs started after shutdown() returned (they fell due while every worker was"
                                + " blocked)"));
        assertEndedCancelled(rate, delay);
    }

    /**
     * In the spirit of the JSR-166 TCK's shutdown-cancellation case, under the JDK's default policies (delayed
     * one-shots still run after shutdown, periodic tasks do not go on): delayed one-shots and periodic tasks of both
     * kinds, some due before shutdown() and some after it. Every worker is blocked meanwhile, so that no task is
     * between being taken and starting. Every periodic future reads cancelled as soon as shutdown() returns and
     * never runs; every one-shot still runs, none before its time; the executor terminates.
     */
    @Test
    void shutdownCancelsPeriodicTasksAtOnceAndRunsDelayedOneShotsAtTheirTime() throws Exception {
        long[] oneShotDelaysMillis = {0, 1, 10, 30, 60};
        long[] periodicInitialDelaysMillis = {0, 1, 10, 60, HOURS.toMillis(1)};
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger periodicRuns = new AtomicInteger();
        List<ScheduledFuture<Long>> oneShots = new ArrayList<>();
        List<ScheduledFuture<?>> periodic = new ArrayList<>();
        List<String> notCancelledAtOnce = new ArrayList<>();
        try {
            blockEveryWorker(release);
            for (long d : oneShotDelaysMillis) {
                long scheduledAt = System.nanoTime();
                oneShots.add(executor.schedule(() -> System.nanoTime() - scheduledAt, d, MILLISECONDS));
            }
            for (long initial : periodicInitialDelaysMillis) {
                periodic.add(executor.scheduleAtFixedRate(periodicRuns::incrementAndGet, initial, 1, MILLISECONDS));
                periodic.add(executor.scheduleWithFixedDelay(periodicRuns::incrementAndGet, initial, 1,
                        MILLISECONDS));
            }

            executor.shutdown();
            for (int i = 0; i < periodic.size(); i++) {
                if (!periodic.get(i).isCancelled()) {
                    notCancelledAtOnce.add((i % 2 == 0 ? "fixed rate" : "fixed delay") + " after "
                            + periodicInitialDelaysMillis[i / 2] + " ms");
                }
            }
        } finally {
            release.countDown();
        }

        for (int i = 0; i < oneShots.size(); i++) {
            long ranAfter = oneShots.get(i).get(LONG_WAIT_SECONDS, SECONDS);
            long delay = MILLISECONDS.toNanos(oneShotDelaysMillis[i]);
            assertTrue(ranAfter >= delay, "the one-shot with a delay of " + oneShotDelaysMillis[i] + " ms ran "
                    + ranAfter + " ns after it was scheduled, before its time");
            assertFalse(oneShots.get(i).isCancelled());
        }
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS),
                "periodic tasks kept the executor from terminating");
        assertTrue(executor.isTerminated());
        assertAll(
                () -> assertTrue(notCancelledAtOnce.isEmpty(),
                        "periodic tasks that did not read cancelled when shutdown() returned: " + notCancelledAtOnce),
                () -> assertEquals(0, periodicRuns.get(), "periodic runs started after shutdown() returned"));
        for (ScheduledFuture<?> p : periodic) {
            assertTrue(p.isDone());
            assertTrue(p.isCancelled());
            assertThrows(CancellationException.class, p::get);
        }
    }

    /**
     * Issue 21, the JDK's conformance scenario: four workers, each blocked in a task of one kind (submit, schedule,
     * fixed rate, fixed delay; each periodic one blocks in its second run), a second wave of the same four kinds
     * behind them, then shutdown(). Right after it returns, before the blocked tasks go free: a periodic future
     * whose run is in progress is not done (the JDK never says done while the task runs), the second wave's periodic
     * futures are cancelled, its one-shots are not done (they still run, as the default policy says), and the
     * executor does not terminate. Then the runs return: the periodic ones are not run again and end cancelled,
     * every one-shot runs, awaitTermination returns true and every future is done.
     */
    @Test
    void shutdownLeavesARunningPeriodicTaskNotDoneUntilItsRunReturnsThenCancelsIt() throws Exception {
        executor.shutdownNow();
        executor = newExecutor(4);
        CountDownLatch blocked = new CountDownLatch(4);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger rateRuns = new AtomicInteger();
        AtomicInteger delayRuns = new AtomicInteger();
        AtomicInteger secondWavePeriodicRuns = new AtomicInteger();
        Future<?> submitted = executor.submit(() -> {
            blocked.countDown();
            awaitInTask(release);
        });
        ScheduledFuture<String> scheduled = executor.schedule(() -> {
            blocked.countDown();
            awaitInTask(release);
            return "first wave";
        }, 1, MILLISECONDS);
        ScheduledFuture<?> rate = executor.scheduleAtFixedRate(() -> {
            if (rateRuns.incrementAndGet() == 2) {
                blocked.countDown();
                awaitInTask(release);
            }
        }, 0, 1, MILLISECONDS);
        ScheduledFuture<?> delay = executor.scheduleWithFixedDelay(() -> {
            if (delayRuns.incrementAndGet() == 2) {
                blocked.countDown();
                awaitInTask(release);
            }
        }, 0, 1, MILLISECONDS);
        final Future<String> secondSubmitted;
        final ScheduledFuture<String> secondScheduled;
        final ScheduledFuture<?> secondRate;
        final ScheduledFuture<?> secondDelay;
        final boolean rateDoneAtShutdown;
        final boolean delayDoneAtShutdown;
        final boolean secondRateCancelled;
        final boolean secondDelayCancelled;
        final boolean secondOneShotsDone;
        final boolean firstOneShotsDone;
        final boolean terminatedWhileRunning;
        try {
            await(blocked, "the four first-wave tasks blocked in their runs");
            secondSubmitted = executor.submit(() -> "second wave");
            secondScheduled = executor.schedule(() -> "second wave, scheduled", 0, MILLISECONDS);
            secondRate = executor.scheduleAtFixedRate(secondWavePeriodicRuns::incrementAndGet, 0, 1, MILLISECONDS);
            secondDelay = executor.scheduleWithFixedDelay(secondWavePeriodicRuns::incrementAndGet, 1, 1,
                    MILLISECONDS);

            executor.shutdown();
            rateDoneAtShutdown = rate.isDone();
            delayDoneAtShutdown = delay.isDone();
            secondRateCancelled = secondRate.isCancelled();
            secondDelayCancelled = secondDelay.isCancelled();
            secondOneShotsDone = secondSubmitted.isDone() || secondScheduled.isDone();
            firstOneShotsDone = submitted.isDone() || scheduled.isDone();
            // An absence check (bounded, it cannot fail falsely): four runs are still in progress.
            terminatedWhileRunning = executor.awaitTermination(ABSENCE_MILLIS, MILLISECONDS)
                    || executor.isTerminated();
        } finally {
            release.countDown();
        }

        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS), "the executor did not terminate");
        assertAll(
                () -> assertFalse(rateDoneAtShutdown, "the fixed-rate future read done while its run was in progress"),
                () -> assertFalse(delayDoneAtShutdown,
                        "the fixed-delay future read done while its run was in progress"),
                () -> assertTrue(secondRateCancelled, "the second-wave fixed-rate future was not cancelled"),
                () -> assertTrue(secondDelayCancelled, "the second-wave fixed-delay future was not cancelled"),
                () -> assertFalse(secondOneShotsDone, "a second-wave one-shot read done before it ran"),
                () -> assertFalse(firstOneShotsDone, "a blocked one-shot read done"),
                () -> assertFalse(terminatedWhileRunning, "terminated while four runs were in progress"),
                () -> assertEquals(2, rateRuns.get(), "runs of the fixed-rate task (none after shutdown)"),
                () -> assertEquals(2, delayRuns.get(), "runs of the fixed-delay task (none after shutdown)"),
                () -> assertEquals(0, secondWavePeriodicRuns.get(), "runs of the second wave's periodic tasks"));
        assertEndedCancelled(rate, delay, secondRate, secondDelay);
        assertNull(submitted.get());
        assertEquals("first wave", scheduled.get());
        assertEquals("second wave", secondSubmitted.get());
        assertEquals("second wave, scheduled", secondScheduled.get());
    }

    /**
     * After shutdown(), cancel of a periodic task whose run is in progress behaves as with the JDK: it returns true,
     * the future reads cancelled at once, the run finishes and no other run starts; the executor then terminates.
     */
    @Test
    void cancelAfterShutdownOfAPeriodicTaskInItsRunReturnsTrueAndEndsIt() throws Exception {
        CountDownLatch inRun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch runReturned = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> rate = executor.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            inRun.countDown();
            awaitInTask(release);
            runReturned.countDown();
        }, 0, 1, MILLISECONDS);
        final boolean doneAfterShutdown;
        final boolean cancelled;
        final boolean cancelledAtOnce;
        final boolean returnedBeforeRelease;
        try {
            await(inRun, "the periodic task's run");
            executor.shutdown();
            doneAfterShutdown = rate.isDone();
            cancelled = rate.cancel(false);
            cancelledAtOnce = rate.isCancelled() && rate.isDone();
            returnedBeforeRelease = runReturned.getCount() == 0;
        } finally {
            release.countDown();
        }
        await(runReturned, "the run's return");
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS), "the executor did not terminate");
        assertAll(
                () -> assertFalse(doneAfterShutdown, "done while its run was in progress"),
                () -> assertTrue(cancelled, "cancel of a running periodic task after shutdown returned false"),
                () -> assertTrue(cancelledAtOnce, "not cancelled as soon as cancel returned true"),
                () -> assertFalse(returnedBeforeRelease, "the run did not wait for its latch"),
                () -> assertEquals(1, runs.get(), "runs (none after the cancel)"));
        assertEndedCancelled(rate);
    }

    @Test
    void shutdownNowReturnsExactlyTheTasksNotStartedAndInterruptsRunningOnes() throws Exception {
        CountDownLatch blockerStarted = new CountDownLatch(1);
        CountDownLatch blockerInterrupted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger pendingRuns = new AtomicInteger();
        ScheduledFuture<?> running = executor.schedule(() -> {
            blockerStarted.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                blockerInterrupted.countDown();
            }
        }, 0, SECONDS);
        ScheduledFuture<?> completed = executor.schedule(() -> "done", 0, SECONDS);
        ScheduledFuture<?> a = executor.schedule(pendingRuns::incrementAndGet, 1, HOURS);
        ScheduledFuture<?> b = executor.schedule(() -> pendingRuns.incrementAndGet(), 2, HOURS);
        ScheduledFuture<?> p = executor.scheduleAtFixedRate(pendingRuns::incrementAndGet, 1, 1, HOURS);
        ScheduledFuture<?> cancelled = executor.schedule(pendingRuns::incrementAndGet, 1, HOURS);
        assertTrue(cancelled.cancel(false));
        await(blockerStarted, "the running task");
        completed.get(LONG_WAIT_SECONDS, SECONDS);

        List<Runnable> notStarted = executor.shutdownNow();

        assertEquals(3, notStarted.size(), () -> "handed back " + notStarted);
        for (ScheduledFuture<?> f : List.of(a, b, p)) {
            assertTrue(containsSame(notStarted, f), () -> f + " was not handed back: " + notStarted);
            assertFalse(f.isDone(), "a handed-back task is neither run nor cancelled");
        }
        await(blockerInterrupted, "the interrupt of the running task");
        assertTrue(executor.isShutdown());
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(executor.isTerminated());
        assertTrue(running.isDone());
        assertEquals(0, pendingRuns.get(), "a task handed back by shutdownNow ran");
        assertTrue(executor.shutdownNow().isEmpty(), "a second shutdownNow handed tasks back again");
    }

    @Test
    void awaitTerminationIsShutdownAndIsTerminatedFollowTheLifecycle() throws Exception {
        assertFalse(executor.isShutdown());
        assertFalse(executor.isTerminated());
        // Short bounded wait: a running executor does not terminate by itself.
        assertFalse(executor.awaitTermination(ABSENCE_MILLIS, MILLISECONDS));

        executor.shutdown();
        executor.shutdown(); // idempotent

        assertTrue(executor.isShutdown());
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(executor.isTerminated());
        assertTrue(executor.awaitTermination(0, SECONDS));
    }

    // ==========================================================================================================
    // Threads

    /**
     * As the JDK's default thread factory ({@link java.util.concurrent.Executors#defaultThreadFactory()}): the
     * threads that run tasks are not daemon threads, so a JVM does not exit while the executor has work to do.
     * Every worker proves it, and so do a delayed and a periodic task.
     */
    @Test
    void tasksRunOnNonDaemonThreadsByDefault() throws Exception {
        List<String> daemons = onEveryWorker(() -> Thread.currentThread().isDaemon()
                ? Thread.currentThread().getName() : null);
        daemons.removeIf(Objects::isNull);
        assertTrue(daemons.isEmpty(), "tasks ran on daemon threads: " + daemons);

        assertFalse(executor.schedule(() -> Thread.currentThread().isDaemon(), 1, MILLISECONDS)
                .get(LONG_WAIT_SECONDS, SECONDS), "a delayed task ran on a daemon thread");
        AtomicBoolean periodicOnDaemon = new AtomicBoolean(true);
        CountDownLatch ran = new CountDownLatch(1);
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {
            periodicOnDaemon.set(Thread.currentThread().isDaemon());
            ran.countDown();
        }, 1, HOURS.toMillis(1), MILLISECONDS);
        await(ran, "the periodic task");
        assertTrue(periodic.cancel(false));
        assertFalse(periodicOnDaemon.get(), "a periodic task ran on a daemon thread");
    }

    // ==========================================================================================================
    // Bad input

    @Test
    void nullTaskOrUnitThrowsNullPointerException() {
        Runnable r = () -> { };
        Callable<String> c = () -> "x";
        List<Executable> calls = List.of(
                () -> executor.schedule((Runnable) null, 1, SECONDS),
                () -> executor.schedule((Callable<?>) null, 1, SECONDS),
                () -> executor.schedule(r, 1, null),
                () -> executor.schedule(c, 1, null),
                () -> executor.scheduleAtFixedRate(null, 1, 1, SECONDS),
                () -> executor.scheduleAtFixedRate(r, 1, 1, null),
                () -> executor.scheduleWithFixedDelay(null, 1, 1, SECONDS),
                () -> executor.scheduleWithFixedDelay(r, 1, 1, null),
                () -> executor.execute(null),
                () -> executor.submit((Runnable) null),
                () -> executor.submit((Runnable) null, "result"),
                () -> executor.submit((Callable<?>) null));
        for (int i = 0; i < calls.size(); i++) {
            assertThrows(NullPointerException.class, calls.get(i), "call " + i);
        }
    }

    @Test
    void nonPositivePeriodThrowsIllegalArgumentException() {
        Runnable r = () -> { };
        for (long bad : new long[] {0, -1, Long.MIN_VALUE}) {
            assertThrows(IllegalArgumentException.class, () -> executor.scheduleAtFixedRate(r, 1, bad, SECONDS),
                    "period " + bad);
            assertThrows(IllegalArgumentException.class, () -> executor.scheduleWithFixedDelay(r, 1, bad, SECONDS),
                    "delay " + bad);
        }
    }

    @Test
    void longMaxValueDelayInEveryUnitIsAcceptedAndNotRun() throws Exception {
        CountDownLatch anyRan = new CountDownLatch(1);
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (TimeUnit unit : TimeUnit.values()) {
            futures.add(executor.schedule(anyRan::countDown, Long.MAX_VALUE, unit));
            futures.add(executor.schedule(() -> {
                anyRan.countDown();
                return unit;
            }, Long.MAX_VALUE, unit));
            futures.add(executor.scheduleAtFixedRate(anyRan::countDown, Long.MAX_VALUE, Long.MAX_VALUE, unit));
            futures.add(executor.scheduleWithFixedDelay(anyRan::countDown, Long.MAX_VALUE, Long.MAX_VALUE, unit));
            futures.add(executor.scheduleAtFixedRate(anyRan::countDown, Long.MAX_VALUE, 1, unit));
        }
        // A short task behind them all still runs: the huge deadlines did not overflow into the past or jam it.
        assertEquals("short", executor.schedule(() -> "short", 1, MILLISECONDS).get(LONG_WAIT_SECONDS, SECONDS));

        for (ScheduledFuture<?> f : futures) {
            assertTrue(f.getDelay(NANOSECONDS) > 0, () -> f + " has getDelay " + f.getDelay(NANOSECONDS));
            // More than a century: the JDK may clamp such delays (JDK 25's STPE to about Long.MAX_VALUE / 2 ns).
            assertTrue(f.getDelay(TimeUnit.DAYS) > 36_500, () -> f + " is due in " + f.getDelay(TimeUnit.DAYS)
                    + " days");
            assertFalse(f.isDone());
        }
        // Short bounded wait: none of them runs.
        assertFalse(anyRan.await(ABSENCE_MILLIS, MILLISECONDS), "a task with a delay of Long.MAX_VALUE ran");
        for (ScheduledFuture<?> f : futures) {
            assertTrue(f.cancel(false));
        }
    }

    // ==========================================================================================================
    // Helpers

    /** Each future is done and cancelled, and its get() throws CancellationException. */
    static void assertEndedCancelled(ScheduledFuture<?>... futures) {
        for (ScheduledFuture<?> f : futures) {
            assertTrue(f.isDone(), f::toString);
            assertTrue(f.isCancelled(), f::toString);
            assertThrows(CancellationException.class, f::get);
        }
    }

    static void await(CountDownLatch latch, String what) {
        try {
            assertTrue(latch.await(LONG_WAIT_SECONDS, SECONDS),
                    () -> what + ": still waiting for " + latch.getCount() + " after " + LONG_WAIT_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
    }

    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        for (;;) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits in a task, bounded by {@link #LONG_WAIT_SECONDS} so that a failed test cannot leave a worker blocked for
     * good; an interrupt (shutdownNow at the test's end) ends the wait and is kept.
     */
    static void awaitInTask(CountDownLatch latch) {
        try {
            latch.await(LONG_WAIT_SECONDS, SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Spins (yielding) in a task until the flag is set, bounded by {@link #LONG_WAIT_SECONDS}. */
    static void spinUntil(AtomicBoolean flag) {
        long deadline = System.nanoTime() + SECONDS.toNanos(LONG_WAIT_SECONDS);
        while (!flag.get() && System.nanoTime() - deadline < 0) {
            Thread.yield();
        }
    }

    /**
     * Blocks every worker thread in a task until {@code release} opens, and returns once all of them are blocked:
     * until then the executor starts no other task, and a task that falls due waits in its queue.
     */
    void blockEveryWorker(CountDownLatch release) {
        blockEveryWorker(Collections.nCopies(workerThreads(), release));
    }

    /** As {@link #blockEveryWorker(CountDownLatch)}, each worker until its own latch opens (one per worker). */
    void blockEveryWorker(List<CountDownLatch> releases) {
        assertEquals(workerThreads(), releases.size(), "one latch per worker");
        CountDownLatch blocked = new CountDownLatch(releases.size());
        for (CountDownLatch release : releases) {
            executor.execute(() -> {
                blocked.countDown();
                awaitInTask(release);
            });
        }
        await(blocked, "every worker blocked in a task (fewer workers than workerThreads()?)");
    }

    /**
     * Runs {@code probe} at the start of a task on every worker thread and returns what each probe returned. Each
     * task then waits until all have started, so no thread runs two of them: every worker proves itself, including
     * one that has just run a cancelled task. An interrupt while a task waits fails the call, naming the thread.
     */
    <T> List<T> onEveryWorker(Callable<T> probe) throws InterruptedException {
        int n = workerThreads();
        CountDownLatch allStarted = new CountDownLatch(n);
        List<Future<T>> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(executor.submit(() -> {
                T seen = probe.call();
                allStarted.countDown();
                try {
                    if (!allStarted.await(LONG_WAIT_SECONDS, SECONDS)) {
                        throw new AssertionError("only " + (n - allStarted.getCount()) + " of " + n
                                + " probe tasks ran at once (fewer workers than workerThreads()?)");
                    }
                } catch (InterruptedException e) {
                    throw new AssertionError(Thread.currentThread().getName()
                            + " was interrupted while its probe task waited for the others", e);
                }
                return seen;
            }));
        }
        List<T> seen = new ArrayList<>();
        for (Future<T> f : tasks) {
            try {
                seen.add(f.get(LONG_WAIT_SECONDS, SECONDS));
            } catch (ExecutionException e) {
                throw new AssertionError("a probe task failed: " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new AssertionError("a probe task did not end within " + LONG_WAIT_SECONDS + " s", e);
            }
        }
        return seen;
    }

    /** @return the names of the worker threads that started a task with their interrupt status set (and clears it) */
    List<String> workersStartingInterrupted() throws InterruptedException {
        List<String> names = onEveryWorker(() -> Thread.interrupted() ? Thread.currentThread().getName() : null);
        names.removeIf(Objects::isNull);
        return names;
    }

    /**
     * The ways to start a one-shot task that hands back a future. The future of each is a
     * {@link java.util.concurrent.FutureTask} in the JDK, and keeps FutureTask's contract.
     */
    enum OneShot {
        SCHEDULE_RUNNABLE(null),
        SCHEDULE_CALLABLE("the callable's result"),
        SUBMIT_RUNNABLE(null),
        SUBMIT_RUNNABLE_WITH_RESULT("the given result"),
        SUBMIT_CALLABLE("the callable's result");

        /** What get() returns once the task completed. */
        final String result;

        OneShot(String result) {
            this.result = result;
        }

        /** Starts {@code body} this way, due at once. */
        Future<?> start(ScheduledExecutorService e, Runnable body) {
            switch (this) {
                case SCHEDULE_RUNNABLE:
                    return e.schedule(body, 0, NANOSECONDS);
                case SCHEDULE_CALLABLE:
                    return e.schedule(() -> {
                        body.run();
                        return result;
                    }, 0, NANOSECONDS);
                case SUBMIT_RUNNABLE:
                    return e.submit(body);
                case SUBMIT_RUNNABLE_WITH_RESULT:
                    return e.submit(body, result);
                default:
                    return e.submit(() -> {
                        body.run();
                        return result;
                    });
            }
        }
    }

    /** Waits until System.nanoTime() reaches the target: for tests that need time to pass, not another thread. */
    static void waitForClock(long targetNanoTime) {
        for (long left; (left = targetNanoTime - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }

    static boolean containsSame(List<?> list, Object o) {
        Set<Object> identities = Collections.newSetFromMap(new IdentityHashMap<>());
        identities.addAll(list);
        return identities.contains(o);
    }

    /** An Error thrown by a task, to check that implementations catch Throwable, not only Exception. */
    static final class TaskError extends Error {
        private static final long serialVersionUID = 1L;

        TaskError() {
            super("thrown by the task");
        }
    }

    /** A foreign {@link Delayed}, to compare the executor's futures with. */
    static final class FixedDelay implements Delayed {
        private final long deadline;

        FixedDelay(long delayNanos) {
            this.deadline = System.nanoTime() + delayNanos;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(deadline - System.nanoTime(), NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(getDelay(NANOSECONDS), o.getDelay(NANOSECONDS));
        }
    }
}

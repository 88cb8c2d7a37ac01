package dev.tickwheel;

import static dev.tickwheel.FaultThreads.awaitBlocked;
import static dev.tickwheel.FaultThreads.awaitCondition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Hostile input (issue 6): every public method with null, negative, zero, {@code Long.MIN_VALUE} and
 * {@code Long.MAX_VALUE} delays, periods and timeouts in every {@link TimeUnit}, and every builder setter with
 * invalid values. Each call either throws a clear exception naming the bad value (the message contains it) or
 * behaves as documented (a delay &lt;= 0 means now; a huge delay is accepted, not run, and cancellable), and
 * the timer stays usable: nothing half-accepted is left behind (checked against a small {@code maxPending}).
 * Then the lifecycle calls from many threads at once: repeated cancel, shutdown, shutdownNow and close.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WheelTimerHostileInputTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long[] HOSTILE = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
    private static final long[] NOT_POSITIVE = {Long.MIN_VALUE, -1, 0};
    /** A small limit: a bad call that leaked a reservation would soon make valid calls fail. */
    private static final int LIMIT = 8;

    private final AtomicLong clock = new AtomicLong();

    private WheelTimer manualTimer() {
        return WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run)
                .maxPending(LIMIT).build();
    }

    private void stepAll(WheelTimer timer) {
        while (OwnerLoop.of(timer).step()) {
            // drain
        }
    }

    /** The timer still works: LIMIT fresh timers are accepted (no leaked reservation) and run at their tick. */
    private void assertStillUsable(WheelTimer timer) {
        assertEquals(0, timer.metrics().pending(), "nothing left pending: " + timer.metrics());
        List<ScheduledFuture<String>> fresh = new ArrayList<>();
        for (int i = 0; i < LIMIT; i++) {
            fresh.add(timer.schedule(() -> "fresh", 1, TimeUnit.MILLISECONDS));
        }
        stepAll(timer);
        clock.addAndGet(MS);
        stepAll(timer);
        for (ScheduledFuture<String> f : fresh) {
            assertTrue(f.isDone() && !f.isCancelled(), "a fresh timer ran");
        }
        assertEquals(0, timer.metrics().pending());
    }

    private static void assertNamesValue(RuntimeException e, Object value) {
        assertTrue(e.getMessage() != null && e.getMessage().contains(String.valueOf(value)),
                () -> "message names the bad value " + value + ": " + e.getMessage());
    }

    private static long saturatedNanos(long amount, TimeUnit unit) {
        return amount <= 0 ? 0 : unit.toNanos(amount);
    }

    // ---------------------------------------------------------------------------------------------------------
    // schedule, execute, submit

    /**
     * Both schedule overloads with every hostile delay: a delay &lt;= 0 runs at the next step; 1 unit runs at the
     * first step at or after it, not before; Long.MAX_VALUE (about 292 years whatever the unit) is accepted, reports
     * its delay, does not run in a thousand days, and is cancellable.
     */
    @ParameterizedTest
    @EnumSource(TimeUnit.class)
    void scheduleTakesEveryDelayInEveryUnitAsDocumented(TimeUnit unit) throws Exception {
        WheelTimer timer = manualTimer();
        for (boolean callable : new boolean[] {false, true}) {
            for (long delay : HOSTILE) {
                String what = (callable ? "Callable" : "Runnable") + " delay " + delay + " " + unit;
                AtomicInteger runs = new AtomicInteger();
                long start = clock.get();
                ScheduledFuture<?> f = callable
                        ? timer.schedule(runs::incrementAndGet, delay, unit)
                        : timer.schedule((Runnable) runs::incrementAndGet, delay, unit);
                long exact = Math.min(saturatedNanos(delay, unit), Long.MAX_VALUE - start);
                long reported = f.getDelay(TimeUnit.NANOSECONDS);
                if (delay <= 0) {
                    assertTrue(reported <= 0, what + ": due now, getDelay " + reported);
                } else {
                    assertTrue(reported >= exact && reported - exact <= MS,
                            what + ": getDelay " + reported + " is the delay rounded up to the tick, " + exact);
                }
                stepAll(timer);
                if (delay <= 0) {
                    assertEquals(1, runs.get(), what + ": a delay <= 0 means now");
                } else if (delay == 1) {
                    assertEquals(0, runs.get(), what + ": not early");
                    clock.addAndGet(exact - 1);
                    stepAll(timer);
                    if (exact % MS == 0) {
                        assertEquals(0, runs.get(), what + ": not early, one nanosecond before");
                    }
                    clock.set(start + (exact + MS - 1) / MS * MS);
                    stepAll(timer);
                    assertEquals(1, runs.get(), what + ": ran at its tick");
                } else {
                    clock.addAndGet(TimeUnit.DAYS.toNanos(1000));
                    stepAll(timer);
                    assertEquals(0, runs.get(), what + ": a huge delay is pending, not run");
                    assertFalse(f.isDone());
                    assertTrue(f.getDelay(TimeUnit.DAYS) > 100 * 365, what + ": " + f.getDelay(TimeUnit.DAYS));
                    assertTrue(f.cancel(false), what + ": cancellable");
                    assertThrows(CancellationException.class, f::get);
                }
                assertEquals(0, timer.metrics().pending(), what);
            }
        }
        assertStillUsable(timer);
    }

    @Test
    void nullTaskOrUnitIsRejectedNamingTheParameterAndLeavesNothingBehind() {
        WheelTimer timer = manualTimer();
        Runnable task = () -> { };
        Callable<String> callable = () -> "x";
        assertNamesValue(assertThrows(NullPointerException.class,
                () -> timer.schedule((Runnable) null, 1, TimeUnit.SECONDS)), "command");
        assertNamesValue(assertThrows(NullPointerException.class,
                () -> timer.schedule((Callable<?>) null, 1, TimeUnit.SECONDS)), "callable");
        assertNamesValue(assertThrows(NullPointerException.class, () -> timer.schedule(task, 1, null)), "unit");
        assertNamesValue(assertThrows(NullPointerException.class, () -> timer.schedule(callable, 1, null)), "unit");
        assertNamesValue(assertThrows(NullPointerException.class,
                () -> timer.scheduleAtFixedRate(null, 1, 1, TimeUnit.SECONDS)), "command");
        assertNamesValue(assertThrows(NullPointerException.class,
                () -> timer.scheduleAtFixedRate(task, 1, 1, null)), "unit");
        assertNamesValue(assertThrows(NullPointerException.class,
                () -> timer.scheduleWithFixedDelay(null, 1, 1, TimeUnit.SECONDS)), "command");
        assertNamesValue(assertThrows(NullPointerException.class,
                () -> timer.scheduleWithFixedDelay(task, 1, 1, null)), "unit");
        assertNamesValue(assertThrows(NullPointerException.class, () -> timer.execute(null)), "command");
        assertNamesValue(assertThrows(NullPointerException.class, () -> timer.submit((Runnable) null)), "command");
        assertNamesValue(assertThrows(NullPointerException.class, () -> timer.submit((Runnable) null, "r")), "task");
        assertNamesValue(assertThrows(NullPointerException.class, () -> timer.submit((Callable<?>) null)),
                "callable");
        assertEquals(0, timer.metrics().scheduled(), "no bad call was counted as scheduled");
        assertStillUsable(timer);
    }

    @Test
    void executeAndSubmitRunAtTheNextStepWithTheirDocumentedResults() throws Exception {
        WheelTimer timer = manualTimer();
        AtomicInteger runs = new AtomicInteger();
        timer.execute(runs::incrementAndGet);
        Future<?> plain = timer.submit((Runnable) runs::incrementAndGet);
        Future<String> withResult = timer.submit(runs::incrementAndGet, "given");
        Future<String> nullResult = timer.submit(runs::incrementAndGet, null);
        Future<Integer> called = timer.submit(runs::incrementAndGet);
        stepAll(timer);
        assertEquals(5, runs.get());
        assertNull(plain.get());
        assertEquals("given", withResult.get());
        assertNull(nullResult.get());
        assertTrue(called.get() >= 1 && called.get() <= 5);
        assertStillUsable(timer);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Periodic

    @ParameterizedTest
    @EnumSource(TimeUnit.class)
    void periodicRejectsEveryPeriodAtOrBelowZeroNamingItAndTakesEveryInitialDelay(TimeUnit unit) throws Exception {
        WheelTimer timer = manualTimer();
        for (boolean fixedRate : new boolean[] {true, false}) {
            for (long initialDelay : HOSTILE) {
                for (long period : NOT_POSITIVE) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, fixedRate
                            ? () -> timer.scheduleAtFixedRate(() -> { }, initialDelay, period, unit)
                            : () -> timer.scheduleWithFixedDelay(() -> { }, initialDelay, period, unit));
                    assertNamesValue(e, period + " " + unit);
                }
                for (long period : new long[] {1, Long.MAX_VALUE}) {
                    String what = (fixedRate ? "fixed rate" : "fixed delay") + ", initial " + initialDelay
                            + ", period " + period + " " + unit;
                    AtomicInteger runs = new AtomicInteger();
                    long start = clock.get();
                    ScheduledFuture<?> f = fixedRate
                            ? timer.scheduleAtFixedRate(runs::incrementAndGet, initialDelay, period, unit)
                            : timer.scheduleWithFixedDelay(runs::incrementAndGet, initialDelay, period, unit);
                    assertTrue(f.getDelay(TimeUnit.NANOSECONDS) <= 0 == initialDelay <= 0, what);
                    stepAll(timer);
                    if (initialDelay == 1) {
                        clock.set(start + (unit.toNanos(1) + MS - 1) / MS * MS);
                        stepAll(timer);
                    }
                    if (initialDelay <= 1) {
                        assertEquals(1, runs.get(), what + ": the first run");
                        long periodNanos = unit.toNanos(period);
                        if (periodNanos <= TimeUnit.DAYS.toNanos(1)) {
                            clock.addAndGet((periodNanos + MS - 1) / MS * MS);
                            stepAll(timer);
                            assertEquals(2, runs.get(), what + ": the second run, one period later");
                        } else {
                            clock.addAndGet(TimeUnit.DAYS.toNanos(1000));
                            stepAll(timer);
                            assertEquals(1, runs.get(), what + ": the next run is centuries away");
                        }
                    } else {
                        clock.addAndGet(TimeUnit.DAYS.toNanos(1000));
                        stepAll(timer);
                        assertEquals(0, runs.get(), what + ": the first run is centuries away");
                    }
                    int before = runs.get();
                    assertTrue(f.cancel(false), what + ": cancellable");
                    clock.addAndGet(TimeUnit.DAYS.toNanos(1));
                    stepAll(timer);
                    assertEquals(before, runs.get(), what + ": no run after cancel");
                    assertEquals(0, timer.metrics().pending(), what);
                }
            }
        }
        assertStillUsable(timer);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Future: get(timeout), getDelay

    @ParameterizedTest
    @EnumSource(TimeUnit.class)
    void timedGetWithEveryTimeoutTimesOutNamingItOrReturnsTheResult(TimeUnit unit) throws Exception {
        WheelTimer timer = manualTimer();
        ScheduledFuture<String> pending = timer.schedule(() -> "late", 1, TimeUnit.HOURS);
        for (long timeout : NOT_POSITIVE) {
            TimeoutException e = assertThrows(TimeoutException.class, () -> pending.get(timeout, unit));
            assertTrue(e.getMessage().contains(timeout + " " + unit), e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> pending.get(1, null));
        assertThrows(NullPointerException.class, () -> pending.getDelay(null));
        assertEquals(TimeUnit.HOURS.toNanos(1), pending.getDelay(TimeUnit.NANOSECONDS));
        assertEquals(unit.convert(1, TimeUnit.HOURS), pending.getDelay(unit), "getDelay in " + unit);

        ScheduledFuture<String> done = timer.schedule(() -> "done", 0, unit);
        stepAll(timer);
        for (long timeout : HOSTILE) {
            assertEquals("done", done.get(timeout, unit), "a done future answers whatever the timeout");
        }
        assertTrue(done.getDelay(unit) <= 0);

        // Long.MAX_VALUE as a timeout must not overflow into "already timed out" while blocked.
        AtomicReference<Object> waited = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                waited.set(pending.get(Long.MAX_VALUE, unit));
            } catch (Throwable t) {
                waited.set(t);
            }
        }, "hostile-get-max");
        waiter.start();
        awaitBlocked(waiter);
        clock.addAndGet(TimeUnit.HOURS.toNanos(1));
        stepAll(timer);
        waiter.join(TimeUnit.SECONDS.toMillis(30));
        assertEquals("late", waited.get());
        assertStillUsable(timer);
    }

    // ---------------------------------------------------------------------------------------------------------
    // invokeAll, invokeAny, awaitTermination (need a real owner thread)

    @Test
    void invokeAllAndInvokeAnyRejectNullsAndEmptinessAndHonourEveryTimeout() throws Exception {
        try (WheelTimer timer = WheelTimer.create()) {
            List<Callable<String>> tasks = List.of(() -> "a", () -> "b");
            List<Callable<String>> withNull = Arrays.asList(null, () -> "a");
            CountDownLatch gate = new CountDownLatch(1);
            List<Callable<String>> slow = List.of(() -> {
                gate.await();
                return "slow";
            });
            assertThrows(NullPointerException.class, () -> timer.invokeAll(null));
            assertThrows(NullPointerException.class, () -> timer.invokeAll(withNull));
            assertThrows(NullPointerException.class, () -> timer.invokeAll(tasks, 1, null));
            assertThrows(NullPointerException.class, () -> timer.invokeAny(null));
            assertThrows(NullPointerException.class, () -> timer.invokeAny(withNull));
            assertThrows(IllegalArgumentException.class, () -> timer.invokeAny(Collections.emptyList()));
            assertThrows(NullPointerException.class, () -> timer.invokeAny(tasks, 1, null));
            assertTrue(timer.invokeAll(Collections.<Callable<String>>emptyList()).isEmpty());
            for (TimeUnit unit : TimeUnit.values()) {
                for (long timeout : NOT_POSITIVE) {
                    List<Future<String>> expired = timer.invokeAll(tasks, timeout, unit);
                    for (Future<String> f : expired) {
                        assertTrue(f.isDone(), "invokeAll with timeout " + timeout + " " + unit);
                    }
                    assertThrows(TimeoutException.class, () -> timer.invokeAny(slow, timeout, unit));
                }
                List<Future<String>> all = timer.invokeAll(tasks, Long.MAX_VALUE, unit);
                assertEquals("a", all.get(0).get());
                assertEquals("b", all.get(1).get());
                String any = timer.invokeAny(tasks, Long.MAX_VALUE, unit);
                assertTrue(any.equals("a") || any.equals("b"));
            }
            List<Callable<String>> failing = List.of(() -> {
                throw new IllegalStateException("every task fails");
            });
            ExecutionException e = assertThrows(ExecutionException.class, () -> timer.invokeAny(failing));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertEquals("still usable", timer.submit(() -> "still usable").get(30, TimeUnit.SECONDS));
            gate.countDown();
        }
    }

    /**
     * A timeout of Long.MIN_VALUE must mean "do not wait" even once the owner has exited and only the pool is
     * still finishing a task: the remaining time must not overflow into a wait of centuries.
     */
    @ParameterizedTest
    @EnumSource(TimeUnit.class)
    void awaitTerminationWithEveryTimeoutNeverWaitsForANonPositiveOne(TimeUnit unit) throws Exception {
        FaultThreads threads = new FaultThreads("hostile-await-" + unit);
        WheelTimer timer = WheelTimer.builder().threadFactory(threads).workerThreads(1).build();
        Thread owner = threads.owner();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        timer.execute(() -> {
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(running.await(30, TimeUnit.SECONDS));
        assertThrows(NullPointerException.class, () -> timer.awaitTermination(1, null));
        for (long timeout : NOT_POSITIVE) {
            assertFalse(timer.awaitTermination(timeout, unit), "running: " + timeout + " " + unit);
        }
        timer.shutdown(); // the owner exits (nothing in the wheel); the pool finishes the running task
        awaitCondition("the owner thread exited", () -> owner.getState() == Thread.State.TERMINATED);
        try {
            for (long timeout : NOT_POSITIVE) {
                AtomicReference<Object> answer = new AtomicReference<>();
                Thread caller = new Thread(() -> {
                    try {
                        answer.set(timer.awaitTermination(timeout, unit));
                    } catch (Throwable t) {
                        answer.set(t);
                    }
                }, "hostile-await-caller");
                caller.start();
                awaitCondition("awaitTermination(" + timeout + " " + unit + ") returned or blocked", () -> {
                    Thread.State s = caller.getState();
                    return s == Thread.State.TERMINATED || s == Thread.State.WAITING
                            || s == Thread.State.TIMED_WAITING;
                });
                if (caller.getState() != Thread.State.TERMINATED) {
                    release.countDown();
                    caller.join(TimeUnit.SECONDS.toMillis(30));
                    fail("awaitTermination(" + timeout + " " + unit + ") blocked instead of returning false");
                }
                assertEquals(Boolean.FALSE, answer.get(), "pool still busy: " + timeout + " " + unit);
            }
        } finally {
            release.countDown();
        }
        assertTrue(timer.awaitTermination(Long.MAX_VALUE, unit));
        assertTrue(timer.isTerminated());
        for (long timeout : HOSTILE) {
            assertTrue(timer.awaitTermination(timeout, unit), "terminated: " + timeout + " " + unit);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Builder

    @Test
    void builderSettersRejectEveryInvalidValueNamingItAndKeepThePreviousValue() {
        for (TimeUnit unit : TimeUnit.values()) {
            for (long tick : NOT_POSITIVE) {
                WheelTimer.Builder b = WheelTimer.builder();
                assertNamesValue(assertThrows(IllegalArgumentException.class, () -> b.tick(tick, unit)),
                        tick + " " + unit);
            }
        }
        for (long tick : new long[] {1, 999}) {
            assertNamesValue(assertThrows(IllegalArgumentException.class,
                    () -> WheelTimer.builder().tick(tick, TimeUnit.NANOSECONDS)), tick + " NANOSECONDS");
        }
        assertNamesValue(assertThrows(NullPointerException.class, () -> WheelTimer.builder().tick(1, null)), "unit");
        assertNamesValue(assertThrows(NullPointerException.class,
                () -> WheelTimer.builder().levelBits((int[]) null)), "levelBits");
        assertThrows(IllegalArgumentException.class, () -> WheelTimer.builder().levelBits());
        for (int bad : new int[] {Integer.MIN_VALUE, -1, 0, 13, Integer.MAX_VALUE}) {
            assertNamesValue(assertThrows(IllegalArgumentException.class,
                    () -> WheelTimer.builder().levelBits(6, bad)), bad);
        }
        assertNamesValue(assertThrows(IllegalArgumentException.class,
                () -> WheelTimer.builder().levelBits(12, 12, 12, 12, 12, 12)), 72);
        assertNamesValue(assertThrows(IllegalArgumentException.class,
                () -> WheelTimer.builder().levelBits(6, 6).build()), "sum to 12");
        for (int bad : new int[] {WheelTimer.Builder.MAX_WORKER_THREADS + 1, Integer.MAX_VALUE}) {
            assertNamesValue(assertThrows(IllegalArgumentException.class,
                    () -> WheelTimer.builder().workerThreads(bad)), bad);
        }
        for (int bad : new int[] {Integer.MIN_VALUE, -1, 0}) {
            assertNamesValue(assertThrows(IllegalArgumentException.class,
                    () -> WheelTimer.builder().workerThreads(bad)), bad);
            assertNamesValue(assertThrows(IllegalArgumentException.class,
                    () -> WheelTimer.builder().ownerBatch(bad)), bad);
        }
        for (long bad : NOT_POSITIVE) {
            assertNamesValue(assertThrows(IllegalArgumentException.class,
                    () -> WheelTimer.builder().maxPending(bad)), bad);
        }
        for (int bad : new int[] {Integer.MIN_VALUE, -1, 0, 1, WheelTimer.Builder.MAX_POOLED_QUEUE_CHUNKS + 1,
                Integer.MAX_VALUE}) {
            assertNamesValue(assertThrows(IllegalArgumentException.class,
                    () -> WheelTimer.builder().pooledQueueChunks(bad)), bad);
        }
        assertNamesValue(assertThrows(NullPointerException.class, () -> WheelTimer.builder().executor(null)),
                "executor");
        assertNamesValue(assertThrows(NullPointerException.class, () -> WheelTimer.builder().threadFactory(null)),
                "threadFactory");
        assertNamesValue(assertThrows(NullPointerException.class,
                () -> WheelTimer.builder().threadNamePrefix(null)), "prefix");
        assertNamesValue(assertThrows(NullPointerException.class, () -> WheelTimer.builder().timeSource(null)),
                "timeSource");

        // A rejected value leaves the builder as it was: it still builds, with the earlier settings.
        WheelTimer.Builder b = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run)
                .tick(2, TimeUnit.MILLISECONDS).maxPending(LIMIT);
        assertThrows(IllegalArgumentException.class, () -> b.tick(-1, TimeUnit.MILLISECONDS));
        assertThrows(IllegalArgumentException.class, () -> b.maxPending(0));
        assertThrows(IllegalArgumentException.class, () -> b.levelBits(0));
        assertThrows(NullPointerException.class, () -> b.executor(null));
        WheelTimer timer = b.build();
        assertEquals(2 * MS, timer.tickNanos());
        for (int i = 0; i < LIMIT; i++) {
            timer.schedule(() -> { }, 1, TimeUnit.HOURS);
        }
        assertNamesValue(assertThrows(RejectedExecutionException.class,
                () -> timer.schedule(() -> { }, 1, TimeUnit.HOURS)), "maxPending " + LIMIT);
        assertEquals(LIMIT, timer.shutdownNow().size());
    }

    /** The extreme valid builder values work: the largest tick, the smallest tick, a limit of Long.MAX_VALUE. */
    @Test
    void builderTakesTheExtremeValidValues() throws Exception {
        for (TimeUnit unit : new TimeUnit[] {TimeUnit.NANOSECONDS, TimeUnit.DAYS}) {
            WheelTimer huge = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run)
                    .tick(Long.MAX_VALUE, unit).maxPending(Long.MAX_VALUE).build();
            assertEquals(Long.MAX_VALUE, huge.tickNanos());
            AtomicInteger runs = new AtomicInteger();
            huge.schedule(runs::incrementAndGet, 0, TimeUnit.NANOSECONDS);
            ScheduledFuture<?> later = huge.schedule(runs::incrementAndGet, 1, TimeUnit.NANOSECONDS);
            stepAll(huge);
            assertEquals(1, runs.get());
            clock.addAndGet(TimeUnit.DAYS.toNanos(1000));
            stepAll(huge);
            assertEquals(1, runs.get(), "a 1 ns delay waits for the end of a 292-year tick");
            assertTrue(later.cancel(false));
            assertTrue(huge.shutdownNow().isEmpty());
        }
        WheelTimer fine = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run)
                .tick(WheelTimer.MIN_TICK_NANOS, TimeUnit.NANOSECONDS).build();
        ScheduledFuture<String> f = fine.schedule(() -> "µs", 3, TimeUnit.MICROSECONDS);
        ScheduledFuture<String> far = fine.schedule(() -> "far", Long.MAX_VALUE, TimeUnit.DAYS);
        clock.addAndGet(2_999);
        stepAll(fine);
        assertFalse(f.isDone(), "not early at 1 µs ticks");
        clock.addAndGet(1);
        stepAll(fine);
        assertEquals("µs", f.get());
        assertEquals(List.of(far), fine.shutdownNow());
    }

    /** A time source may start anywhere, like System.nanoTime(): near Long.MAX_VALUE it wraps around. */
    @Test
    void timeSourceReadingsAcrossTheWrapAroundKeepEveryTimerOnItsTick() throws Exception {
        for (long start : new long[] {Long.MAX_VALUE - 3 * MS, Long.MIN_VALUE, -1, Long.MAX_VALUE}) {
            AtomicLong wrapping = new AtomicLong(start);
            WheelTimer timer = WheelTimer.builder().timeSource(wrapping::get).manualDrive().executor(Runnable::run)
                    .build();
            List<ScheduledFuture<Long>> futures = new ArrayList<>();
            for (int ms = 0; ms <= 10; ms++) {
                futures.add(timer.schedule(() -> wrapping.get() - start, ms, TimeUnit.MILLISECONDS));
            }
            ScheduledFuture<Long> huge = timer.schedule(() -> -1L, Long.MAX_VALUE, TimeUnit.NANOSECONDS);
            for (int ms = 0; ms <= 10; ms++) {
                wrapping.set(start + ms * MS);
                stepAll(timer);
                for (int k = 0; k <= 10; k++) {
                    assertEquals(k <= ms, futures.get(k).isDone(), "start " + start + ", at " + ms + " ms, timer " + k);
                }
            }
            for (int k = 0; k <= 10; k++) {
                assertEquals(k * MS, futures.get(k).get(), "ran exactly at its tick, start " + start);
            }
            assertTrue(huge.getDelay(TimeUnit.DAYS) > 100 * 365, "start " + start);
            assertEquals(List.of(huge), timer.shutdownNow());
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Lifecycle calls from many threads at once

    @Test
    void cancelFromManyThreadsAtOnceSucceedsExactlyOncePerTimer() throws Exception {
        int threads = 8;
        int timers = 300;
        try (WheelTimer timer = WheelTimer.create()) {
            List<ScheduledFuture<?>> futures = new ArrayList<>();
            for (int i = 0; i < timers; i++) {
                futures.add(i % 3 == 0 ? timer.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS)
                        : timer.schedule(() -> { }, 1, TimeUnit.HOURS));
            }
            AtomicInteger[] wins = new AtomicInteger[timers];
            Arrays.setAll(wins, i -> new AtomicInteger());
            AtomicReference<Throwable> problem = new AtomicReference<>();
            CyclicBarrier start = new CyclicBarrier(threads);
            Thread[] cancellers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                long seed = t;
                cancellers[t] = new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    try {
                        start.await();
                        for (int round = 0; round < 3; round++) {
                            for (int k = 0; k < timers; k++) {
                                int i = (k * 7 + (int) seed * 31) % timers;
                                if (futures.get(i).cancel(random.nextBoolean())) {
                                    wins[i].incrementAndGet();
                                }
                            }
                        }
                    } catch (Throwable e) {
                        problem.compareAndSet(null, e);
                    }
                });
                cancellers[t].start();
            }
            for (Thread t : cancellers) {
                t.join();
            }
            assertNull(problem.get(), () -> "a cancel threw: " + problem.get());
            for (int i = 0; i < timers; i++) {
                assertEquals(1, wins[i].get(), "cancel returned true exactly once for timer " + i);
                assertTrue(futures.get(i).isCancelled());
            }
            assertEquals(timers, timer.metrics().cancelled());
            assertEquals(0, timer.metrics().pending());
            assertTrue(timer.shutdownNow().isEmpty());
        }
    }

    /**
     * Rounds of: a timer with pending one-shot and periodic timers and two producers still scheduling; eight
     * threads call shutdown, shutdownNow, close, awaitTermination and the queries at once, several times each.
     * Nothing throws but the producers' RejectedExecutionException; the shutdownNow lists together hold every
     * pending one-shot exactly once; a periodic timer is either in them once or ended by the shutdown; every
     * timer a producer got accepted is accounted for exactly one way; the timer terminates.
     */
    @Test
    void shutdownShutdownNowAndCloseFromManyThreadsAtOnceAreIdempotentAndHandBackEachTimerOnce() throws Exception {
        int rounds = 10 * Integer.getInteger("tickwheel.test.scale", 1);
        int callers = 8;
        for (int round = 0; round < rounds; round++) {
            WheelTimer timer = WheelTimer.builder().workerThreads(2).build();
            List<ScheduledFuture<?>> oneShots = new ArrayList<>();
            List<ScheduledFuture<?>> periodics = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                oneShots.add(timer.schedule(() -> { }, 1 + i, TimeUnit.MINUTES));
            }
            for (int i = 0; i < 20; i++) {
                periodics.add(timer.scheduleWithFixedDelay(() -> { }, 1 + i, 1, TimeUnit.HOURS));
            }
            ConcurrentLinkedQueue<Runnable> handedBack = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<ScheduledFuture<?>> racing = new ConcurrentLinkedQueue<>();
            AtomicReference<Throwable> problem = new AtomicReference<>();
            AtomicBoolean stopProducers = new AtomicBoolean();
            CyclicBarrier start = new CyclicBarrier(callers + 2);
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                        while (!stopProducers.get()) {
                            try {
                                racing.add(timer.schedule(() -> { }, 1, TimeUnit.HOURS));
                            } catch (RejectedExecutionException e) {
                                return;
                            }
                        }
                    } catch (Throwable e) {
                        problem.compareAndSet(null, e);
                    }
                }, "hostile-producer-" + p));
            }
            long seed = round;
            for (int c = 0; c < callers; c++) {
                int caller = c;
                threads.add(new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(seed * 100 + caller);
                    try {
                        start.await();
                        for (int k = 0; k < 6; k++) {
                            // caller 0 never closes (close waits for termination): it makes sure a shutdownNow comes
                            int op = caller == 0 && k == 3 ? 1 : random.nextInt(caller == 0 ? 2 : 5);
                            switch (op) {
                                case 0: timer.shutdown(); break;
                                case 1: handedBack.addAll(timer.shutdownNow()); break;
                                case 2: timer.close(); break;
                                case 3: timer.awaitTermination(random.nextBoolean() ? 0 : Long.MIN_VALUE,
                                        TimeUnit.NANOSECONDS); break;
                                default: timer.isShutdown(); timer.isTerminated(); timer.metrics(); break;
                            }
                        }
                    } catch (Throwable e) {
                        problem.compareAndSet(null, e);
                    }
                }, "hostile-caller-" + c));
            }
            for (Thread t : threads) {
                t.start();
            }
            for (Thread t : threads.subList(2, threads.size())) {
                t.join(TimeUnit.SECONDS.toMillis(60));
                assertFalse(t.isAlive(), t.getName() + " hung (round " + round + ")");
            }
            stopProducers.set(true);
            for (Thread t : threads.subList(0, 2)) {
                t.join(TimeUnit.SECONDS.toMillis(60));
            }
            assertNull(problem.get(), () -> "a lifecycle call threw: " + problem.get());
            assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS), "round " + round);

            Map<Runnable, Integer> times = new IdentityHashMap<>();
            for (Runnable r : handedBack) {
                times.merge(r, 1, Integer::sum);
            }
            for (ScheduledFuture<?> f : oneShots) {
                assertEquals(1, times.getOrDefault(f, 0), "a pending one-shot handed back once (round " + round
                        + ")");
            }
            for (ScheduledFuture<?> f : periodics) {
                int n = times.getOrDefault(f, 0);
                assertTrue(n == 1 && !f.isCancelled() || n == 0 && f.isCancelled(),
                        "a periodic timer handed back once or ended by shutdown, not both (round " + round + ")");
            }
            for (ScheduledFuture<?> f : racing) {
                int n = times.getOrDefault(f, 0);
                assertTrue(n == 1 && !f.isDone() || n == 0 && f.isCancelled(),
                        "a racing schedule's timer handed back once or revoked (round " + round + "): " + f);
            }
            assertEquals(oneShots.size() + periodics.size() + racing.size(), times.size() + countCancelled(
                    periodics) + countCancelled(racing), "nothing else was handed back (round " + round + ")");
            assertEquals(0, timer.metrics().pending(), "round " + round);
            assertTrue(timer.shutdownNow().isEmpty());
            timer.close();
        }
    }

    private static int countCancelled(List<? extends Future<?>> futures) {
        int n = 0;
        for (Future<?> f : futures) {
            if (f.isCancelled()) {
                n++;
            }
        }
        return n;
    }

    private static int countCancelled(ConcurrentLinkedQueue<? extends Future<?>> futures) {
        return countCancelled(new ArrayList<>(futures));
    }

    /**
     * close() called from one of the timer's own tasks: the javadoc says it shuts down without waiting for itself
     * (waiting would deadlock: the pool cannot terminate while the task that waits runs on it).
     */
    @ParameterizedTest
    @EnumSource(WheelTimerFaultTest.Runner.class)
    void closeCalledFromOneOfTheTimersOwnTasksShutsDownWithoutWaitingForItself(WheelTimerFaultTest.Runner runner)
            throws Exception {
        WheelTimer.Builder b = WheelTimer.builder();
        WheelTimer timer = (runner == WheelTimerFaultTest.Runner.OWN_POOL ? b.workerThreads(1)
                : b.runTasksOnOwnerThread()).build();
        ScheduledFuture<String> closing = timer.schedule(() -> {
            timer.close();
            return "closed from inside";
        }, 1, TimeUnit.MILLISECONDS);
        try {
            assertEquals("closed from inside", closing.get(30, TimeUnit.SECONDS));
        } catch (TimeoutException e) {
            timer.shutdownNow();
            fail("close() from a task of the timer waited for itself (" + runner + ")");
        }
        assertTrue(timer.isShutdown());
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        assertTrue(timer.isTerminated());
    }
}

package dev.tickwheel;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * The periodic failure policy, on a manual clock (1 ms tick; tasks run inside {@code step()} on this thread): by
 * default a periodic task that throws ends, its future holding the exception, as in the JDK; with
 * {@code continuePeriodicOnFailure} an {@link Exception} is reported and the timer keeps its schedule, an
 * {@link Error} still ends it, and every continued failure is counted in the metrics.
 */
class PeriodicFailurePolicyTest {

    private static WheelTimer timer(ManualTimeSource clock, BiConsumer<? super TimerFuture<?>, ? super Throwable> h) {
        WheelTimer.Builder b = WheelTimer.builder().timeSource(clock).tick(1, MILLISECONDS).manualDrive()
                .executor(Runnable::run);
        return (h == null ? b : b.continuePeriodicOnFailure(h)).build();
    }

    /** Advances the clock by one period at a time, stepping the owner after each; returns nothing. */
    private static void periods(WheelTimer t, ManualTimeSource clock, int n, long periodMs) {
        for (int i = 0; i < n; i++) {
            clock.advance(periodMs, MILLISECONDS);
            OwnerLoop.of(t).step();
        }
    }

    /** Sends this thread's uncaught exceptions to {@code into}; returns its own handler (null: its group's). */
    private static Thread.UncaughtExceptionHandler collectUncaught(List<Throwable> into) {
        Thread me = Thread.currentThread();
        Thread.UncaughtExceptionHandler before = me.getUncaughtExceptionHandler() == me.getThreadGroup() ? null
                : me.getUncaughtExceptionHandler();
        me.setUncaughtExceptionHandler((thread, e) -> into.add(e));
        return before;
    }

    @Test
    void byDefaultAPeriodicTaskThatThrowsEndsWithItsException() throws Exception {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = timer(clock, null);
        AtomicInteger runs = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("boom");
        ScheduledFuture<?> f = t.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 2) {
                throw boom;
            }
        }, 10, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        periods(t, clock, 5, 10);
        assertEquals(2, runs.get(), "no run after the one that threw");
        assertTrue(f.isDone());
        ExecutionException e = assertThrows(ExecutionException.class, f::get);
        assertSame(boom, e.getCause());
        assertEquals(0, t.metrics().periodicFailures());
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void continuingTimersReportEachExceptionAndKeepTheirSchedule() {
        ManualTimeSource clock = new ManualTimeSource(0);
        List<Object[]> reported = new ArrayList<>();
        WheelTimer t = timer(clock, (future, failure) -> reported.add(new Object[] {future, failure}));
        AtomicInteger runs = new AtomicInteger();
        List<Long> ranAt = new ArrayList<>();
        ScheduledFuture<?> f = t.scheduleAtFixedRate(() -> {
            ranAt.add(clock.nanoTime());
            int n = runs.incrementAndGet();
            if (n == 1 || n == 3) {
                throw new IllegalArgumentException("run " + n);
            }
        }, 10, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        periods(t, clock, 5, 10);
        assertEquals(5, runs.get(), "every period ran, the failing ones included");
        for (int i = 0; i < ranAt.size(); i++) {
            assertEquals(MILLISECONDS.toNanos(10L * (i + 1)), ranAt.get(i), "run " + (i + 1) + " kept the fixed rate");
        }
        assertEquals(2, reported.size());
        assertSame(f, reported.get(0)[0], "the handler gets the timer's own future");
        assertEquals("run 1", ((Throwable) reported.get(0)[1]).getMessage());
        assertEquals("run 3", ((Throwable) reported.get(1)[1]).getMessage());
        assertFalse(f.isDone(), "a continuing timer is still pending");
        assertEquals(2, t.metrics().periodicFailures());
        assertTrue(f.cancel(false));
        OwnerLoop.of(t).step();
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void fixedDelayAlsoGoesOnAfterAFailure() {
        ManualTimeSource clock = new ManualTimeSource(0);
        AtomicInteger reported = new AtomicInteger();
        WheelTimer t = timer(clock, (future, failure) -> reported.incrementAndGet());
        AtomicInteger runs = new AtomicInteger();
        t.scheduleWithFixedDelay(() -> {
            runs.incrementAndGet();
            throw new RuntimeException("always");
        }, 5, 5, MILLISECONDS);
        OwnerLoop.of(t).step();
        periods(t, clock, 4, 5);
        assertEquals(4, runs.get());
        assertEquals(4, reported.get());
        assertEquals(4, t.metrics().periodicFailures());
    }

    @Test
    void anErrorStillEndsAContinuingTimer() {
        ManualTimeSource clock = new ManualTimeSource(0);
        AtomicInteger reported = new AtomicInteger();
        WheelTimer t = timer(clock, (future, failure) -> reported.incrementAndGet());
        AtomicInteger runs = new AtomicInteger();
        AssertionError fatal = new AssertionError("fatal");
        ScheduledFuture<?> f = t.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            throw fatal;
        }, 10, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        periods(t, clock, 3, 10);
        assertEquals(1, runs.get());
        assertEquals(0, reported.get(), "an Error is not reported as a continued failure");
        ExecutionException e = assertThrows(ExecutionException.class, f::get);
        assertSame(fatal, e.getCause());
        assertEquals(0, t.metrics().periodicFailures());
    }

    @Test
    void aHandlerThatThrowsGoesToTheThreadAndTheTimerGoesOn() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = timer(clock, (future, failure) -> {
            throw new IllegalStateException("handler broke");
        });
        List<Throwable> uncaught = new ArrayList<>();
        Thread.UncaughtExceptionHandler before = collectUncaught(uncaught);
        try {
            AtomicInteger runs = new AtomicInteger();
            t.scheduleAtFixedRate(() -> {
                runs.incrementAndGet();
                throw new RuntimeException("task");
            }, 10, 10, MILLISECONDS);
            OwnerLoop.of(t).step();
            periods(t, clock, 3, 10);
            assertEquals(3, runs.get());
            assertEquals(3, uncaught.size());
            assertEquals("handler broke", uncaught.get(0).getMessage());
        } finally {
            Thread.currentThread().setUncaughtExceptionHandler(before);
        }
    }

    @Test
    void theDefaultHandlerIsTheRunningThreadsUncaughtExceptionHandler() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = WheelTimer.builder().timeSource(clock).tick(1, MILLISECONDS).manualDrive()
                .executor(Runnable::run).continuePeriodicOnFailure().build();
        List<Throwable> uncaught = new ArrayList<>();
        Thread.UncaughtExceptionHandler before = collectUncaught(uncaught);
        try {
            RuntimeException task = new RuntimeException("task");
            ScheduledFuture<?> f = t.scheduleAtFixedRate(() -> {
                throw task;
            }, 10, 10, MILLISECONDS);
            OwnerLoop.of(t).step();
            periods(t, clock, 2, 10);
            assertEquals(List.of(task, task), uncaught);
            assertFalse(f.isDone());
        } finally {
            Thread.currentThread().setUncaughtExceptionHandler(before);
        }
    }

    @Test
    void aRunEndedByCancelIsNotReported() {
        ManualTimeSource clock = new ManualTimeSource(0);
        AtomicInteger reported = new AtomicInteger();
        WheelTimer t = timer(clock, (future, failure) -> reported.incrementAndGet());
        ScheduledFuture<?>[] self = new ScheduledFuture<?>[1];
        self[0] = t.scheduleAtFixedRate(() -> {
            self[0].cancel(false); // the run is ended by its own cancel, then fails
            throw new RuntimeException("after cancel");
        }, 10, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        periods(t, clock, 3, 10);
        assertEquals(0, reported.get());
        assertThrows(CancellationException.class, self[0]::get);
        assertEquals(0, t.metrics().periodicFailures());
    }

    @Test
    void aNullHandlerIsRejected() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> WheelTimer.builder().continuePeriodicOnFailure(null));
        assertTrue(e.getMessage().contains("handler"), e.getMessage());
    }
}

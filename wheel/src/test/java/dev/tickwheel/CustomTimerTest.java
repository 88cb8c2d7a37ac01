package dev.tickwheel;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link CustomTimer}, the extension point that lets another module's class be the timer: it runs its own task once
 * and never early, both cancels and {@code shutdownNow} treat it as any one-shot timer, it is scheduled once, and
 * scheduling it allocates nothing. Deterministic cases step a manually driven timer on a {@link ManualTimeSource};
 * the race between cancel and fire runs on real threads.
 */
class CustomTimerTest {

    /** The tests' keys and deadlines are in whole milliseconds: a 1 ms tick, not the default. */
    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);

    /** A custom timer as an adapter would write one: a field of its own, and a task that records what it sees. */
    static final class Probe extends CustomTimer {
        final AtomicInteger runs = new AtomicInteger();
        final AtomicReference<Boolean> startedInside = new AtomicReference<>();
        final AtomicReference<Boolean> strictCancelInside = new AtomicReference<>();
        volatile RuntimeException toThrow;
        volatile long ranAtNanos;
        private final TimeSource clock;

        Probe(WheelTimer timer, TimeSource clock) {
            super(timer);
            this.clock = clock;
        }

        void start(long delay, TimeUnit unit) {
            schedule(delay, unit);
        }

        boolean started() {
            return isStarted();
        }

        @Override
        protected void runTask() {
            ranAtNanos = clock.nanoTime();
            runs.incrementAndGet();
            startedInside.set(isStarted());
            strictCancelInside.set(cancelIfNotStarted());
            RuntimeException e = toThrow;
            if (e != null) {
                throw e;
            }
        }
    }

    private static WheelTimer manualTimer(ManualTimeSource clock) {
        return WheelTimer.builder().tick(TICK, NANOSECONDS).timeSource(clock).manualDrive().executor(Runnable::run).build();
    }

    @Test
    void runsItsOwnTaskOnceAtItsTimeAndNeverEarly() throws Exception {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        Probe p = new Probe(t, clock);
        assertFalse(p.started());
        p.start(5, MILLISECONDS);
        assertEquals(1, t.metrics().pending());
        clock.advance(5 * TICK - 1, NANOSECONDS);
        OwnerLoop.of(t).step();
        assertEquals(0, p.runs.get(), "ran before its delay");
        assertFalse(p.started());
        assertFalse(p.isDone());
        clock.advance(1, NANOSECONDS);
        OwnerLoop.of(t).step();
        assertEquals(1, p.runs.get());
        assertEquals(5 * TICK, p.ranAtNanos);
        assertTrue(p.startedInside.get(), "isStarted() inside the task");
        assertFalse(p.strictCancelInside.get(), "the strict cancel won against its own running task");
        assertTrue(p.started());
        assertTrue(p.isDone());
        assertFalse(p.isCancelled());
        assertNull(p.get());
        assertFalse(p.cancelIfNotStarted());
        assertFalse(p.cancel(true));
        clock.advance(1, HOURS);
        OwnerLoop.of(t).step();
        assertEquals(1, p.runs.get(), "ran twice");
        assertEquals(0, t.metrics().pending());
        assertEquals(1, t.metrics().fired());
    }

    @Test
    void strictCancelBeforeItIsDueWinsAndTheTaskNeverRuns() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        Probe p = new Probe(t, clock);
        p.start(1, SECONDS);
        OwnerLoop.of(t).step(); // in the wheel now
        assertTrue(p.cancelIfNotStarted());
        assertFalse(p.cancelIfNotStarted(), "a second cancel also won");
        assertTrue(p.isCancelled());
        assertFalse(p.started());
        assertThrows(CancellationException.class, p::get);
        clock.advance(2, SECONDS);
        OwnerLoop.of(t).step();
        assertEquals(0, p.runs.get());
        assertEquals(0, t.metrics().pending());
        assertEquals(0, OwnerLoop.of(t).wheel().size(), "a cancelled custom timer left in the wheel");
    }

    @Test
    void aTaskThatThrowsFailsItsFutureAndTheTimerCarriesOn() throws Exception {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        Probe failing = new Probe(t, clock);
        failing.toThrow = new IllegalStateException("task failure");
        Probe next = new Probe(t, clock);
        failing.start(1, MILLISECONDS);
        next.start(2, MILLISECONDS);
        clock.advance(2, MILLISECONDS);
        OwnerLoop.of(t).step();
        ExecutionException e = assertThrows(ExecutionException.class, failing::get);
        assertSame(failing.toThrow, e.getCause());
        assertTrue(failing.started(), "a task that threw has started");
        assertEquals(1, next.runs.get());
        assertNull(next.get());
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void isScheduledOnceAndRejectedWhenTheTimerIsShutDown() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        Probe p = new Probe(t, clock);
        p.start(1, HOURS);
        assertThrows(IllegalStateException.class, () -> p.start(1, HOURS));
        assertEquals(1, t.metrics().pending(), "a second schedule was counted");
        assertThrows(NullPointerException.class, () -> new Probe(t, clock).start(1, null));
        assertThrows(NullPointerException.class, () -> new Probe(null, clock));

        t.shutdown();
        Probe late = new Probe(t, clock);
        assertThrows(RejectedExecutionException.class, () -> late.start(1, MILLISECONDS));
        assertThrows(IllegalStateException.class, () -> late.start(1, MILLISECONDS), "rescheduled after a rejection");
        clock.advance(2, HOURS);
        OwnerLoop.of(t).step();
        assertEquals(1, p.runs.get(), "shutdown() lets a scheduled custom timer run at its time");
        assertEquals(0, late.runs.get(), "a rejected custom timer ran");
    }

    @Test
    void shutdownNowHandsTheCustomTimerItselfBack() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        Probe inWheel = new Probe(t, clock);
        inWheel.start(1, HOURS);
        OwnerLoop.of(t).step();
        Probe inQueue = new Probe(t, clock);
        inQueue.start(Long.MAX_VALUE, DAYS);

        List<Runnable> back = t.shutdownNow();

        assertEquals(2, back.size(), back::toString);
        assertTrue(ScheduledExecutorContractTest.containsSame(back, inWheel));
        assertTrue(ScheduledExecutorContractTest.containsSame(back, inQueue));
        assertFalse(inWheel.started(), "handed back is not started");
        assertTrue(inQueue.cancelIfNotStarted(), "the strict cancel of a handed-back timer");
        assertTrue(inQueue.isCancelled());
        inWheel.run(); // the caller of shutdownNow may run what it got back
        assertEquals(1, inWheel.runs.get());
        assertTrue(inWheel.started());
        assertEquals(0, inQueue.runs.get());
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void countsAgainstMaxPendingAndAcceptsTheLongestDelays() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = WheelTimer.builder().tick(TICK, NANOSECONDS).timeSource(clock).manualDrive().executor(Runnable::run).maxPending(2)
                .build();
        Probe nanos = new Probe(t, clock);
        nanos.start(Long.MAX_VALUE, NANOSECONDS);
        Probe days = new Probe(t, clock);
        days.start(Long.MAX_VALUE, DAYS);
        assertTrue(days.getDelay(DAYS) > 100_000, "Long.MAX_VALUE days reads " + days.getDelay(DAYS) + " days");
        RejectedExecutionException full = assertThrows(RejectedExecutionException.class,
                () -> new Probe(t, clock).start(1, MILLISECONDS));
        assertTrue(full.getMessage().contains("maxPending 2"), full.getMessage());
        clock.advance(365, DAYS);
        OwnerLoop.of(t).step();
        assertEquals(0, nanos.runs.get() + days.runs.get());
        assertTrue(days.cancelIfNotStarted());
        new Probe(t, clock).start(1, MILLISECONDS); // the cancel freed a place
        assertEquals(2, t.metrics().pending());
    }

    @Test
    void schedulingAllocatesNothingBeyondTheTimer() throws Exception {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        int n = 1000; // within the start queue's first chunk, which the timer allocated when it was built
        List<Probe> probes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            probes.add(new Probe(t, clock));
        }
        long before = allocatedBytesOfThisThread();
        for (int i = 0; i < n; i++) {
            probes.get(i).start(i + 1, SECONDS);
        }
        long allocated = allocatedBytesOfThisThread() - before;
        // The timer itself is 48 bytes or more; the bound only allows for the measurement's own noise.
        assertTrue(allocated < 8L * n, n + " schedule calls allocated " + allocated + " bytes");
        assertEquals(n, t.metrics().pending());
    }

    /**
     * HotSpot's per-thread allocation counter, reached by reflection: this module does not read the management
     * modules, and core reflection needs no readability.
     */
    private static long allocatedBytesOfThisThread() throws Exception {
        Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                .invoke(null);
        Method allocated = Class.forName("com.sun.management.ThreadMXBean")
                .getMethod("getThreadAllocatedBytes", long.class);
        return (Long) allocated.invoke(bean, Thread.currentThread().getId());
    }

    @Test
    void exactlyOneOfStrictCancelAndFireWinsOnRealThreads() throws Exception {
        int n = 2_000;
        try (WheelTimer t = WheelTimer.create()) {
            List<Probe> probes = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                Probe p = new Probe(t, TimeSource.SYSTEM);
                p.start(i % 3, MILLISECONDS);
                probes.add(p);
            }
            boolean[] cancelled = new boolean[n];
            for (int i = 0; i < n; i++) {
                cancelled[i] = probes.get(i).cancelIfNotStarted();
            }
            for (int i = 0; i < n; i++) {
                if (!cancelled[i]) {
                    assertNull(probes.get(i).get(30, SECONDS), "timer " + i); // a hang guard, not a timing bound
                }
            }
            int ran = 0;
            for (int i = 0; i < n; i++) {
                Probe p = probes.get(i);
                assertEquals(cancelled[i] ? 0 : 1, p.runs.get(), "timer " + i + ": cancelled " + cancelled[i]);
                assertEquals(cancelled[i], p.isCancelled(), "timer " + i);
                assertEquals(!cancelled[i], p.started(), "timer " + i);
                ran += p.runs.get();
            }
            assertEquals(n, ran + t.metrics().cancelled());
        }
    }
}

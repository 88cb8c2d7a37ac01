package dev.tickwheel;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The contract suite against a default {@link WheelTimer} on real threads, plus the cases where WheelTimer
 * legitimately differs from {@link java.util.concurrent.ScheduledThreadPoolExecutor} or has more to promise
 * (stricter cancel, executor rejection, the pending limit, the builder, threads, close).
 */
class WheelTimerContractTest extends ScheduledExecutorContractTest {

    @Override
    ScheduledExecutorService newExecutor() {
        return WheelTimer.create();
    }

    @Override
    ScheduledExecutorService newExecutor(int workers) {
        return WheelTimer.builder().workerThreads(workers).build();
    }

    /** As {@link WheelTimer#create()} documents: its own pool of max(2, CPUs) workers. */
    @Override
    int workerThreads() {
        return Math.max(2, Runtime.getRuntime().availableProcessors());
    }

    @Override
    long delayRoundingNanos() {
        return WheelTimer.DEFAULT_TICK_NANOS;
    }

    private WheelTimer timer() {
        return (WheelTimer) executor;
    }

    // ==========================================================================================================
    // More than the JDK: the strict cancel (cancel itself follows FutureTask, in the shared suite)

    @Test
    void everyScheduleMethodReturnsATimerFuture() {
        TimerFuture<?> a = timer().schedule(() -> { }, 1, HOURS);
        TimerFuture<String> b = timer().schedule(() -> "b", 1, HOURS);
        TimerFuture<?> c = timer().scheduleAtFixedRate(() -> { }, 1, 1, HOURS);
        TimerFuture<?> d = timer().scheduleWithFixedDelay(() -> { }, 1, 1, HOURS);
        TimerFuture<?> e = timer().submit(() -> { });
        TimerFuture<String> f = timer().submit(() -> "f");
        TimerFuture<String> g = timer().submit(() -> { }, "g");
        for (TimerFuture<?> x : List.of(a, b, c, d)) {
            assertTrue(x.cancelIfNotStarted());
            assertTrue(x.isCancelled());
        }
        for (TimerFuture<?> x : List.of(e, f, g)) { // due now: the strict cancel may lose to the run
            if (x.cancelIfNotStarted()) {
                assertThrows(CancellationException.class, () -> x.get(0, SECONDS));
            } else {
                assertDoesNotThrow(() -> x.get(LONG_WAIT_SECONDS, SECONDS), "lost to the run, which completes");
            }
        }
    }

    /**
     * The strict cancel fails against a one-shot that has started: the task completes with its result, and nothing
     * is interrupted. ({@code cancel} itself would return true here, as the JDK's does.)
     */
    @Test
    void cancelIfNotStartedOfARunningOneShotReturnsFalseAndTheTaskCompletes() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        TimerFuture<String> f = timer().schedule(() -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            return "completed";
        }, 0, SECONDS);
        await(started, "the task");

        assertFalse(f.cancelIfNotStarted());
        assertFalse(f.isCancelled());
        assertFalse(f.isDone());
        release.countDown();

        assertEquals("completed", f.get(LONG_WAIT_SECONDS, SECONDS));
        assertFalse(f.isCancelled());
        assertFalse(interrupted.get(), "the strict cancel interrupted the task");
        assertEquals(0, timer().metrics().cancelled());
    }

    @Test
    void cancelIfNotStartedBeforeTheFireReturnsTrueAndTheTaskNeverRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        TimerFuture<?> f = timer().schedule(runs::incrementAndGet, 1, HOURS);

        assertTrue(f.cancelIfNotStarted());
        assertFalse(f.cancelIfNotStarted(), "a second strict cancel");
        assertFalse(f.cancel(false), "a cancel after the strict one");
        assertTrue(f.isCancelled());
        assertTrue(f.isDone());
        assertThrows(CancellationException.class, () -> f.get(0, SECONDS));
        assertEquals(1, timer().metrics().cancelled());
        assertEquals(0, runs.get());
    }

    /** Periodic: the strict cancel succeeds between runs (no run in progress) and fails during one. */
    @Test
    void cancelIfNotStartedOfAPeriodicTimerFailsDuringARunAndSucceedsBetweenRuns() throws Exception {
        CountDownLatch inRun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        TimerFuture<?> f = timer().scheduleWithFixedDelay(() -> {
            if (runs.incrementAndGet() == 1) {
                inRun.countDown();
                awaitUninterruptibly(release);
            }
        }, 0, 1, HOURS);
        await(inRun, "the first run");

        assertFalse(f.cancelIfNotStarted(), "succeeded against a run in progress");
        assertFalse(f.isCancelled());
        release.countDown();
        // The run ends and the timer waits an hour for the next one: between runs, the strict cancel wins.
        long deadline = System.nanoTime() + SECONDS.toNanos(LONG_WAIT_SECONDS);
        boolean cancelled;
        while (!(cancelled = f.cancelIfNotStarted()) && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // the runner is between its task's return and its CAS back to pending
        }
        assertTrue(cancelled, "never cancelled between runs");
        assertTrue(f.isCancelled());
        assertEquals(1, runs.get());
    }

    // ==========================================================================================================
    // Executors, limits, threads

    @Test
    void executorRejectionCompletesTheFutureExceptionallyWithTheRejection() throws Exception {
        RejectedExecutionException full = new RejectedExecutionException("the user's executor is full");
        WheelTimer t = WheelTimer.builder().executor(task -> {
            throw full;
        }).build();
        try {
            AtomicInteger runs = new AtomicInteger();
            ScheduledFuture<?> oneShot = t.schedule(runs::incrementAndGet, 1, MILLISECONDS);
            ScheduledFuture<?> periodic = t.scheduleAtFixedRate(runs::incrementAndGet, 0, 1, MILLISECONDS);

            for (ScheduledFuture<?> f : List.of(oneShot, periodic)) {
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> f.get(LONG_WAIT_SECONDS, SECONDS));
                assertSame(full, e.getCause());
                assertTrue(f.isDone());
                assertFalse(f.isCancelled());
            }
            assertEquals(0, runs.get());
        } finally {
            shutDown(t);
        }
        // Read after termination: a future completes (and get returns) just before its pending count is released.
        assertEquals(0, t.metrics().pending(), t.metrics()::toString);
    }

    @Test
    void maxPendingRejectsPastTheLimitNamingIt() throws Exception {
        WheelTimer t = WheelTimer.builder().maxPending(3).build();
        try {
            ScheduledFuture<?> first = t.schedule(() -> { }, 1, HOURS);
            t.schedule(() -> { }, 1, HOURS);
            t.scheduleAtFixedRate(() -> { }, 1, 1, HOURS);

            RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                    () -> t.schedule(() -> { }, 1, HOURS));
            assertTrue(e.getMessage().contains("maxPending 3"), e.getMessage());
            assertThrows(RejectedExecutionException.class, () -> t.execute(() -> { }));
            assertEquals(3, t.metrics().pending());
            assertEquals(2, t.metrics().rejected());

            assertTrue(first.cancel(false)); // frees a place
            assertEquals("fits again", t.schedule(() -> "fits again", 0, SECONDS).get(LONG_WAIT_SECONDS, SECONDS));
        } finally {
            shutDown(t);
        }
    }

    @Test
    void builderRejectsBadValuesNamingThem() {
        assertRejected(() -> WheelTimer.builder().tick(0, MILLISECONDS), "tick 0");
        assertRejected(() -> WheelTimer.builder().tick(-1, MILLISECONDS), "tick -1");
        assertRejected(() -> WheelTimer.builder().tick(999, NANOSECONDS), "tick 999");
        assertRejected(() -> WheelTimer.builder().levelBits(6, 0, 6), "0");
        assertRejected(() -> WheelTimer.builder().levelBits(6, 13), "13");
        assertRejected(() -> WheelTimer.builder().levelBits(12, 12, 12, 12, 12, 12), "72");
        assertRejected(() -> WheelTimer.builder().levelBits(6, 6).build(), "levelBits sum to 12");
        assertRejected(() -> WheelTimer.builder().workerThreads(0), "workerThreads 0");
        assertRejected(() -> WheelTimer.builder().maxPending(0), "maxPending 0");
        assertRejected(() -> WheelTimer.builder().ownerBatch(0), "ownerBatch 0");
        assertThrows(NullPointerException.class, () -> WheelTimer.builder().tick(1, null));
        assertThrows(NullPointerException.class, () -> WheelTimer.builder().executor(null));
        assertThrows(NullPointerException.class, () -> WheelTimer.builder().timeSource(null));
        assertThrows(NullPointerException.class, () -> WheelTimer.builder().threadFactory(null));
    }

    private static void assertRejected(Executable call, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call, named);
        assertTrue(e.getMessage() != null && e.getMessage().contains(named),
                () -> "the message should name \"" + named + "\": " + e.getMessage());
    }

    /**
     * WheelTimer only: the caller of {@code shutdownNow} may run the tasks handed back, and their futures complete.
     * The JDK's returned tasks cancel themselves when run after shutdownNow.
     */
    @Test
    void shutdownNowHandsBackTasksTheCallerMayRun() throws Exception {
        ScheduledFuture<String> f = executor.schedule(() -> "run by the caller", 1, HOURS);
        List<Runnable> back = executor.shutdownNow();
        assertEquals(1, back.size());
        assertSame(f, back.get(0));

        back.get(0).run();

        assertEquals("run by the caller", f.get(0, SECONDS));
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
    }

    @Test
    void threadsAreNamedAndNotDaemonByDefaultAsTheJdks() throws Exception {
        AtomicReference<Thread> worker = new AtomicReference<>();
        executor.schedule(() -> worker.set(Thread.currentThread()), 0, SECONDS).get(LONG_WAIT_SECONDS, SECONDS);

        assertTrue(worker.get().getName().startsWith("tickwheel-"), worker.get().getName());
        assertTrue(worker.get().getName().contains("-worker-"), worker.get().getName());
        assertFalse(worker.get().isDaemon());
    }

    @Test
    void daemonTrueMakesDaemonThreads() throws Exception {
        WheelTimer t = WheelTimer.builder().daemon(true).build();
        try {
            AtomicReference<Thread> worker = new AtomicReference<>();
            t.schedule(() -> worker.set(Thread.currentThread()), 0, SECONDS).get(LONG_WAIT_SECONDS, SECONDS);
            assertTrue(worker.get().isDaemon());
        } finally {
            shutDown(t);
        }
    }

    /**
     * No thread starts before the first task, and workers start one per hand-off, as in ThreadPoolExecutor; the
     * factory is told the owner from the workers by the role the Runnable it is handed names.
     */
    @Test
    void threadFactoryMakesTheOwnerAtBuildAndWorkersOnDemandAndTellsThemApart() throws Exception {
        List<Thread> made = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> roles = new java.util.concurrent.CopyOnWriteArrayList<>();
        ThreadFactory factory = r -> {
            Thread th = new Thread(r, "custom-" + made.size());
            th.setDaemon(true);
            made.add(th);
            roles.add(r.toString());
            return th;
        };
        WheelTimer t = WheelTimer.builder().threadFactory(factory).threadNamePrefix("tw").workerThreads(2).build();
        try {
            assertEquals(1, made.size(), "the owner thread is created by build()");
            assertEquals(Thread.State.NEW, made.get(0).getState(), "and not started before the first task");
            assertTrue(roles.get(0).matches("tw-\\d+-owner"), roles.get(0));

            AtomicReference<String> name = new AtomicReference<>();
            t.schedule(() -> name.set(Thread.currentThread().getName()), 0, SECONDS).get(LONG_WAIT_SECONDS, SECONDS);

            assertEquals("custom-1", name.get(), "the first hand-off starts the first worker");
            assertEquals(2, made.size(), "one owner and one worker so far");
            assertTrue(roles.get(1).matches("tw-\\d+-worker"), roles.get(1));
            for (int i = 0; i < 4; i++) {
                t.schedule(() -> { }, 0, SECONDS).get(LONG_WAIT_SECONDS, SECONDS);
            }
            // Workers start on demand, one more only when every started one is busy: sequential tasks may need
            // only the first (or a second, if a hand-off came while the first was between tasks).
            assertTrue(made.size() == 2 || made.size() == 3, "never more than the owner and two workers: " + made);
        } finally {
            shutDown(t);
        }
    }

    @Test
    void aWorkerFactoryThatReturnsNullFailsTheHandedOffTaskNamingWhy() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ThreadFactory factory = r -> calls.incrementAndGet() == 1 ? new Thread(r) : null; // owner only
        WheelTimer t = WheelTimer.builder().threadFactory(factory).build();
        try {
            ScheduledFuture<?> f = t.schedule(() -> { }, 0, SECONDS);
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(LONG_WAIT_SECONDS, SECONDS));
            assertTrue(e.getCause().getMessage().contains("returned null for a worker thread"),
                    e.getCause().getMessage());
        } finally {
            shutDown(t);
        }
    }

    @Test
    void anUnusedTimerStartsNoThreadAndStillTerminates() throws Exception {
        List<Thread> made = new java.util.concurrent.CopyOnWriteArrayList<>();
        WheelTimer t = WheelTimer.builder().threadFactory(r -> {
            Thread th = new Thread(r);
            made.add(th);
            return th;
        }).build();
        assertEquals(Thread.State.NEW, made.get(0).getState());
        assertFalse(t.isTerminated());

        t.shutdown();

        assertTrue(t.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(t.isTerminated());
        assertEquals(1, made.size(), "a timer shut down before any task needs no worker");
    }

    @Test
    void tasksOnTheOwnerThreadRunAndAThrowingOneDoesNotStopIt() throws Exception {
        WheelTimer t = WheelTimer.builder().runTasksOnOwnerThread().build();
        try {
            AtomicReference<String> name = new AtomicReference<>();
            ScheduledFuture<?> throwing = t.schedule(() -> {
                throw new IllegalStateException("boom");
            }, 0, SECONDS);
            assertThrows(ExecutionException.class, () -> throwing.get(LONG_WAIT_SECONDS, SECONDS));

            t.schedule(() -> name.set(Thread.currentThread().getName()), 1, MILLISECONDS)
                    .get(LONG_WAIT_SECONDS, SECONDS);

            assertTrue(name.get().endsWith("-owner"), name.get());
        } finally {
            shutDown(t);
        }
    }

    @Test
    void shutdownNowInterruptsATaskRunningOnTheOwnerThread() throws Exception {
        WheelTimer t = WheelTimer.builder().runTasksOnOwnerThread().build();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        t.execute(() -> {
            started.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        await(started, "the task on the owner thread");
        ScheduledFuture<?> pending = t.schedule(() -> { }, 1, HOURS);

        List<Runnable> back = t.shutdownNow();

        await(interrupted, "the interrupt");
        assertEquals(List.of(pending), back);
        assertTrue(t.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
    }

    @Test
    void closeLetsOneShotsRunEndsPeriodicOnesAndTerminates() throws Exception {
        WheelTimer t = WheelTimer.create();
        CountDownLatch periodicRan = new CountDownLatch(1);
        ScheduledFuture<String> oneShot = t.schedule(() -> "ran", 20, MILLISECONDS);
        ScheduledFuture<?> periodic = t.scheduleAtFixedRate(periodicRan::countDown, 0, 1, MILLISECONDS);
        await(periodicRan, "the periodic task");

        t.close();

        assertTrue(t.isTerminated());
        assertEquals("ran", oneShot.get(0, SECONDS));
        assertTrue(periodic.isCancelled());
        assertEquals(0, t.metrics().pending());
    }

    /**
     * After shutdown, cancelling the last pending timer lets the timer terminate. The cancel here comes from a task
     * on the owner thread, so it arrives while the owner is awake (and so does not unpark it), after the step's
     * drain: the owner then finds it while deciding to park. It must not sleep until the cancelled timer's time.
     * One task on the owner thread schedules both timers and then shuts the timer down, so the canceller cannot
     * run before the shutdown however slow the machine (the test used to skip itself when the test thread stalled
     * between its schedule and its shutdown).
     */
    @Test
    void cancellingTheLastTimerAfterShutdownLetsTheTimerTerminate() throws Exception {
        WheelTimer t = WheelTimer.builder().runTasksOnOwnerThread().build();
        try {
            AtomicReference<ScheduledFuture<?>> last = new AtomicReference<>();
            AtomicBoolean shutDownFirst = new AtomicBoolean();
            ScheduledFuture<ScheduledFuture<Boolean>> setUp = t.schedule(() -> {
                ScheduledFuture<?> l = t.schedule(() -> { }, 1, HOURS);
                last.set(l);
                ScheduledFuture<Boolean> canceller = t.schedule(() -> {
                    shutDownFirst.set(t.isShutdown());
                    return l.cancel(false);
                }, 100, MILLISECONDS);
                t.shutdown();
                return canceller;
            }, 0, SECONDS);

            ScheduledFuture<Boolean> canceller = setUp.get(LONG_WAIT_SECONDS, SECONDS);
            assertTrue(canceller.get(LONG_WAIT_SECONDS, SECONDS), "the cancel of the last timer");
            assertTrue(shutDownFirst.get(), "the cancel ran before the shutdown");
            assertTrue(t.awaitTermination(LONG_WAIT_SECONDS, SECONDS), "shut down with nothing left to run, the"
                    + " timer did not terminate (its owner sleeps until the cancelled timer's time)");
            assertTrue(last.get().isCancelled());
        } finally {
            shutDown(t);
        }
    }

    @Test
    void metricsCountScheduledFiredCancelledAndRejected() throws Exception {
        ScheduledFuture<?> cancelled = executor.schedule(() -> { }, 1, HOURS);
        assertTrue(cancelled.cancel(false));
        executor.schedule(() -> "fired", 0, SECONDS).get(LONG_WAIT_SECONDS, SECONDS);
        executor.schedule(() -> { }, 1, HOURS);
        executor.shutdown();
        assertThrows(RejectedExecutionException.class, () -> executor.execute(() -> { }));

        TimerMetrics m = timer().metrics();
        assertEquals(3, m.scheduled());
        assertEquals(1, m.cancelled());
        assertEquals(1, m.rejected());
        // pending and fired may trail a future's completion a little (released after waiters are woken; published
        // after the owner's step): read them exactly once the timer has terminated.
        List<Runnable> back = executor.shutdownNow();
        assertEquals(1, back.size());
        assertTrue(executor.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
        TimerMetrics end = timer().metrics();
        assertEquals(0, end.pending(), end::toString);
        assertEquals(1, end.fired(), end::toString);
    }

    private static void shutDown(WheelTimer t) throws InterruptedException {
        t.shutdownNow();
        assertTrue(t.awaitTermination(LONG_WAIT_SECONDS, TimeUnit.SECONDS), "the timer did not terminate");
    }
}

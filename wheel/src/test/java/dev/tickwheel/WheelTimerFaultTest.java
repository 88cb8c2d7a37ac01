package dev.tickwheel;

import static dev.tickwheel.FaultThreads.awaitBlocked;
import static dev.tickwheel.FaultThreads.awaitCondition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Faults (issue 6): tasks that throw, overflow their stack, interrupt themselves or block; executors and thread
 * factories that fail; an owner stalled for hours; a failure inside the owner loop itself; {@code maxPending}
 * under concurrent producers; interrupted waiters. Each test checks that the failure stays with the timer it
 * belongs to and that the timer goes on working (or, for a failed owner, fails loudly).
 *
 * <p>Tests on a real owner thread use the system clock and only lower bounds (never early); tests that need
 * exact timing use the manual-drive seam with a manual clock. Waits are on latches and futures, with generous
 * hang guards.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WheelTimerFaultTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** An Error subclass of the test's own, so that nothing but the test can have thrown it. */
    static final class FaultError extends Error {
        private static final long serialVersionUID = 1L;

        FaultError(String message) {
            super(message);
        }
    }

    /** A RuntimeException of the test's own. */
    static final class FaultInjected extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FaultInjected(String message) {
            super(message);
        }
    }

    /**
     * A start whose offer fails to allocate a spare command ring (an OutOfMemoryError, injected) was never accepted:
     * the error reaches the caller, the timer keeps no place under {@code maxPending}, a periodic one is not left
     * registered for shutdown to end, and the timers accepted before are all still handed back.
     */
    @Test
    void anOutOfMemoryErrorAllocatingACommandRingLeavesNoPlaceTakenAndNoPeriodicBehind() {
        WheelTimer timer = WheelTimer.builder().timeSource(new ManualTimeSource()).tick(1, TimeUnit.MILLISECONDS)
                .manualDrive().maxPending(3).commandQueues(2, 4, CommandPort.CHUNK, CommandQueue.Flaw.NONE)
                .executor(Runnable::run).build();
        timer.schedule(() -> { }, 10, TimeUnit.MILLISECONDS);
        timer.schedule(() -> { }, 10, TimeUnit.MILLISECONDS); // the first ring (2 commands) is full
        timer.starts.beforeRingAllocation = () -> {
            throw new OutOfMemoryError("injected: no heap for a spare ring");
        };
        assertThrows(OutOfMemoryError.class,
                () -> timer.scheduleAtFixedRate(() -> { }, 10, 10, TimeUnit.MILLISECONDS));
        assertThrows(OutOfMemoryError.class, () -> timer.schedule(() -> { }, 10, TimeUnit.MILLISECONDS),
                "the failed periodic freed its place under maxPending (3), or this would be rejected");
        assertEquals(0, timer.periodics.size(), "no periodic left registered");
        timer.starts.beforeRingAllocation = null;
        timer.schedule(() -> { }, 10, TimeUnit.MILLISECONDS); // the third place is free
        assertThrows(RejectedExecutionException.class, () -> timer.schedule(() -> { }, 10, TimeUnit.MILLISECONDS),
                "maxPending 3 reached by the three accepted timers");
        assertEquals(3, timer.shutdownNow().size(), "every accepted timer handed back, and only those");
    }

    /**
     * A cancel whose command cannot be queued (an OutOfMemoryError allocating a spare ring) still counts: the future
     * reads cancelled, the metrics count the cancel and no pending timer, and the timer never runs when its key comes,
     * nor is it handed back by shutdownNow.
     */
    @Test
    void aCancelWhoseCommandRingCannotBeAllocatedIsStillCountedAndNeverRuns() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive()
                .commandQueues(2, 4, CommandPort.CHUNK, CommandQueue.Flaw.NONE).executor(Runnable::run).build();
        AtomicInteger ran = new AtomicInteger();
        ScheduledFuture<?> a = timer.schedule(ran::incrementAndGet, 10, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> b = timer.schedule(ran::incrementAndGet, 10, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> c = timer.schedule(ran::incrementAndGet, 10, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> d = timer.schedule(ran::incrementAndGet, 10, TimeUnit.MILLISECONDS);
        assertTrue(a.cancel(false));
        assertTrue(b.cancel(false)); // the cancels' first ring (2 commands) is full
        timer.cancels.beforeRingAllocation = () -> {
            throw new OutOfMemoryError("injected: no heap for a spare ring");
        };
        assertThrows(OutOfMemoryError.class, () -> c.cancel(false));
        timer.cancels.beforeRingAllocation = null;
        assertTrue(c.isCancelled(), "the cancel itself took effect before its command");
        TimerMetrics m = timer.metrics();
        assertEquals(4, m.scheduled());
        assertEquals(3, m.cancelled(), "the cancel without a command is counted");
        assertEquals(1, m.pending(), "only d is pending");
        clock.advance(20, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
        assertEquals(1, ran.get(), "only d ran: the cancelled timer left the wheel when its key came");
        assertTrue(d.isDone() && !d.isCancelled());
        assertEquals(0, timer.metrics().pending());
        assertEquals(0, timer.shutdownNow().size(), "nothing to hand back");
    }

    /** Where a timer's tasks run. */
    enum Runner { OWN_POOL, OWNER_THREAD }

    private static WheelTimer build(Runner runner, FaultThreads threads) {
        WheelTimer.Builder b = WheelTimer.builder().threadFactory(threads);
        return (runner == Runner.OWN_POOL ? b.workerThreads(1) : b.runTasksOnOwnerThread()).build();
    }

    /** Throws any throwable from a Callable. */
    private static Object rethrow(Throwable x) throws Exception {
        if (x instanceof Error) {
            throw (Error) x;
        }
        throw (Exception) x;
    }

    /** Real deep recursion, until the stack overflows. */
    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    /**
     * A later timer runs, no earlier than its delay, on the expected thread (the pool's one worker, or the owner),
     * and does not see a stray interrupt left by an earlier task.
     */
    private static void assertLaterTimerRuns(WheelTimer timer, Thread expected) throws Exception {
        long t0 = System.nanoTime();
        ScheduledFuture<Thread> probe = timer.schedule(() -> {
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("a stray interrupt reached a later task");
            }
            return Thread.currentThread();
        }, 2, TimeUnit.MILLISECONDS);
        assertSame(expected, probe.get(30, TimeUnit.SECONDS), "the later timer ran on the surviving thread");
        assertTrue(System.nanoTime() - t0 >= 2 * MS, "the later timer was not early");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Tasks that fail

    @ParameterizedTest
    @EnumSource(Runner.class)
    void tasksThatThrowOverflowOrInterruptThemselvesFailOnlyTheirOwnFuture(Runner runner) throws Exception {
        FaultThreads threads = new FaultThreads("fault-tasks-" + runner);
        try (WheelTimer timer = build(runner, threads)) {
            // The owner itself, or the pool's single worker (started on demand, by the first hand-off).
            Thread taskThread = runner == Runner.OWNER_THREAD ? threads.created.get(0)
                    : timer.submit(Thread::currentThread).get(30, TimeUnit.SECONDS);
            int threadCount = threads.created.size();
            List<Throwable> failures = List.of(new IllegalStateException("task throws a RuntimeException"),
                    new IOException("task throws a checked exception"), new FaultError("task throws an Error"),
                    new AssertionError("task throws an AssertionError"),
                    new OutOfMemoryError("task throws an OutOfMemoryError (not a real one)"),
                    new LinkageError("task throws a LinkageError"));
            for (Throwable x : failures) {
                ScheduledFuture<Object> f = timer.schedule(() -> rethrow(x), 1, TimeUnit.MILLISECONDS);
                ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
                assertSame(x, e.getCause(), "the future reports the task's own throwable");
                assertTrue(f.isDone());
                assertFalse(f.isCancelled());
                assertFalse(f.cancel(true), "a failed timer cannot be cancelled");
                assertLaterTimerRuns(timer, taskThread);
            }

            FaultInjected fromRunnable = new FaultInjected("a Runnable throws");
            ScheduledFuture<?> r = timer.schedule((Runnable) () -> {
                throw fromRunnable;
            }, 0, TimeUnit.MILLISECONDS);
            assertSame(fromRunnable, assertThrows(ExecutionException.class, () -> r.get(30, TimeUnit.SECONDS))
                    .getCause());
            assertLaterTimerRuns(timer, taskThread);

            ScheduledFuture<Integer> deep = timer.schedule(() -> recurse(0), 1, TimeUnit.MILLISECONDS);
            assertInstanceOf(StackOverflowError.class,
                    assertThrows(ExecutionException.class, () -> deep.get(30, TimeUnit.SECONDS)).getCause());
            assertLaterTimerRuns(timer, taskThread);

            ScheduledFuture<String> selfInterrupting = timer.schedule(() -> {
                Thread.currentThread().interrupt();
                return "interrupted myself";
            }, 1, TimeUnit.MILLISECONDS);
            assertEquals("interrupted myself", selfInterrupting.get(30, TimeUnit.SECONDS));
            assertLaterTimerRuns(timer, taskThread);

            CountDownLatch threeRuns = new CountDownLatch(3);
            ScheduledFuture<?> periodic = timer.scheduleWithFixedDelay(() -> {
                Thread.currentThread().interrupt();
                threeRuns.countDown();
            }, 0, 1, TimeUnit.MILLISECONDS);
            assertTrue(threeRuns.await(30, TimeUnit.SECONDS), "a periodic task that interrupts itself keeps running");
            assertTrue(periodic.cancel(false));
            assertLaterTimerRuns(timer, taskThread);

            assertEquals(threadCount, threads.created.size(), "no thread died and was replaced");
            assertTrue(threads.uncaught.isEmpty(), () -> "nothing escaped a thread: " + threads.uncaught);
            assertTrue(threads.owner().isAlive(), "the owner survived");
            awaitCondition("pending back to 0", () -> timer.metrics().pending() == 0);
        }
    }

    /**
     * Deterministic: on the manual clock, a periodic task that throws on its third run ends with that throwable
     * and runs no more, and the failures around it do not move a one-shot timer by a single tick.
     */
    @Test
    void periodicTaskThatThrowsEndsWithItsFailureAndLaterTimersFireOnTheirTick() throws Exception {
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().runTasksOnOwnerThread().build();
        AtomicInteger runs = new AtomicInteger();
        FaultError third = new FaultError("third run fails");
        ScheduledFuture<?> periodic = timer.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 3) {
                throw third;
            }
        }, 1, 1, TimeUnit.MILLISECONDS);
        ScheduledFuture<Integer> overflow = timer.schedule(() -> recurse(0), 2, TimeUnit.MILLISECONDS);
        AtomicLong ranAt = new AtomicLong(-1);
        ScheduledFuture<?> later = timer.schedule(() -> ranAt.set(clock.get()), 7, TimeUnit.MILLISECONDS);
        for (long ms = 0; ms <= 10; ms++) {
            clock.set(ms * MS);
            while (OwnerLoop.of(timer).step()) {
                // drain
            }
            if (ms < 7) {
                assertFalse(later.isDone(), "not early: the 7 ms timer has not run at " + ms + " ms");
            }
        }
        assertEquals(3, runs.get(), "no run after the failing one");
        assertSame(third, assertThrows(ExecutionException.class, periodic::get).getCause());
        assertFalse(periodic.cancel(false));
        assertInstanceOf(StackOverflowError.class, assertThrows(ExecutionException.class, overflow::get).getCause());
        assertEquals(7 * MS, ranAt.get(), "the later timer ran at the first step at its tick");
        assertEquals(0, timer.metrics().pending());
        assertTrue(timer.shutdownNow().isEmpty());
    }

    // ---------------------------------------------------------------------------------------------------------
    // Tasks that block

    /**
     * Both workers blocked: the owner still hands every due timer to the pool (metrics.fired), is not behind
     * (lagNanos 0: the lateness is in the pool's queue, not the owner), a queued timer can still be cancelled
     * (it has not started), and after the release every other timer runs exactly once, never early.
     */
    @Test
    void everyWorkerBlockedTheOwnerKeepsHandingOutTimersAndNothingIsLost() throws Exception {
        FaultThreads threads = new FaultThreads("fault-blocked");
        try (WheelTimer timer = WheelTimer.builder().threadFactory(threads).workerThreads(2).build()) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch bothBlocked = new CountDownLatch(2);
            Callable<String> blocker = () -> {
                bothBlocked.countDown();
                release.await();
                return "unblocked";
            };
            ScheduledFuture<String> b1 = timer.schedule(blocker, 0, TimeUnit.MILLISECONDS);
            ScheduledFuture<String> b2 = timer.schedule(blocker, 0, TimeUnit.MILLISECONDS);
            assertTrue(bothBlocked.await(30, TimeUnit.SECONDS));

            int n = 400;
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            long[] earliest = new long[n];
            List<ScheduledFuture<Long>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                long delay = i % 20;
                earliest[i] = System.nanoTime() + delay * MS;
                futures.add(timer.schedule(() -> {
                    runs.incrementAndGet(index);
                    return System.nanoTime();
                }, delay, TimeUnit.MILLISECONDS));
            }
            awaitCondition("the owner handed all " + (n + 2) + " timers to the blocked pool",
                    () -> timer.metrics().fired() == n + 2);
            TimerMetrics m = timer.metrics();
            assertEquals(0, m.lagNanos(), "the owner is not behind; the wait is in the pool's queue: " + m);
            assertEquals(n + 2, m.pending());
            for (int i = 0; i < n; i++) {
                assertEquals(0, runs.get(i), "nothing ran while every worker was blocked");
            }
            for (int i = 1; i < n; i += 2) {
                assertTrue(futures.get(i).cancel(false), "a timer queued for a worker has not started: cancel wins");
            }
            assertEquals(2 + n / 2, timer.metrics().pending());

            release.countDown();
            assertEquals("unblocked", b1.get(30, TimeUnit.SECONDS));
            assertEquals("unblocked", b2.get(30, TimeUnit.SECONDS));
            for (int i = 0; i < n; i += 2) {
                long ranAt = futures.get(i).get(30, TimeUnit.SECONDS);
                assertTrue(ranAt >= earliest[i], "timer " + i + " was early");
            }
            awaitCondition("pending back to 0", () -> timer.metrics().pending() == 0);
            for (int i = 0; i < n; i++) {
                assertEquals(i % 2 == 0 ? 1 : 0, runs.get(i), "runs of timer " + i);
                if (i % 2 == 1) {
                    ScheduledFuture<Long> cancelled = futures.get(i);
                    assertThrows(CancellationException.class, cancelled::get);
                }
            }
            assertTrue(timer.shutdownNow().isEmpty(), "nothing left to hand back");
            assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
            assertTrue(threads.uncaught.isEmpty(), () -> "nothing escaped a thread: " + threads.uncaught);
        }
    }

    /** Deterministic: with every worker of a user pool blocked, each manual step still advances and dispatches. */
    @Test
    void everyWorkerBlockedManualStepsStillAdvanceAndDispatchEveryTick() throws Exception {
        FaultThreads threads = new FaultThreads("fault-blocked-pool");
        ExecutorService pool = Executors.newFixedThreadPool(2, threads);
        try {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch bothBlocked = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> {
                    bothBlocked.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            assertTrue(bothBlocked.await(30, TimeUnit.SECONDS));
            AtomicLong clock = new AtomicLong();
            WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(pool).build();
            int n = 50;
            List<ScheduledFuture<Long>> futures = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                futures.add(timer.schedule(clock::get, i, TimeUnit.MILLISECONDS));
            }
            for (int ms = 1; ms <= n; ms++) {
                clock.set(ms * MS);
                assertFalse(OwnerLoop.of(timer).step(), "nothing left over at " + ms + " ms");
                TimerMetrics m = timer.metrics();
                assertEquals(ms, m.fired(), "one timer handed to the blocked pool per tick: " + m);
                assertEquals(0, m.lagNanos());
            }
            release.countDown();
            for (int i = 0; i < n; i++) {
                long ranAt = futures.get(i).get(30, TimeUnit.SECONDS);
                assertTrue(ranAt >= (i + 1) * MS, "timer " + i + " ran at " + ranAt + ": early");
            }
            // A future completes just before its run's accounting; the pool's end orders every run's end before this.
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            assertEquals(0, timer.metrics().pending());
        } finally {
            pool.shutdownNow();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // A user executor that fails

    @Test
    void userExecutorThatRejectsOrThrowsFailsOnlyThatTimerAndTheOwnerSurvives() throws Exception {
        FaultThreads poolThreads = new FaultThreads("fault-user-pool");
        ExecutorService pool = Executors.newFixedThreadPool(2, poolThreads);
        ConcurrentLinkedQueue<Throwable> verdicts = new ConcurrentLinkedQueue<>();
        AtomicBoolean runThenThrow = new AtomicBoolean();
        AtomicInteger periodicDispatches = new AtomicInteger();
        Executor hostile = r -> {
            boolean periodic = ((java.util.concurrent.RunnableScheduledFuture<?>) r).isPeriodic();
            if (periodic && periodicDispatches.incrementAndGet() == 3) {
                throw new RejectedExecutionException("third run of the periodic timer rejected");
            }
            Throwable v = verdicts.poll();
            if (v instanceof Error) {
                throw (Error) v;
            } else if (v != null) {
                throw (RuntimeException) v;
            }
            if (runThenThrow.getAndSet(false)) {
                r.run();
                throw new IllegalStateException("the executor throws after running the task");
            }
            pool.execute(r);
        };
        FaultThreads ownerThreads = new FaultThreads("fault-user-owner");
        try (WheelTimer timer = WheelTimer.builder().executor(hostile).threadFactory(ownerThreads).build()) {
            Thread owner = ownerThreads.owner();
            List<Throwable> verdictList = List.of(new RejectedExecutionException("the executor is saturated"),
                    new IllegalStateException("the executor is broken"), new FaultError("the executor errs"),
                    new OutOfMemoryError("unable to create native thread (not a real one)"));
            for (Throwable v : verdictList) {
                verdicts.add(v);
                AtomicBoolean ran = new AtomicBoolean();
                ScheduledFuture<?> f = timer.schedule(() -> ran.set(true), 1, TimeUnit.MILLISECONDS);
                ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
                assertSame(v, e.getCause(), "the future completes with the executor's own throwable");
                assertFalse(ran.get());
                assertFalse(f.cancel(false));
                ScheduledFuture<String> next = timer.schedule(() -> "ran", 1, TimeUnit.MILLISECONDS);
                assertEquals("ran", next.get(30, TimeUnit.SECONDS), "a later timer runs on the executor");
            }

            runThenThrow.set(true);
            ScheduledFuture<String> ranFirst = timer.schedule(() -> "result stands", 1, TimeUnit.MILLISECONDS);
            assertEquals("result stands", ranFirst.get(30, TimeUnit.SECONDS),
                    "an executor that runs the task and then throws does not undo the task's result");

            AtomicInteger periodicRuns = new AtomicInteger();
            ScheduledFuture<?> periodic = timer.scheduleAtFixedRate(periodicRuns::incrementAndGet, 0, 1,
                    TimeUnit.MILLISECONDS);
            ExecutionException pe = assertThrows(ExecutionException.class, () -> periodic.get(30, TimeUnit.SECONDS));
            assertInstanceOf(RejectedExecutionException.class, pe.getCause());
            assertEquals("third run of the periodic timer rejected", pe.getCause().getMessage());
            assertEquals(2, periodicRuns.get(), "the runs before the rejected third dispatch");

            assertEquals("ran", timer.schedule(() -> "ran", 0, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS));
            assertTrue(owner.isAlive(), "the owner survived");
            assertTrue(ownerThreads.uncaught.isEmpty(), () -> "nothing escaped the owner: " + ownerThreads.uncaught);
            awaitCondition("pending back to 0", () -> timer.metrics().pending() == 0);
        } finally {
            pool.shutdownNow();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // A thread factory that fails

    /**
     * Which threads the timer needs: its own pool's workers and the owner, the owner only, or the owner only.
     * build() asks the factory for the owner only (workers start on demand, at the first hand-offs).
     */
    enum ThreadsNeeded { OWN_POOL_AND_OWNER, OWNER_RUNS_TASKS, USER_EXECUTOR_AND_OWNER }

    private static WheelTimer.Builder builderFor(ThreadsNeeded needed, ThreadFactory factory) {
        WheelTimer.Builder b = WheelTimer.builder().threadFactory(factory);
        switch (needed) {
            case OWN_POOL_AND_OWNER: return b.workerThreads(2);
            case OWNER_RUNS_TASKS: return b.runTasksOnOwnerThread();
            default: return b.executor(Runnable::run);
        }
    }

    /** A factory that makes real threads for the first {@code failAt} calls, then fails as told. */
    private static final class FailingFactory implements ThreadFactory {
        final FaultThreads real = new FaultThreads("fault-factory");
        final int failAt;
        final Throwable toThrow;
        int calls;

        FailingFactory(int failAt, Throwable toThrow) {
            this.failAt = failAt;
            this.toThrow = toThrow;
        }

        @Override
        public Thread newThread(Runnable r) {
            if (calls++ < failAt) {
                return real.newThread(r);
            }
            if (toThrow instanceof Error) {
                throw (Error) toThrow;
            }
            if (toThrow != null) {
                throw (RuntimeException) toThrow;
            }
            return null;
        }

        void assertNoThreadLeftRunning() throws InterruptedException {
            for (Thread t : real.created) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertFalse(t.isAlive(), t.getName() + " was left running after build() failed");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadsNeeded.class)
    void threadFactoryReturningNullFailsBuildClearlyAndLeavesNoThreadRunning(ThreadsNeeded needed)
            throws Exception {
        FailingFactory factory = new FailingFactory(0, null);
        WheelTimer.Builder b = builderFor(needed, factory);
        IllegalStateException e = assertThrows(IllegalStateException.class, b::build);
        assertTrue(e.getMessage().contains("returned null"), e.getMessage());
        assertTrue(e.getMessage().contains("owner"), "names which thread: " + e.getMessage());
        factory.assertNoThreadLeftRunning();
    }

    @ParameterizedTest
    @EnumSource(ThreadsNeeded.class)
    void threadFactoryThatThrowsFailsBuildWithTheThrowableAsCauseAndLeavesNoThreadRunning(ThreadsNeeded needed)
            throws Exception {
        for (Throwable x : List.of(new FaultInjected("factory throws"), new FaultError("factory errs"))) {
            FailingFactory factory = new FailingFactory(0, x);
            WheelTimer.Builder b = builderFor(needed, factory);
            IllegalStateException e = assertThrows(IllegalStateException.class, b::build);
            assertSame(x, e.getCause());
            assertTrue(e.getMessage().contains("ThreadFactory threw"), e.getMessage());
            factory.assertNoThreadLeftRunning();
        }
    }

    /**
     * A factory that hands out a thread that is already running (a broken factory, neither null nor throwing): the
     * timer cannot start it, and build() must say so as clearly, without leaving the threads it did start behind.
     */
    @ParameterizedTest
    @EnumSource(ThreadsNeeded.class)
    void threadFactoryReturningAStartedThreadFailsBuildClearlyAndLeavesNoThreadRunning(ThreadsNeeded needed)
            throws Exception {
        for (int startedAt = 0; startedAt < 1; startedAt++) { // the owner: build() asks for no other thread
            CountDownLatch release = new CountDownLatch(1);
            FaultThreads real = new FaultThreads("fault-started");
            int[] calls = {0};
            int badCall = startedAt;
            ThreadFactory factory = r -> {
                if (calls[0]++ == badCall) {
                    Thread running = real.newThread(() -> awaitUninterruptibly(release));
                    running.start();
                    return running;
                }
                return real.newThread(r);
            };
            try {
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> builderFor(needed, factory).build());
                assertTrue(e.getMessage().contains("ThreadFactory"), e.getMessage());
            } finally {
                release.countDown();
            }
            for (Thread t : real.created) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertFalse(t.isAlive(), t.getName() + " was left running after build() failed (started thread at"
                        + " call " + startedAt + ")");
            }
        }
    }

    /** How a factory fails when the pool asks it for a worker, at the first hand-off. */
    enum WorkerFailure { RETURNS_NULL, THROWS, THROWS_ERROR, RETURNS_STARTED_THREAD }

    /**
     * Workers start on demand, so a factory that fails for a worker fails at the first hand-off, not in build():
     * that task's future completes exceptionally with an {@link IllegalStateException} that names the factory's
     * failure (never a task queued with no worker to run it), and the timer still shuts down and terminates.
     */
    @ParameterizedTest
    @EnumSource(WorkerFailure.class)
    void aFactoryThatFailsForAWorkerFailsTheHandedOffTaskNamingWhyAndTheTimerStillTerminates(WorkerFailure how)
            throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        FaultThreads real = new FaultThreads("fault-worker");
        Throwable thrown = how == WorkerFailure.THROWS ? new FaultInjected("factory throws for a worker")
                : new FaultError("factory errs for a worker");
        int[] calls = {0};
        ThreadFactory factory = r -> {
            if (calls[0]++ == 0) {
                return real.newThread(r); // the owner
            }
            switch (how) {
                case RETURNS_NULL: return null;
                case RETURNS_STARTED_THREAD:
                    Thread running = real.newThread(() -> awaitUninterruptibly(release));
                    running.start();
                    return running;
                default:
                    if (thrown instanceof Error) {
                        throw (Error) thrown;
                    }
                    throw (RuntimeException) thrown;
            }
        };
        WheelTimer timer = WheelTimer.builder().threadFactory(factory).workerThreads(2).build();
        try {
            AtomicInteger runs = new AtomicInteger();
            ScheduledFuture<?> f = timer.schedule(runs::incrementAndGet, 0, TimeUnit.MILLISECONDS);
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            String message = e.getCause().getMessage();
            assertTrue(message.contains("ThreadFactory") && message.contains("worker"), message);
            if (how == WorkerFailure.THROWS || how == WorkerFailure.THROWS_ERROR) {
                assertSame(thrown, e.getCause().getCause());
            }
            assertEquals(0, runs.get());
        } finally {
            release.countDown();
            timer.shutdown();
        }
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        for (Thread t : real.created) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(t.isAlive(), t.getName() + " was left running");
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        for (;;) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // keep waiting: this stands for a thread the factory's caller does not own
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // The owner stalled

    /**
     * A pause of five hours (the manual clock jumps): the owner catches up in steps of at most {@code ownerBatch}
     * expiries, reports its lag while behind, fires every due timer exactly once, in deadline (tick) order, none
     * early, and none of the timers due after the jump. Timers scheduled during the catch-up take their place in
     * the order.
     */
    @Test
    void stalledOwnerCatchesUpInBoundedBatchesFiringEveryDueTimerOnceInDeadlineOrderNeverEarly() {
        long seed = Long.getLong("tickwheel.test.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        int batch = 64;
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().runTasksOnOwnerThread()
                .ownerBatch(batch).build();
        long hour = TimeUnit.HOURS.toNanos(1);
        int capacity = 40_000;
        long[] deadline = new long[capacity];
        AtomicIntegerArray runs = new AtomicIntegerArray(capacity);
        long[] ranAt = new long[capacity];
        int[] order = new int[capacity];
        int[] fired = {0};
        int[] count = {0};
        java.util.function.LongConsumer add = delayNanos -> {
            int i = count[0]++;
            deadline[i] = clock.get() + delayNanos;
            timer.schedule(() -> {
                runs.incrementAndGet(i);
                ranAt[i] = clock.get();
                order[fired[0]++] = i;
            }, delayNanos, TimeUnit.NANOSECONDS);
        };
        for (int i = 0; i < 20_000; i++) {
            // spread over every level up to 5 h: 1 ns .. 5 h, log-uniform
            add.accept((long) Math.exp(random.nextDouble() * Math.log(5.0 * hour)));
        }
        for (int i = 0; i < 500; i++) {
            add.accept(hour); // a clump on one tick
        }
        for (int i = 0; i < 1_000; i++) {
            add.accept(6 * hour + random.nextLong(hour)); // due after the pause
        }
        while (OwnerLoop.of(timer).step()) {
            // load the wheel in batches at clock 0
        }
        assertEquals(0, fired[0]);

        clock.set(5 * hour + 1);
        int steps = 0;
        for (;;) {
            int before = fired[0];
            boolean more = OwnerLoop.of(timer).step();
            int inStep = fired[0] - before;
            assertTrue(inStep <= batch, "step " + steps + " fired " + inStep + " > ownerBatch " + batch);
            long lag = timer.metrics().lagNanos();
            assertEquals(more, lag > 0, "lag is reported exactly while behind (step " + steps + ", lag " + lag + ")");
            steps++;
            if (!more) {
                break;
            }
            if (steps % 25 == 0) {
                add.accept(0);           // due now: after the backlog, whose deadlines are earlier
                add.accept(30 * 60_000_000_000L); // due in 30 min: after the pause
            }
        }
        int due = 0;
        for (int i = 0; i < count[0]; i++) {
            if (deadline[i] <= 5 * hour + 1) {
                due++;
                assertEquals(1, runs.get(i), "due timer " + i + " ran exactly once (seed " + seed + ")");
                assertTrue(ranAt[i] >= deadline[i], "timer " + i + " early (seed " + seed + ")");
            } else {
                assertEquals(0, runs.get(i), "timer " + i + " due after the pause ran (seed " + seed + ")");
            }
        }
        assertEquals(due, fired[0]);
        assertTrue(steps >= due / batch, steps + " steps for " + due + " timers");
        for (int k = 1; k < fired[0]; k++) {
            long previousTick = ceilTick(deadline[order[k - 1]]);
            long tick = ceilTick(deadline[order[k]]);
            assertTrue(previousTick <= tick, "fired out of deadline order at " + k + ": tick " + previousTick
                    + " then " + tick + " (seed " + seed + ")");
        }

        clock.set(8 * hour);
        while (OwnerLoop.of(timer).step()) {
            // the rest
        }
        for (int i = 0; i < count[0]; i++) {
            assertEquals(1, runs.get(i), "timer " + i + " ran exactly once in the end (seed " + seed + ")");
        }
        assertEquals(0, timer.metrics().pending());
        assertTrue(OwnerLoop.of(timer).wheel().isEmpty());
        assertTrue(timer.shutdownNow().isEmpty());
    }

    private static long ceilTick(long nanos) {
        return (nanos + MS - 1) / MS;
    }

    // ---------------------------------------------------------------------------------------------------------
    // The owner loop itself fails

    /**
     * The behaviour chosen (WheelTimer class javadoc): fail loudly. A failure thrown inside the owner loop (a step
     * hook on a real owner thread) completes every pending future exceptionally with an IllegalStateException
     * caused by it, wakes a thread blocked in get(), makes schedule reject naming it, and reaches the owner
     * thread's uncaught-exception handler; the timer is shut down and terminates.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void failureInsideTheOwnerLoopFailsLoudlyNeverSilently(boolean injectError) throws Exception {
        Throwable injected = injectError ? new FaultError("injected owner Error")
                : new FaultInjected("injected owner failure");
        AtomicBoolean armed = new AtomicBoolean();
        FaultThreads threads = new FaultThreads("fault-owner-" + injectError);
        WheelTimer timer = WheelTimer.builder().threadFactory(threads).workerThreads(1).stepHook(() -> {
            if (armed.get()) {
                if (injected instanceof Error) {
                    throw (Error) injected;
                }
                throw (RuntimeException) injected;
            }
        }).build();
        List<ScheduledFuture<?>> pending = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            pending.add(timer.schedule(() -> "never", 1 + i, TimeUnit.HOURS));
        }
        pending.add(timer.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS));
        ScheduledFuture<?> waitedOn = pending.get(0);
        AtomicReference<Throwable> waiterSaw = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                waitedOn.get();
                waiterSaw.set(new AssertionError("get() returned normally"));
            } catch (Throwable e) {
                waiterSaw.set(e);
            }
        }, "fault-owner-waiter");
        waiter.start();
        awaitBlocked(waiter);

        armed.set(true);
        try {
            // Wakes the owner: 1 ns goes through it (work due now goes straight to the pool).
            pending.add(timer.schedule(() -> "trigger", 1, TimeUnit.NANOSECONDS));
        } catch (RejectedExecutionException alreadyFailed) {
            assertSame(injected, alreadyFailed.getCause(), "the owner woke on its own and failed first");
        }

        assertTrue(threads.anyUncaught.await(30, TimeUnit.SECONDS), "the failure reached the uncaught handler");
        Throwable reported = threads.uncaught.get(0);
        if (injectError) {
            assertSame(injected, reported, "an Error is rethrown as is");
        } else {
            assertInstanceOf(IllegalStateException.class, reported);
            assertSame(injected, reported.getCause());
        }

        for (ScheduledFuture<?> f : pending) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause(), "pending futures fail with an ISE");
            assertSame(injected, e.getCause().getCause(), "caused by the injected failure");
            assertTrue(f.isDone());
            assertFalse(f.cancel(false));
        }
        waiter.join(TimeUnit.SECONDS.toMillis(30));
        assertInstanceOf(ExecutionException.class, waiterSaw.get(), "the blocked get() was woken");
        assertSame(injected, waiterSaw.get().getCause().getCause());

        RejectedExecutionException rejected = assertThrows(RejectedExecutionException.class,
                () -> timer.schedule(() -> { }, 1, TimeUnit.MILLISECONDS));
        assertTrue(rejected.getMessage().contains(injected.toString()), rejected.getMessage());
        assertSame(injected, rejected.getCause());
        assertThrows(RejectedExecutionException.class, () -> timer.execute(() -> { }));
        assertThrows(RejectedExecutionException.class,
                () -> timer.scheduleWithFixedDelay(() -> { }, 1, 1, TimeUnit.SECONDS));
        assertTrue(timer.isShutdown());
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        assertTrue(timer.isTerminated());
        assertEquals(0, timer.metrics().pending(), timer.metrics().toString());
        assertTrue(timer.shutdownNow().isEmpty(), "every pending timer already failed; nothing to hand back");
        timer.shutdown();
        timer.close();
        assertEquals(1, threads.uncaught.size(), () -> "only the owner died: " + threads.uncaught);
    }

    // ---------------------------------------------------------------------------------------------------------
    // maxPending under concurrent producers

    /**
     * Rounds of: producers race to fill up to the limit (exactly the limit is accepted: never more, never fewer),
     * then a random number of timers is cancelled from two threads, and the producers race again: exactly that
     * many are accepted.
     */
    @Test
    void maxPendingAcceptsExactlyUpToTheLimitUnderConcurrentProducersAndAgainAfterCancels() throws Exception {
        int limit = 1_000;
        int producers = 4;
        SplittableRandom random = new SplittableRandom();
        try (WheelTimer timer = WheelTimer.builder().maxPending(limit).build()) {
            ConcurrentLinkedQueue<ScheduledFuture<?>> accepted = new ConcurrentLinkedQueue<>();
            AtomicLong overLimit = new AtomicLong();
            AtomicBoolean sampling = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (sampling.get()) {
                    long p = timer.metrics().pending();
                    if (p > limit) {
                        overLimit.accumulateAndGet(p, Math::max);
                    }
                    Thread.yield();
                }
            }, "fault-maxpending-sampler");
            sampler.start();
            int expectedFree = limit;
            for (int round = 0; round < 5; round++) {
                int acceptedNow = fillConcurrently(timer, producers, accepted, limit);
                assertEquals(expectedFree, acceptedNow, "round " + round + ": accepted exactly the free room");
                assertEquals(limit, timer.metrics().pending());
                assertEquals(limit, accepted.size());

                int toCancel = 1 + random.nextInt(limit);
                List<ScheduledFuture<?>> victims = new ArrayList<>();
                for (int i = 0; i < toCancel; i++) {
                    victims.add(accepted.poll());
                }
                AtomicInteger cancelledTrue = new AtomicInteger();
                Thread[] cancellers = new Thread[2];
                for (int c = 0; c < 2; c++) {
                    int from = c;
                    cancellers[c] = new Thread(() -> {
                        for (int i = from; i < victims.size(); i += 2) {
                            if (victims.get(i).cancel(false)) {
                                cancelledTrue.incrementAndGet();
                            }
                        }
                    });
                    cancellers[c].start();
                }
                for (Thread t : cancellers) {
                    t.join();
                }
                assertEquals(toCancel, cancelledTrue.get());
                assertEquals(limit - toCancel, timer.metrics().pending());
                expectedFree = toCancel;
            }
            sampling.set(false);
            sampler.join();
            assertEquals(0, overLimit.get(), "pending was seen above the limit");
            List<Runnable> handedBack = timer.shutdownNow();
            assertEquals(accepted.size(), handedBack.size());
            assertTrue(handedBack.containsAll(accepted), "shutdownNow hands back exactly the live timers");
        }
    }

    /** Producers race until each is rejected; returns how many they got accepted. */
    private static int fillConcurrently(WheelTimer timer, int producers, ConcurrentLinkedQueue<ScheduledFuture<?>> out,
                                        int limit) throws Exception {
        CyclicBarrier start = new CyclicBarrier(producers);
        AtomicInteger accepted = new AtomicInteger();
        AtomicReference<Throwable> problem = new AtomicReference<>();
        Thread[] threads = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            threads[p] = new Thread(() -> {
                try {
                    start.await();
                    for (;;) {
                        try {
                            out.add(timer.schedule(() -> { }, 1, TimeUnit.HOURS));
                            accepted.incrementAndGet();
                        } catch (RejectedExecutionException e) {
                            if (!e.getMessage().contains("maxPending " + limit)) {
                                problem.compareAndSet(null, e);
                            }
                            return;
                        }
                    }
                } catch (InterruptedException | BrokenBarrierException e) {
                    problem.compareAndSet(null, e);
                }
            });
            threads[p].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertNull(problem.get(), () -> "a rejection that does not name the limit: " + problem.get());
        return accepted.get();
    }

    /**
     * Each of four producers keeps at most limit/4 timers live, cancelling one (which frees its room before cancel
     * returns) before it schedules another: the pending count never exceeds the limit, so any rejection is
     * spurious.
     */
    @Test
    void maxPendingNeverRejectsBelowTheLimitWhileCancelsAndRunsFreeRoom() throws Exception {
        int limit = 400;
        int producers = 4;
        int perProducer = limit / producers;
        int iterations = 20_000 * Integer.getInteger("tickwheel.test.scale", 1);
        try (WheelTimer timer = WheelTimer.builder().maxPending(limit).build()) {
            AtomicReference<Throwable> problem = new AtomicReference<>();
            CyclicBarrier start = new CyclicBarrier(producers);
            Thread[] threads = new Thread[producers];
            for (int p = 0; p < producers; p++) {
                long seed = p;
                threads[p] = new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    ScheduledFuture<?>[] live = new ScheduledFuture<?>[perProducer];
                    try {
                        start.await();
                        for (int i = 0; i < iterations; i++) {
                            int slot = random.nextInt(perProducer);
                            if (live[slot] != null && !live[slot].cancel(random.nextBoolean())) {
                                throw new AssertionError("cancel of a pending one-hour timer returned false");
                            }
                            live[slot] = timer.schedule(() -> { }, 1 + random.nextInt(3_600), TimeUnit.SECONDS);
                        }
                        for (ScheduledFuture<?> f : live) {
                            if (f != null && !f.cancel(false)) {
                                throw new AssertionError("cancel of a pending one-hour timer returned false");
                            }
                        }
                    } catch (Throwable e) {
                        problem.compareAndSet(null, e);
                    }
                });
                threads[p].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            assertNull(problem.get(), () -> "spurious rejection below the limit: " + problem.get());
            assertEquals(0, timer.metrics().rejected());
            awaitCondition("pending back to 0", () -> timer.metrics().pending() == 0);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Interrupted waiters

    @Test
    void interruptingAThreadBlockedInGetThrowsInterruptedExceptionAndTheFutureStillCompletes() throws Exception {
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run).build();
        ScheduledFuture<String> f = timer.schedule(() -> "done", 5, TimeUnit.MILLISECONDS);
        for (boolean timed : new boolean[] {false, true}) {
            AtomicReference<Throwable> saw = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    saw.set(new AssertionError("returned " + (timed ? f.get(1, TimeUnit.DAYS) : f.get())));
                } catch (Throwable e) {
                    saw.set(e);
                }
            }, "fault-get-waiter-" + timed);
            waiter.start();
            awaitBlocked(waiter);
            waiter.interrupt();
            waiter.join(TimeUnit.SECONDS.toMillis(30));
            assertInstanceOf(InterruptedException.class, saw.get(), "timed " + timed);
            assertFalse(f.isDone(), "the interrupt did not touch the future");
        }
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, f::get, "get() with the interrupt already set");
        assertFalse(Thread.currentThread().isInterrupted(), "InterruptedException cleared the flag");

        AtomicReference<Object> second = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                second.set(f.get());
            } catch (Throwable e) {
                second.set(e);
            }
        }, "fault-get-waiter-after");
        waiter.start();
        awaitBlocked(waiter);
        clock.set(5 * MS);
        OwnerLoop.of(timer).step();
        waiter.join(TimeUnit.SECONDS.toMillis(30));
        assertEquals("done", second.get(), "a later get() still gets the result");
        assertEquals("done", f.get(0, TimeUnit.NANOSECONDS));
        assertEquals(0, timer.metrics().pending());
    }

    @Test
    void interruptingAThreadBlockedInAwaitTerminationThrowsInterruptedExceptionAndTheTimerStillWorks()
            throws Exception {
        try (WheelTimer timer = WheelTimer.create()) {
            AtomicReference<Throwable> saw = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    saw.set(new AssertionError("returned " + timer.awaitTermination(1, TimeUnit.DAYS)));
                } catch (Throwable e) {
                    saw.set(e);
                }
            }, "fault-await-waiter");
            waiter.start();
            awaitBlocked(waiter);
            waiter.interrupt();
            waiter.join(TimeUnit.SECONDS.toMillis(30));
            assertInstanceOf(InterruptedException.class, saw.get());
            assertFalse(timer.isShutdown(), "the interrupt did not shut the timer down");
            assertEquals("ran", timer.schedule(() -> "ran", 1, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS));
            timer.shutdown();
            assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void interruptingAThreadBlockedInCloseTurnsItIntoShutdownNowAndKeepsTheInterrupt() throws Exception {
        WheelTimer timer = WheelTimer.create();
        ScheduledFuture<?> hourLong = timer.schedule(() -> { }, 1, TimeUnit.HOURS);
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread closer = new Thread(() -> {
            timer.close(); // shutdown() keeps the one-hour timer, so close() waits
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        }, "fault-closer");
        closer.start();
        awaitBlocked(closer);
        closer.interrupt();
        closer.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(closer.isAlive());
        assertTrue(stillInterrupted.get(), "close() restores the interrupt it consumed");
        assertTrue(timer.isTerminated());
        // Nobody receives the list of the shutdownNow inside close(), so close() cancels those timers: they end
        // (a get() on them returns) instead of waiting forever, and none of them ran.
        assertTrue(hourLong.isCancelled(), "the pending timer ends cancelled, not stranded");
        assertThrows(CancellationException.class, () -> hourLong.get(1, TimeUnit.SECONDS));
    }
}

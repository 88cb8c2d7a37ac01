package dev.tickwheel;

import static dev.tickwheel.FaultThreads.awaitCondition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * The default pool ({@link WorkerPool}) through the public API: bursts run every timer once on at most the pool's
 * workers, workers start on demand, park when idle and are woken for the next timer, and shutdownNow hands back
 * what no worker took while interrupting what runs. The lost wake-up and the take/hand-back race themselves are
 * jcstress tests (HandOffVsPark, HandOffVsSpinnerPark, TakeVsHandBack, ExecuteVsShutdownNow).
 */
class WorkerPoolTest {

    @Test
    void aBurstFromTwoProducersRunsEveryTimerOnceOnAtMostThePoolsWorkers() throws Exception {
        FaultThreads threads = new FaultThreads("pool-burst");
        int n = 20_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
        CountDownLatch all = new CountDownLatch(n);
        try (WheelTimer timer = WheelTimer.builder().threadFactory(threads).workerThreads(3).build()) {
            List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                int from = p * n / 2;
                Thread t = new Thread(() -> {
                    for (int i = from; i < from + n / 2; i++) {
                        int index = i;
                        timer.schedule(() -> {
                            runs.incrementAndGet(index);
                            ranOn.add(Thread.currentThread());
                            all.countDown();
                        }, i % 4, TimeUnit.MILLISECONDS);
                    }
                });
                producers.add(t);
                t.start();
            }
            for (Thread t : producers) {
                t.join();
            }
            assertTrue(all.await(30, TimeUnit.SECONDS), "every timer ran");
            for (int i = 0; i < n; i++) {
                assertEquals(1, runs.get(i), "runs of timer " + i);
            }
            assertTrue(ranOn.size() <= 3, "at most the pool's 3 workers ran tasks: " + ranOn);
            assertFalse(ranOn.contains(threads.owner()), "no task ran on the owner");
            // Workers start on demand within the awake cap (max(1, CPUs - 1)): at least one, never past the pool.
            assertTrue(threads.created.size() >= 2 && threads.created.size() <= 4,
                    "the owner and 1 to 3 workers: " + threads.created);
        }
        assertTrue(threads.uncaught.isEmpty(), () -> "nothing escaped: " + threads.uncaught);
    }

    /**
     * Each end is counted once: a one-shot the pool runs to its end (completed or failed) is counted by the worker
     * that ran it, in a field of its own, when the timer has no pending limit, and by the shared counter under a
     * limit. Both ways, after a burst of timers due now and due soon (a tenth of them throwing) and a hundred
     * cancels, {@code pending()} comes back to exactly zero: an end counted twice would take it below, one lost
     * would keep it above.
     */
    @Test
    void everyRunTheWorkersEndIsCountedOnceWithAndWithoutAPendingLimit() throws Exception {
        for (long limit : new long[] {Long.MAX_VALUE, 1_000_000}) {
            FaultThreads threads = new FaultThreads("pool-count");
            int n = 6_000;
            int cancels = 100;
            CountDownLatch all = new CountDownLatch(n);
            WheelTimer.Builder b = WheelTimer.builder().threadFactory(threads).workerThreads(3);
            if (limit != Long.MAX_VALUE) {
                b.maxPending(limit);
            }
            try (WheelTimer timer = b.build()) {
                List<ScheduledFuture<?>> failed = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    boolean fails = i % 10 == 0;
                    Runnable task = () -> {
                        all.countDown();
                        if (fails) {
                            throw new IllegalStateException("a task that fails");
                        }
                    };
                    if (i % 2 == 0) {
                        ScheduledFuture<?> f = timer.schedule(task, i % 3, TimeUnit.MILLISECONDS);
                        if (fails) {
                            failed.add(f);
                        }
                    } else {
                        timer.execute(task); // due now: straight to the pool
                    }
                }
                for (int i = 0; i < cancels; i++) {
                    assertTrue(timer.schedule(() -> { }, 1, TimeUnit.HOURS).cancel(false));
                }
                assertTrue(all.await(30, TimeUnit.SECONDS), "every timer ran");
                awaitCondition("pending back to zero (limit " + limit + "): " + timer.metrics(),
                        () -> timer.metrics().pending() == 0);
                // Exact already: the owner counts a step's timers fired before it pushes them to the pool, so no
                // worker can run one before it is counted (it once counted them after, and a fast pool read short).
                TimerMetrics m = timer.metrics();
                assertEquals(n + cancels, m.scheduled(), "limit " + limit);
                assertEquals(n, m.fired(), "limit " + limit);
                assertEquals(cancels, m.cancelled(), "limit " + limit);
                for (ScheduledFuture<?> f : failed) {
                    assertTrue(f.isDone() && !f.isCancelled(), "a failed run ended its timer");
                }
                timer.shutdown();
                assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
                assertEquals(0, timer.metrics().pending(), "limit " + limit + ", after termination");
            }
            assertTrue(threads.uncaught.isEmpty(), () -> "nothing escaped: " + threads.uncaught);
        }
    }

    /**
     * Workers start on demand, one more when every started worker is busy: tasks that block take one worker each
     * until the pool is full, and the rest wait in the queue until a worker is free. (A hand-off that comes while
     * the only worker is between the end of one task and its next look may also start one: the pool counts a
     * worker as available once it is looking, spinning or parked.)
     */
    @Test
    void aWorkerStartsWhenEveryStartedWorkerIsBusyUntilThePoolIsFull() throws Exception {
        FaultThreads threads = new FaultThreads("pool-demand");
        try (WheelTimer timer = WheelTimer.builder().threadFactory(threads).workerThreads(4).build()) {
            assertEquals(1, threads.created.size(), "build() makes the owner only");
            CountDownLatch release = new CountDownLatch(1);
            List<ScheduledFuture<?>> blocked = new ArrayList<>();
            for (int i = 1; i <= 6; i++) {
                CountDownLatch started = new CountDownLatch(1);
                blocked.add(timer.schedule(() -> {
                    started.countDown();
                    ScheduledExecutorContractTest.awaitUninterruptibly(release);
                }, i % 2, TimeUnit.MILLISECONDS));
                if (i <= 4) {
                    assertTrue(started.await(30, TimeUnit.SECONDS), "blocking task " + i + " started on a worker");
                    assertEquals(1 + i, threads.created.size(), "one worker per busy one: " + threads.created);
                }
            }
            assertEquals(5, threads.created.size(), "the pool is full at 4 workers: " + threads.created);
            assertFalse(blocked.get(4).isDone(), "the fifth waits for a free worker");
            release.countDown();
            for (ScheduledFuture<?> f : blocked) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertEquals(5, threads.created.size());
        }
    }

    /** Each timer is scheduled only once every worker is parked: the owner must wake one, 200 times over. */
    @Test
    void parkedWorkersAreWokenForEveryTimer() throws Exception {
        FaultThreads threads = new FaultThreads("pool-wake");
        try (WheelTimer timer = WheelTimer.builder().threadFactory(threads).workerThreads(2).build()) {
            for (int i = 0; i < 200; i++) {
                ScheduledFuture<Thread> f = timer.schedule(Thread::currentThread, i % 3, TimeUnit.MILLISECONDS);
                Thread worker = f.get(30, TimeUnit.SECONDS);
                awaitCondition("worker " + worker.getName() + " parked", () ->
                        worker.getState() == Thread.State.WAITING);
            }
        }
    }

    @Test
    void shutdownNowHandsBackWhatNoWorkerTookAndInterruptsTheRunningTask() throws Exception {
        FaultThreads threads = new FaultThreads("pool-stop");
        WheelTimer timer = WheelTimer.builder().threadFactory(threads).workerThreads(1).build();
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        timer.schedule(() -> {
            running.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        }, 0, TimeUnit.MILLISECONDS);
        assertTrue(running.await(30, TimeUnit.SECONDS));
        int queued = 50;
        AtomicIntegerArray runs = new AtomicIntegerArray(queued);
        for (int i = 0; i < queued; i++) {
            int index = i;
            timer.schedule(() -> runs.incrementAndGet(index), 0, TimeUnit.MILLISECONDS);
        }
        awaitCondition("every timer handed to the pool", () -> timer.metrics().fired() == queued + 1);
        List<Runnable> back = timer.shutdownNow();
        assertEquals(queued, back.size(), "every timer no worker took is handed back");
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        assertTrue(interrupted.get(), "the running task was interrupted");
        for (int i = 0; i < queued; i++) {
            assertEquals(0, runs.get(i), "a handed-back timer did not run: " + i);
        }
        for (Runnable r : back) {
            r.run(); // the caller's to run, once
        }
        for (int i = 0; i < queued; i++) {
            assertEquals(1, runs.get(i), "ran once by its new owner: " + i);
        }
        assertEquals(0, timer.metrics().pending());
    }

    @Test
    void shutdownLetsWorkersFinishTheQueueThenTerminates() throws Exception {
        FaultThreads threads = new FaultThreads("pool-drain");
        WheelTimer timer = WheelTimer.builder().threadFactory(threads).workerThreads(1).build();
        CountDownLatch release = new CountDownLatch(1);
        timer.schedule(() -> {
            release.await();
            return null;
        }, 0, TimeUnit.MILLISECONDS);
        int queued = 100;
        AtomicIntegerArray runs = new AtomicIntegerArray(queued);
        for (int i = 0; i < queued; i++) {
            int index = i;
            timer.schedule(() -> runs.incrementAndGet(index), 0, TimeUnit.MILLISECONDS);
        }
        awaitCondition("every timer handed to the pool", () -> timer.metrics().fired() == queued + 1);
        timer.shutdown();
        assertFalse(timer.awaitTermination(20, TimeUnit.MILLISECONDS), "a worker is still blocked");
        release.countDown();
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        for (int i = 0; i < queued; i++) {
            assertEquals(1, runs.get(i), "queued timer " + i + " ran after shutdown()");
        }
        for (Thread t : threads.created) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(t.isAlive(), t.getName() + " exited");
        }
    }

    /**
     * A second reader's finding: a worker's start raced shutdown(), which saw no live worker and reported the pool
     * terminated while a task was queued and its worker about to start. The factory stalls the start until after
     * shutdown(); the timer must not read terminated meanwhile, and the task must end exactly one way.
     */
    @Test
    void shutdownDuringAWorkersStartDoesNotReportTerminatedEarly() throws Exception {
        CountDownLatch inFactory = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        java.util.concurrent.ThreadFactory factory = r -> {
            if (r.toString().endsWith("-worker")) {
                inFactory.countDown();
                ScheduledExecutorContractTest.awaitUninterruptibly(release);
            }
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        };
        WheelTimer timer = WheelTimer.builder().threadFactory(factory).workerThreads(1).build();
        java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                timer.execute(ran::incrementAndGet); // due now: straight to the pool, whose first worker stalls
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "pool-start-vs-shutdown-producer");
        producer.start();
        assertTrue(inFactory.await(30, TimeUnit.SECONDS), "the worker's start reached the factory");
        timer.shutdown();
        assertFalse(timer.awaitTermination(50, TimeUnit.MILLISECONDS),
                "terminated while a worker was being started for a queued task");
        release.countDown();
        producer.join(30_000);
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS), "terminates once the worker is done");
        boolean rejected = thrown.get() instanceof java.util.concurrent.RejectedExecutionException;
        assertTrue(thrown.get() == null || rejected, () -> "unexpected: " + thrown.get());
        assertEquals(rejected ? 0 : 1, ran.get(), "ran exactly once unless execute threw, never both");
    }

    /**
     * A second reader's finding: close() from the first task of a newly started worker waited for its own worker,
     * because the worker was not yet counted as a pool thread (its starter had not published it). The starter is
     * held just after the thread's start; the task's close() must return.
     */
    @Test
    void closeFromTheFirstTaskOfANewWorkerDoesNotWaitForItself() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        java.util.concurrent.ThreadFactory factory = r -> {
            Thread t = new Thread(r) {
                @Override
                public synchronized void start() {
                    super.start();
                    if (r.toString().endsWith("-worker")) {
                        ScheduledExecutorContractTest.awaitUninterruptibly(release); // the starter held here
                    }
                }
            };
            t.setDaemon(true);
            return t;
        };
        WheelTimer timer = WheelTimer.builder().threadFactory(factory).workerThreads(2).build();
        CountDownLatch closed = new CountDownLatch(1);
        Thread producer = new Thread(() -> timer.execute(() -> {
            timer.close(); // from a pool thread: shuts down without waiting for itself
            closed.countDown();
        }), "close-from-first-task-producer");
        producer.start();
        try {
            assertTrue(closed.await(30, TimeUnit.SECONDS), "close() from the new worker's first task returned");
        } finally {
            release.countDown();
        }
        producer.join(30_000);
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
    }

    /**
     * The owner's batches wake workers only up to the pool's awake cap (max(1, CPUs - 1)); a timer queued behind a
     * task that blocks while the cap is reached is still run by another worker, which the owner's watchdog wakes once
     * the queue has not moved for PoolOwnerSide.STALL_NANOS. Both timers go through the owner (1 ns: not due now).
     */
    @Test
    void aTimerQueuedBehindABlockedTaskRunsOnAnotherWorkerPastTheCap() throws Exception {
        WheelTimer timer = WheelTimer.builder().workerThreads(4).build();
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            ScheduledFuture<?> a = timer.schedule(() -> {
                blocked.countDown();
                ScheduledExecutorContractTest.awaitUninterruptibly(release);
            }, 1, TimeUnit.NANOSECONDS);
            assertTrue(blocked.await(30, TimeUnit.SECONDS), "the blocking task started");
            ScheduledFuture<Thread> b = timer.schedule(Thread::currentThread, 1, TimeUnit.NANOSECONDS);
            Thread ranOn = b.get(30, TimeUnit.SECONDS);
            assertFalse(a.isDone(), "the first task is still blocked while the second ran");
            assertTrue(ranOn != null);
            if (timer.pool().idleWorkers.awakeCap == 1) {
                assertTrue(timer.pool().stalls() >= 1, "with one awake worker allowed, the watchdog woke the second");
            }
        } finally {
            release.countDown();
            timer.shutdown();
            assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    /**
     * The same rescue on a timer whose clock stands still (a test's manual clock that nobody advances): the owner
     * thread's looks are real time apart, so the watchdog measures the stall in real time while the timer's clock
     * does not move. Every awake worker allowed (the awake cap) blocks in a task submitted from outside; one more
     * task, due now, waits in the queue for the watchdog's extra worker. Before, the stall was measured on the
     * timer's clock alone and the task waited until the clock moved (here: the 30 s guard).
     */
    @Test
    void aTaskQueuedBehindBlockedWorkersRunsAlthoughTheTimersClockStandsStill() throws Exception {
        int cap = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
        WheelTimer timer = WheelTimer.builder().timeSource(new ManualTimeSource()).workerThreads(cap + 1).build();
        assertEquals(cap, timer.pool().idleWorkers.awakeCap);
        CountDownLatch blocked = new CountDownLatch(cap);
        CountDownLatch release = new CountDownLatch(1);
        try {
            for (int i = 0; i < cap; i++) {
                timer.execute(() -> {
                    blocked.countDown();
                    ScheduledExecutorContractTest.awaitUninterruptibly(release);
                });
            }
            assertTrue(blocked.await(30, TimeUnit.SECONDS), "every awake worker allowed is blocked in its task");
            CountDownLatch ran = new CountDownLatch(1);
            timer.execute(ran::countDown);
            assertTrue(ran.await(30, TimeUnit.SECONDS), "the queued task ran on a worker the watchdog added");
            assertTrue(timer.pool().stalls() >= 1, "the watchdog found the stall");
        } finally {
            release.countDown();
            timer.shutdown();
            assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    /**
     * Timers due together go to the pool as one batch, which a worker takes whole. When the first task of that batch
     * blocks until the others have run, the rest must not wait for it: another worker steals them (recruited, or,
     * with the awake cap reached, added by the owner's watchdog), and the blocked task is then released by them.
     * With a graceful shutdown right after, the pool still runs every timer and terminates.
     */
    @Test
    void theRestOfABatchWhoseFirstTaskBlocksOnItRunsOnAnotherWorker() throws Exception {
        WheelTimer timer = WheelTimer.builder().workerThreads(4).tick(1, TimeUnit.MILLISECONDS).build();
        int n = 40;
        CountDownLatch others = new CountDownLatch(n - 1);
        AtomicBoolean releasedByOthers = new AtomicBoolean();
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        try {
            futures.add(timer.schedule(() -> {
                try {
                    releasedByOthers.set(others.await(30, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, 20, TimeUnit.MILLISECONDS));
            for (int i = 1; i < n; i++) {
                futures.add(timer.schedule(others::countDown, 20, TimeUnit.MILLISECONDS));
            }
            for (ScheduledFuture<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertTrue(releasedByOthers.get(), "the rest of the blocked task's batch ran on other workers");
        } finally {
            timer.shutdown();
            assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        }
        assertEquals(n, timer.metrics().fired());
    }

    /**
     * The lost nudge, staged (CI found it live: a probe task of the contract suite waited 30 s for a second worker
     * that stayed parked). The awake cap is full, so work due now from outside the pool wakes nobody and nudges the
     * owner instead; here the owner's step has just watched an empty queue and, awake, is about to plan its park, so
     * the nudge finds it awake and does nothing. Its plan must then see the queued task (and not park with nothing
     * due), and the next step's watch must plan the look that adds the parked worker. jcstress:
     * CappedPushVsOwnerPark.
     */
    @Test
    void workDueNowHeldBackByTheCapIsSeenByTheOwnersParkPlanAfterANudgeThatFoundItAwake() {
        int cap = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
        WheelTimer timer = WheelTimer.builder().timeSource(new ManualTimeSource()).tick(1, TimeUnit.MILLISECONDS)
                .manualDrive().workerThreads(cap + 1).build();
        WorkerPool pool = timer.pool();
        assertEquals(cap, pool.idleWorkers.awakeCap);
        for (int i = 0; i < cap; i++) {
            pool.detachedWorker(); // awake: blocked in a task, as far as the pool knows
        }
        WorkerPool.Worker parked = pool.detachedWorker();
        pool.idleWorkers.pushIdle(parked);
        OwnerLoop loop = OwnerLoop.of(timer);

        loop.step(); // the watch: an empty queue
        assertTrue(loop.ownerPark.isAwake(), "a stepping owner is awake: a nudge now finds nothing to wake");
        ScheduledFuture<?> f = timer.schedule(() -> { }, 0, TimeUnit.MILLISECONDS); // due now: straight to the pool
        assertFalse(pool.queue.isEmpty(), "the task waits in the pool's queue");
        assertEquals(WorkerPool.PARKED, parked.state, "the cap held its wake-up back");

        assertEquals(CommandPort.AWAKE, loop.ownerPark.planPark(),
                "the owner must not park with nothing due beside the task");
        loop.step(); // the watch sees the task
        long plan = loop.ownerPark.planPark();
        assertTrue(plan != CommandPort.AWAKE && plan <= 1,
                "then it parks at most a tick, to look again (the watchdog), not indefinitely: " + plan);
        assertFalse(f.isDone());
        timer.shutdownNow();
    }

    /**
     * shutdown() keeps the watchdog until the pool's backlog has its worker (a second reader found this; 4 of 12
     * runs stranded the task with real threads). Work due now accepted before shutdown, whose wake-up the awake cap
     * held back, waits in the pool's queue for the owner's watchdog to add a worker past the cap. An owner that exits
     * because the wheel is empty takes the watchdog with it, and the pool starts nobody once shut down: the task would
     * wait for the blocked workers (forever, if they wait for it).
     */
    @Test
    void shutdownKeepsTheOwnersWatchdogUntilWorkHeldBackByTheCapHasAWorker() {
        CappedPool capped = CappedPool.create();
        ManualTimeSource clock = capped.clock();
        WheelTimer timer = capped.timer();
        WorkerPool pool = capped.pool();
        WorkerPool.Worker parked = capped.parked();
        OwnerLoop loop = OwnerLoop.of(timer);
        loop.step();

        timer.execute(() -> { }); // due now, accepted: queued in the pool, its wake-up held back by the cap
        timer.shutdown();
        loop.step(); // the watch's first look at the queued task: a backlog
        assertFalse(timer.termination.ownerDone(), "the owner must not exit while its watchdog is needed");
        assertEquals(WorkerPool.PARKED, parked.state);
        long plan = loop.ownerPark.planPark();
        assertTrue(plan != CommandPort.AWAKE && plan <= 1, "it parks at most a tick, to look again: " + plan);

        clock.advance(1, TimeUnit.MILLISECONDS); // past the stall
        loop.step(); // the watch finds the head unchanged and no awake worker coming: it wakes one past the cap
        assertEquals(WorkerPool.ACTIVE, parked.state, "the watchdog woke the parked worker for the task");
        loop.step(); // every worker is awake now: nothing left to add, and the owner exits
        assertTrue(timer.termination.ownerDone(), "then the owner exits");
        assertFalse(pool.queue.isEmpty(), "the task is the woken worker's (a detached one here, which never runs)");
    }

    /**
     * A worker being started by another thread is no promise for this push (a second reader found this): that
     * worker may take other work first and block in it. Here a task submits Y while its thread is still inside
     * the start of the worker that takes Y (as if descheduled there, holding the pool's start turn); Y submits X
     * and waits for it. X's signal found the start turn taken: it must have the owner's watchdog look, or X waits
     * with a free slot in the pool, the owner parked, and both tasks waiting for it.
     */
    @Test
    void workDueNowThatFindsAnotherThreadStartingAWorkerStillGetsOne() throws Exception {
        CountDownLatch xSubmitted = new CountDownLatch(1);
        CountDownLatch releaseStarter = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger workersMade = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ThreadFactory factory = r -> {
            boolean delayed = r.toString().endsWith("-worker") && workersMade.incrementAndGet() == 2;
            Thread t = new Thread(r, r.toString()) {
                @Override
                public synchronized void start() {
                    super.start();
                    if (delayed) {
                        // The starter stays inside the start, holding the start turn, until X is submitted.
                        ScheduledExecutorContractTest.awaitUninterruptibly(releaseStarter);
                    }
                }
            };
            t.setDaemon(true);
            return t;
        };
        WheelTimer timer = WheelTimer.builder().threadFactory(factory).workerThreads(4).build();
        try {
            CountDownLatch xRan = new CountDownLatch(1);
            ScheduledFuture<Boolean> outer = timer.schedule(() -> {
                ScheduledFuture<Boolean> y = timer.schedule(() -> {
                    timer.execute(xRan::countDown);
                    xSubmitted.countDown();
                    return xRan.await(30, TimeUnit.SECONDS);
                }, 0, TimeUnit.NANOSECONDS); // its worker's start holds this thread until X is submitted
                return y.get(60, TimeUnit.SECONDS);
            }, 0, TimeUnit.NANOSECONDS);
            assertTrue(xSubmitted.await(30, TimeUnit.SECONDS), "Y ran and submitted X");
            releaseStarter.countDown();
            assertTrue(outer.get(60, TimeUnit.SECONDS), "X ran while Y waited for it");
        } finally {
            releaseStarter.countDown();
            timer.shutdownNow();
        }
    }

    /**
     * The capped path's nudge wakes the owner only when its watchdog would not look soon by itself: a worker's take
     * that leaves work queued nudges once per take in a burst, and an owner woken once per take (559,726 unparks in
     * 12 shots of 1M timers with two workers, before) only steps to find its next tick not yet come. Parked with a
     * plan that ends within the watchdog's stall (100 ticks of 1 µs here), it is left to wake by itself; parked with
     * nothing due, it is woken.
     */
    @Test
    void aNudgeWakesTheOwnerOnlyIfItsParkEndsLaterThanTheWatchdogsStall() {
        WheelTimer soon = capFullManualTimer();
        OwnerLoop loop = OwnerLoop.of(soon);
        soon.schedule(() -> { }, 50, TimeUnit.MICROSECONDS);
        loop.step();
        long plan = loop.ownerPark.planPark();
        assertTrue(plan > 0 && plan <= 51, "parks until the timer 50 µs out: " + plan);
        soon.execute(() -> { }); // capped: a nudge
        assertFalse(loop.ownerPark.isAwake(),
                "a plan that ends within the stall is left alone: the owner looks by itself");
        soon.shutdownNow();

        WheelTimer idle = capFullManualTimer();
        loop = OwnerLoop.of(idle);
        loop.step();
        assertEquals(CommandPort.NO_EVENT, loop.ownerPark.planPark(), "nothing due: an indefinite park");
        idle.execute(() -> { });
        assertTrue(loop.ownerPark.isAwake(), "with nothing due, the nudge wakes the owner for its watchdog");
        idle.shutdownNow();
    }

    /** A manually driven timer (1 µs tick) whose own pool has the awake cap's workers awake and one parked. */
    private static WheelTimer capFullManualTimer() {
        int cap = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
        WheelTimer timer = WheelTimer.builder().timeSource(new ManualTimeSource()).manualDrive()
                .workerThreads(cap + 1).build();
        assertEquals(1_000L, timer.tickNanos());
        WorkerPool pool = timer.pool();
        assertEquals(cap, pool.idleWorkers.awakeCap);
        for (int i = 0; i < cap; i++) {
            pool.detachedWorker();
        }
        pool.idleWorkers.pushIdle(pool.detachedWorker());
        return timer;
    }
    /**
     * The spinner's length adapts: each spin that sees nothing halves the next, down to the floor (an isolated fire,
     * after which no work comes, then costs a few dozen rounds, not a thousand); a spin that sees work restores the
     * most (hand-offs are coming back to back).
     */
    @Test
    void aSpinThatSeesNothingHalvesTheNextDownToTheFloorAndOneThatSeesWorkRestoresTheMost() {
        WheelTimer timer = WheelTimer.builder().timeSource(new ManualTimeSource()).tick(1, TimeUnit.MILLISECONDS)
                .manualDrive().workerThreads(1).build();
        WorkerPool pool = timer.pool();
        pool.detachedWorker();
        assertEquals(IdleWorkers.MAX_SPINS, pool.idleWorkers.spinRounds(), "a new pool spins the most");
        int expected = IdleWorkers.MAX_SPINS;
        while (expected > IdleWorkers.MIN_SPINS) {
            assertFalse(pool.idleWorkers.spin(), "an empty queue: the spin sees nothing");
            expected /= 2;
            assertEquals(expected, pool.idleWorkers.spinRounds());
        }
        assertFalse(pool.idleWorkers.spin());
        assertEquals(IdleWorkers.MIN_SPINS, pool.idleWorkers.spinRounds(), "never below the floor");
        ScheduledFuture<?> f = timer.submit(() -> { }); // due now: pushed to the pool's queue at once
        assertTrue(pool.idleWorkers.spin(), "the spin sees the queued task");
        assertEquals(IdleWorkers.MAX_SPINS, pool.idleWorkers.spinRounds(),
                "work seen: the next spin is the longest again");
        assertTrue(pool.queue.poll() == f);
        timer.shutdownNow();
    }

    /**
     * A step's due timers go to the pool in batches of {@link HandOffBatch#CAPACITY}: handed out one at a time, in
     * the order the step dispatched them (the wheel's order: equal deadlines in the order scheduled), each exactly
     * once. An emptied batch goes back to the owner with every slot cleared (it keeps no run timer, nor its task,
     * reachable), and the next step reuses those batches rather than make new ones.
     */
    @Test
    void aStepsDueTimersAreHandedOutInOrderThroughBatchesThatAreReusedAndKeepNoReference() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive()
                .workerThreads(1).build();
        WorkerPool pool = timer.pool();
        pool.detachedWorker(); // the pool's only worker, awake as far as the pool knows: nothing is started
        OwnerLoop loop = OwnerLoop.of(timer);
        int n = 3 * HandOffBatch.CAPACITY + 5;
        for (int round = 0; round < 2; round++) {
            List<ScheduledFuture<?>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(timer.schedule(() -> { }, 1, TimeUnit.MILLISECONDS));
            }
            clock.advance(1, TimeUnit.MILLISECONDS);
            loop.step(); // all due: one step hands them off, as four batches in one push
            for (int i = 0; i < n; i++) {
                TimingWheel.Node t = pool.queue.poll();
                assertTrue(t == futures.get(i), "timer " + i + " of round " + round + " handed out in order");
            }
            assertTrue(pool.queue.poll() == null, "then the queue is empty");
            assertTrue(pool.queue.isEmpty());
            int recycled = 0;
            for (HandOffBatch b = pool.queue.freeBatches; b != null; b = b.freeNext) {
                recycled++;
                assertEquals(0, b.count);
                for (TimingWheel.Node item : b.items) {
                    assertTrue(item == null, "a recycled batch keeps no timer");
                }
            }
            assertEquals(4, recycled, "round " + round + ": every emptied batch came back");
            assertEquals(4, pool.pooledBatches(), "round " + round + ": the second round made no new batch");
        }
        timer.shutdownNow();
    }

    /**
     * The watchdog sees a batch move, not only the queue's head: here workers took the first two of four timers due
     * together (and then blocked in them, as far as the pool knows), and the other two wait in the same batch, still
     * the queue's head. A take from the batch is progress, so no worker is added for it; with the awake cap reached,
     * the watchdog must wake the parked worker past the cap once nothing has been handed out for a stall, and that
     * worker gets the two, in order.
     */
    @Test
    void timersLeftInABatchBehindABlockedTaskGetAnotherWorkerFromTheWatchdog() {
        CappedPool capped = CappedPool.create();
        ManualTimeSource clock = capped.clock();
        WheelTimer timer = capped.timer();
        WorkerPool pool = capped.pool();
        WorkerPool.Worker parked = capped.parked();
        OwnerLoop loop = OwnerLoop.of(timer);
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            futures.add(timer.schedule(() -> { }, 1, TimeUnit.MILLISECONDS));
        }
        clock.advance(1, TimeUnit.MILLISECONDS);
        loop.step(); // one batch of four; the cap holds the wake-up back
        assertTrue(pool.queue.poll() == futures.get(0), "a worker took the first: the batch is now the queue's head");
        loop.step(); // the watch looks at the queued batch
        assertEquals(WorkerPool.PARKED, parked.state);
        clock.advance(1, TimeUnit.MILLISECONDS); // past the stall, but the batch moves:
        assertTrue(pool.queue.poll() == futures.get(1), "a worker took the second (and then blocked in it)");
        loop.step(); // the head is still the same batch, yet a timer was handed out: no stall
        assertEquals(WorkerPool.PARKED, parked.state, "a batch being taken is not a stalled queue");
        clock.advance(1, TimeUnit.MILLISECONDS); // past the stall, nothing handed out since
        loop.step();
        assertEquals(WorkerPool.ACTIVE, parked.state, "the watchdog woke the parked worker for the batch's rest");
        assertTrue(pool.queue.poll() == futures.get(2));
        assertTrue(pool.queue.poll() == futures.get(3));
        assertTrue(pool.queue.poll() == null);
        timer.shutdownNow();
    }

    /**
     * A CPU-bound task holds its worker as a blocked one does. Every awake worker (as many as the awake cap) is inside
     * one runnable task, and a timer waits behind them in the queue: the watchdog's first look at the stall only
     * notes each task, its second, a stall later, finds the same tasks still running and wakes the parked worker past
     * the cap. Before, a runnable task counted as a worker coming back, so the timer waited for
     * PoolOwnerSide.RUNNABLE_STALL_NANOS (10 ms; 4 to 17 ms late on 2 cores beside a 200 ms task, against the JDK's
     * pool's 0.2). A worker that moved on to its next task between the looks is still coming back, and so is one
     * seen in the same task at looks less than a stall apart: no wake-up then.
     */
    @Test
    void timersQueuedBehindCpuBoundTasksGetAnotherWorkerAfterTwoLooksNotTheRunnableStall() throws Exception {
        ManualTimeSource clock = new ManualTimeSource();
        int cores = Runtime.getRuntime().availableProcessors();
        WheelTimer timer = WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive()
                .workerThreads(Math.max(1, cores - 1) + 1).build();
        WorkerPool pool = timer.pool();
        int cap = pool.idleWorkers.awakeCap;
        OwnerLoop loop = OwnerLoop.of(timer);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch spinning = new CountDownLatch(1);
        Thread cpuBound = new Thread(() -> {
            spinning.countDown();
            while (!stop.get()) {
                Thread.onSpinWait();
            }
        }, "cpu-bound-task");
        cpuBound.setDaemon(true);
        cpuBound.start();
        try {
            assertTrue(spinning.await(30, TimeUnit.SECONDS));
            List<WorkerPool.Worker> busy = new ArrayList<>();
            for (int i = 0; i < cap; i++) {
                busy.add(pool.detachedWorkerInTask(cpuBound)); // awake, each inside a runnable task
            }
            WorkerPool.Worker parked = pool.detachedWorker();
            pool.idleWorkers.pushIdle(parked);
            assertEquals(Thread.State.RUNNABLE, cpuBound.getState());

            ScheduledFuture<?> first = timer.schedule(() -> { }, 1, TimeUnit.MILLISECONDS);
            clock.advance(1, TimeUnit.MILLISECONDS);
            loop.step(); // hands it off; the cap holds the wake-up back; the watch notes the queue
            assertEquals(WorkerPool.PARKED, parked.state);
            clock.advance(1, TimeUnit.MILLISECONDS); // a stall, far short of the runnable stall
            loop.step(); // the first look at the stall: notes each worker's task
            assertEquals(WorkerPool.PARKED, parked.state, "a task first seen now may be about to end");
            for (WorkerPool.Worker w : busy) {
                pool.nextTaskOf(w); // each ended its task and started the next
            }
            clock.advance(1, TimeUnit.MILLISECONDS);
            loop.step(); // new tasks: still workers that come back by themselves
            assertEquals(WorkerPool.PARKED, parked.state, "a worker that moved on to its next task is coming back");
            clock.advance(PoolOwnerSide.STALL_NANOS / 2, TimeUnit.NANOSECONDS);
            loop.step(); // the same tasks, but seen only half a stall ago
            assertEquals(WorkerPool.PARKED, parked.state, "a task seen less than a stall ago may be about to end");
            assertEquals(0, pool.stalls());
            clock.advance(1, TimeUnit.MILLISECONDS);
            loop.step(); // the same tasks, a stall and more later: CPU-bound, as good as blocked
            assertEquals(WorkerPool.ACTIVE, parked.state, "the watchdog woke the parked worker past the cap");
            assertEquals(1, pool.stalls());
            assertTrue(clock.nanoTime() < PoolOwnerSide.RUNNABLE_STALL_NANOS, "well before the runnable stall");
            assertTrue(pool.queue.poll() == first, "and the timer is there for it");
        } finally {
            stop.set(true);
            timer.shutdownNow();
            cpuBound.join(30_000);
        }
    }

    /**
     * A worker takes a step's batch out of the queue whole and claims from it, lowest first; a thief takes the upper
     * half of what is left into its own batch (the last timer alone, when one is left), from which it claims in turn.
     * Every timer is claimed once, in the step's order within each part, and the batch goes back to the owner once,
     * when its last timer is claimed.
     */
    @Test
    void aThiefStealsTheUpperHalfOfWhatAWorkerHoldsAndEachTimerIsClaimedOnce() {
        HeldBatchRig rig = HeldBatchRig.create(10); // one batch of ten, queued; two detached workers
        WheelTimer timer = rig.timer();
        WorkerPool pool = rig.pool();
        WorkerPool.Worker holder = rig.holder();
        WorkerPool.Worker thief = rig.thief();
        List<ScheduledFuture<?>> futures = rig.futures();
        assertTrue(pool.queue.poll(holder) == futures.get(0), "the holder takes the batch and claims its first");
        assertTrue(pool.queue.isEmpty(), "the batch left the queue whole");
        assertTrue(holder.held != null);
        assertEquals(9, holder.left, "nine left after its claim");
        assertTrue(pool.queue.steal(thief, holder) == futures.get(6), "nine left: the thief takes the top four");
        assertTrue(thief.held != null && thief.held != holder.held, "into its own batch");
        for (int i = 7; i < 10; i++) {
            assertTrue(pool.queue.poll(thief) == futures.get(i), "the thief claims what it stole, in order: " + i);
        }
        assertTrue(pool.queue.poll(thief) == null, "then the thief has nothing");
        for (int i = 1; i < 5; i++) {
            assertTrue(pool.queue.poll(holder) == futures.get(i), "the holder keeps the lower half, in order: " + i);
        }
        assertTrue(pool.queue.steal(thief, holder) == futures.get(5), "one left: the thief takes it alone");
        assertTrue(pool.queue.poll(holder) == null, "the holder reads its batch empty");
        assertTrue(holder.held == null);
        int recycled = 0;
        for (HandOffBatch b = pool.queue.freeBatches; b != null; b = b.freeNext) {
            recycled++;
            assertEquals(0, b.count);
            for (TimingWheel.Node item : b.items) {
                assertTrue(item == null, "a batch given back keeps no timer");
            }
        }
        assertEquals(1, recycled, "the batch went back to the owner once, by the claim that emptied it");
        assertTrue(pool.queue.steal(thief, holder) == null, "nothing left to steal");
        timer.shutdownNow();
    }

    /**
     * shutdownNow hands back what is left in a batch a worker holds (and in the half a thief stole from it), as well
     * as what is queued: every timer not claimed by a worker comes back once.
     */
    @Test
    void shutdownNowHandsBackTheTimersLeftInBatchesWorkersHold() {
        HeldBatchRig rig = HeldBatchRig.create(12); // one batch of twelve, queued; two detached workers
        WheelTimer timer = rig.timer();
        WorkerPool pool = rig.pool();
        WorkerPool.Worker holder = rig.holder();
        WorkerPool.Worker thief = rig.thief();
        List<ScheduledFuture<?>> futures = rig.futures();
        assertTrue(pool.queue.poll(holder) == futures.get(0));
        assertTrue(pool.queue.steal(thief, holder) == futures.get(7), "eleven left: the thief takes the top five");
        ScheduledFuture<?> queued = timer.submit(() -> { }); // due now: queued behind
        List<Runnable> back = timer.shutdownNow();
        Set<Object> expected = new java.util.HashSet<>(futures.subList(1, 7));
        expected.addAll(futures.subList(8, 12));
        expected.add(queued);
        assertEquals(expected.size(), back.size(), "each timer not claimed comes back once");
        assertEquals(expected, new java.util.HashSet<Object>(back));
        assertTrue(pool.queue.poll(holder) == null && pool.queue.poll(thief) == null, "nothing left to claim");
    }

    /**
     * A manually driven timer whose pool has two detached workers (a holder and a thief, both awake as far as the pool
     * knows) and {@code n} timers due together, handed off by one step as one batch and still queued.
     */
    private record HeldBatchRig(WheelTimer timer, WorkerPool pool, WorkerPool.Worker holder, WorkerPool.Worker thief,
                                List<ScheduledFuture<?>> futures) {
        static HeldBatchRig create(int n) {
            ManualTimeSource clock = new ManualTimeSource();
            WheelTimer timer = WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive()
                    .workerThreads(2).build();
            WorkerPool pool = timer.pool();
            WorkerPool.Worker holder = pool.detachedWorker();
            WorkerPool.Worker thief = pool.detachedWorker();
            List<ScheduledFuture<?>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(timer.schedule(() -> { }, 1, TimeUnit.MILLISECONDS));
            }
            clock.advance(1, TimeUnit.MILLISECONDS);
            OwnerLoop.of(timer).step();
            return new HeldBatchRig(timer, pool, holder, thief, futures);
        }
    }

    /**
     * A manually driven timer (1 ms tick, a manual clock) whose pool has reached its awake cap: as many workers as
     * the cap, awake and blocked in tasks as far as the pool knows (detached: no thread, so never runnable), and one
     * more parked on the idle stack, which only the owner's watchdog may wake past the cap.
     */
    private record CappedPool(ManualTimeSource clock, WheelTimer timer, WorkerPool pool, WorkerPool.Worker parked) {
        static CappedPool create() {
            ManualTimeSource clock = new ManualTimeSource();
            int cap = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
            WheelTimer timer = WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive()
                    .workerThreads(cap + 1).build();
            WorkerPool pool = timer.pool();
            for (int i = 0; i < cap; i++) {
                pool.detachedWorker();
            }
            WorkerPool.Worker parked = pool.detachedWorker();
            pool.idleWorkers.pushIdle(parked);
            return new CappedPool(clock, timer, pool, parked);
        }
    }
}

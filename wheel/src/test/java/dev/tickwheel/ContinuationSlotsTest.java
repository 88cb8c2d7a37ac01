package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The workers' continuation slots ({@link ContinuationSlots}), through the public API on manually driven timers: the
 * owner's watchdog runs only when a test steps it, on a manual clock, so where a continuation runs is decided by the
 * slot alone. The races (take vs move, take vs hand-back, move vs hand-back, fill vs the owner's park) are jcstress
 * tests: SlotTakeVsMove, SlotTakeVsHandBack, SlotMoveVsHandBack, SlotFillVsOwnerPark.
 */
class ContinuationSlotsTest {

    private static final long GUARD_SECONDS = 30;

    private static WheelTimer manualPool(ManualTimeSource clock, FaultThreads threads, int workers) {
        return WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive()
                .threadFactory(threads).workerThreads(workers).build();
    }

    /**
     * A chain of steps, each submitted by the one before, stays on the first step's worker: no other worker is started
     * (each step would otherwise push to the queue with an uncapped signal, which starts one while none is parked).
     */
    @Test
    void aChainOfStepsRunsOnItsFirstWorkerAndStartsNoOther() throws Exception {
        FaultThreads threads = new FaultThreads("slot-chain");
        WheelTimer timer = manualPool(new ManualTimeSource(), threads, 4);
        try {
            List<Thread> ranOn = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            timer.execute(() -> {
                ranOn.add(Thread.currentThread());
                timer.execute(() -> {
                    ranOn.add(Thread.currentThread());
                    timer.execute(() -> {
                        ranOn.add(Thread.currentThread());
                        done.countDown();
                    });
                });
            });
            assertTrue(done.await(GUARD_SECONDS, TimeUnit.SECONDS), "the chain ran");
            assertEquals(3, ranOn.size());
            assertEquals(1, ranOn.stream().distinct().count(), "every step on the first step's worker: " + ranOn);
            assertEquals(1, threads.created.size(), "one worker started: " + threads.created);
            // The steps a task submitted are counted by its worker, not in the shared adder: the metrics see them all.
            FaultThreads.awaitCondition("the last step's end counted", () -> timer.metrics().pending() == 0);
            WheelTimerManualClockTest.assertMetrics(timer, 0, 3, 3, 0, 0);
        } finally {
            timer.shutdownNow();
        }
        assertTrue(threads.uncaught.isEmpty(), () -> "nothing escaped: " + threads.uncaught);
    }

    /**
     * With one worker, {@code execute}'s order holds: a task submitted from outside before a task's submit runs before
     * it (a slot is filled only when the queue is empty), and a task's second and third submits queue behind its first
     * (in the slot).
     */
    @Test
    void oneWorkerRunsTasksInTheOrderTheyWereSubmitted() throws Exception {
        FaultThreads threads = new FaultThreads("slot-fifo");
        WheelTimer timer = manualPool(new ManualTimeSource(), threads, 1);
        try {
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch aStarted = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(2);
            timer.execute(() -> {
                order.add("A");
                aStarted.countDown();
                ContinuationSlotsTest.await(go);
                timer.execute(() -> order.add("B")); // X is queued: B goes behind it
                timer.execute(() -> {
                    order.add("C");
                    timer.execute(() -> order.add("D")); // the queue is empty: D fills C's worker's slot
                    timer.execute(() -> order.add("E")); // the slot is full: E is queued behind D
                    timer.execute(() -> {
                        order.add("F");
                        done.countDown();
                    });
                });
                done.countDown();
            });
            assertTrue(aStarted.await(GUARD_SECONDS, TimeUnit.SECONDS), "A ran");
            timer.execute(() -> order.add("X")); // from outside, while A runs
            go.countDown();
            assertTrue(done.await(GUARD_SECONDS, TimeUnit.SECONDS), "F ran");
            assertEquals(List.of("A", "X", "B", "C", "D", "E", "F"), order);
        } finally {
            timer.shutdownNow();
        }
    }

    /**
     * A task that submits a step and then waits for it (not through its future) holds the step in its slot; the
     * owner's watchdog moves it to the queue once it has seen the task inside for a stall, and a second worker runs
     * it. A look before the stall moves nothing.
     */
    @Test
    void theWatchdogMovesAContinuationWhoseSubmitterWaitsForIt() throws Exception {
        ManualTimeSource clock = new ManualTimeSource();
        FaultThreads threads = new FaultThreads("slot-watch");
        WheelTimer timer = manualPool(clock, threads, 2);
        try {
            CountDownLatch stepRan = new CountDownLatch(1);
            Future<Boolean> task = submitAStepAndWaitForIt(timer, stepRan);
            OwnerLoop loop = OwnerLoop.of(timer);
            loop.step(); // the watchdog's first look: notes the task
            assertEquals(0, timer.pool().slotMoves(), "nothing moved before a stall");
            assertEquals(1, stepRan.getCount(), "the step waits in the slot");
            clock.advance(PoolOwnerSide.STALL_NANOS, TimeUnit.NANOSECONDS);
            loop.step(); // the same task, a stall later: the step is moved, and a worker started for it
            assertTrue(task.get(GUARD_SECONDS, TimeUnit.SECONDS), "the step ran while its submitter waited");
            assertEquals(1, timer.pool().slotMoves());
            assertEquals(2, threads.created.size(), "a second worker ran the step: " + threads.created);
        } finally {
            timer.shutdownNow();
        }
    }

    /**
     * On a clock that does not move (a manual clock a test forgot, or a frozen one), the owner thread's watchdog still
     * moves a continuation whose submitter waits for it: its clock ({@code OwnerLoop.watchNanos}) follows real time
     * while the timer's stands still, as the owner's timed parks do. Here the owner is the timer's own thread (in
     * manual drive the test's steps, not real time, decide what the watchdog sees). Measured on the timer's clock
     * alone, the step would wait for the guard.
     */
    @Test
    void theWatchdogMovesAStalledContinuationEvenIfTheTimersClockStandsStill() throws Exception {
        FaultThreads threads = new FaultThreads("slot-frozen");
        WheelTimer timer = WheelTimer.builder().timeSource(new ManualTimeSource()).tick(1, TimeUnit.MILLISECONDS)
                .threadFactory(threads).workerThreads(2).build();
        try {
            CountDownLatch stepRan = new CountDownLatch(1);
            Future<Boolean> task = submitAStepAndWaitForIt(timer, stepRan);
            assertTrue(task.get(GUARD_SECONDS, TimeUnit.SECONDS), "the step ran while its submitter waited");
            assertEquals(1, timer.pool().slotMoves());
        } finally {
            timer.shutdownNow();
        }
    }

    /**
     * A task that submits two tasks (a fan-out, not a chain) gets both onto the queue at once, in order: the first
     * leaves the slot for the queue when the second comes, and no slot is left for the watchdog to move. The test
     * steps the owner while it waits, as its thread would: the worker the push starts may lose the start to the
     * thread still starting the task's own worker, and then the watchdog adds one (a queue stall, not a slot's).
     */
    @Test
    void aFanOutFromATaskLeavesNothingInItsSlot() throws Exception {
        FaultThreads threads = new FaultThreads("slot-fan");
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = manualPool(clock, threads, 3);
        try {
            CountDownLatch both = new CountDownLatch(2);
            Future<Boolean> task = timer.submit(() -> {
                timer.execute(both::countDown);
                timer.execute(both::countDown);
                return both.await(GUARD_SECONDS, TimeUnit.SECONDS);
            });
            stepOwnerUntil(timer, clock, both);
            assertTrue(task.get(GUARD_SECONDS, TimeUnit.SECONDS), "both ran while their submitter waited");
            assertEquals(0, timer.pool().slotMoves(), "nothing was left in the slot for the watchdog to move");
        } finally {
            timer.shutdownNow();
        }
    }

    /**
     * {@code get()} on a step in the caller's own slot hands the step on before it blocks: it is queued for another
     * worker at once, not left for the watchdog to move. The owner is stepped while the test waits (see the fan-out
     * test: the worker the hand-on starts may lose the start to the thread still starting the task's own).
     */
    @Test
    void getOnAContinuationInTheCallersOwnSlotHandsItOnAtOnce() throws Exception {
        FaultThreads threads = new FaultThreads("slot-get");
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = manualPool(clock, threads, 2);
        try {
            CountDownLatch returned = new CountDownLatch(1);
            Future<Integer> task = timer.submit(() -> {
                try {
                    return timer.submit(() -> 42).get(GUARD_SECONDS, TimeUnit.SECONDS);
                } finally {
                    returned.countDown();
                }
            });
            stepOwnerUntil(timer, clock, returned);
            assertEquals(42, task.get(GUARD_SECONDS, TimeUnit.SECONDS));
            assertEquals(0, timer.pool().slotMoves(), "handed on by get(), not moved by the watchdog");
        } finally {
            timer.shutdownNow();
        }
    }

    /**
     * shutdownNow hands back a continuation still in a slot (its submitter blocked): returned, not run, and the
     * caller can run it.
     */
    @Test
    void shutdownNowHandsBackAContinuationLeftInASlot() throws Exception {
        FaultThreads threads = new FaultThreads("slot-now");
        WheelTimer timer = manualPool(new ManualTimeSource(), threads, 1);
        CountDownLatch submitted = new CountDownLatch(1);
        CountDownLatch stepRan = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        timer.execute(() -> {
            timer.execute(stepRan::countDown);
            submitted.countDown();
            try {
                new CountDownLatch(1).await(GUARD_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        assertTrue(submitted.await(GUARD_SECONDS, TimeUnit.SECONDS), "the task submitted its step");
        List<Runnable> back = timer.shutdownNow();
        assertEquals(1, back.size(), "the step is handed back: " + back);
        assertTrue(interrupted.await(GUARD_SECONDS, TimeUnit.SECONDS), "the running task was interrupted");
        assertTrue(timer.awaitTermination(GUARD_SECONDS, TimeUnit.SECONDS), "terminated");
        assertEquals(1, stepRan.getCount(), "the handed-back step did not run");
        back.get(0).run();
        assertEquals(0, stepRan.getCount(), "it is the step: the caller can run it");
    }

    /**
     * Submits a task that submits one step and then waits for it on a latch (not through the step's future, so the
     * step stays in the task's slot until the watchdog moves it), and returns once the task has submitted it.
     */
    private static Future<Boolean> submitAStepAndWaitForIt(WheelTimer timer, CountDownLatch stepRan)
            throws InterruptedException {
        CountDownLatch submitted = new CountDownLatch(1);
        Future<Boolean> task = timer.submit(() -> {
            timer.execute(stepRan::countDown);
            submitted.countDown();
            return stepRan.await(GUARD_SECONDS, TimeUnit.SECONDS);
        });
        assertTrue(submitted.await(GUARD_SECONDS, TimeUnit.SECONDS), "the task submitted its step");
        return task;
    }

    /**
     * Waits a second for {@code latch}, then steps the manually driven owner, as its thread would, until it is
     * released (bounded by the guard): each wait between steps is on the latch itself, for at most the watchdog's
     * stall, as the owner's timed park. The second first: the task has long passed the point the test is about
     * before the watchdog's first look, so the watchdog can only rescue what that point left behind.
     */
    private static void stepOwnerUntil(WheelTimer timer, ManualTimeSource clock, CountDownLatch latch)
            throws InterruptedException {
        if (latch.await(1, TimeUnit.SECONDS)) {
            return;
        }
        OwnerLoop loop = OwnerLoop.of(timer);
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
        while (!latch.await(PoolOwnerSide.STALL_NANOS, TimeUnit.NANOSECONDS) && System.nanoTime() - giveUp < 0) {
            if (clock != null) {
                // The time the owner's park took, on the timer's clock: the watchdog's look at a stalled queue
                // measures its stall there (CI caught a frozen clock holding a queued task for 30 s).
                clock.advance(PoolOwnerSide.STALL_NANOS, TimeUnit.NANOSECONDS);
            }
            loop.step();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(GUARD_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("gave up after " + GUARD_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}

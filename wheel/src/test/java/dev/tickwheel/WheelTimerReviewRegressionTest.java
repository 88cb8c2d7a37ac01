package dev.tickwheel;

import static dev.tickwheel.FaultThreads.awaitCondition;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression tests for the concurrency review of {@link WheelTimer}, {@link ScheduledTimer} and
 * {@link PeriodicTimer} (notes/REVIEW.md, findings 1-9): each test replays the interleaving of one finding
 * deterministically and fails on the code before the fixes of commit "WheelTimer: fixes from the concurrency
 * review" (62a8ece). Three of them go further than that commit and needed two more small fixes in WheelTimer,
 * made with these tests: finding 6 for a one-shot timer (its public run() left the node in the wheel until its
 * deadline), and a third interleaving of finding 2 (a task on the owner thread that parks uses up the unpark of
 * shutdown() or shutdownNow(), and planPark then let the owner sleep until its next timer).
 *
 * <p>How the interleavings are forced, without sleeps or timing bounds:
 * <ul>
 *   <li>The manual-drive seam with a manual clock: the test thread is the owner and calls {@code step()} and
 *   {@code planPark()} itself; a direct executor runs tasks inside {@code step()}.</li>
 *   <li>Threads that must stop at an exact point wait on latches at a hook the code already calls there: the
 *   {@link TimeSource} (a periodic runner reads it between its shutdown check and its resubmit), the step hook
 *   (the start of an owner step), a task, or an executor.</li>
 *   <li>A producer stalled between its start-queue index claim and its element store (finding 1): the
 *   reviewer did this with a helper class in package {@code org.jctools.queues}. Here the tests run on the module
 *   path (the test classes are patched into module {@code dev.tickwheel}, and {@code org.jctools.core} is an
 *   explicit module that opens nothing), so a class in that package would be a split package and cannot load.
 *   Public API does the same: {@code MessagePassingQueue.fill(supplier, 1)} on the XADD queue claims the index
 *   with its atomic add, then calls the supplier, then stores what the supplier returned. A supplier that blocks
 *   on a latch is a producer stalled at exactly that point, for as long as the test wants. Only the queue itself
 *   is taken from the timer's private field by reflection (same module, so no opening is needed).</li>
 * </ul>
 *
 * <p>Every wait has a hang guard ({@link FaultThreads#awaitCondition}, latch and join limits, and the class
 * {@link Timeout}); none of them is a timing assertion: each waits for something that must happen.
 *
 * <p>Not here: finding 5 (the owner yields instead of spinning hot while a producer is mid-offer) changes only
 * how the owner spends CPU, which a unit test cannot observe without measuring time; finding 8's first point (an
 * {@link OutOfMemoryError} inside {@code endPeriodicTimersInWheel}) needs allocation failure injection; findings
 * 10 and 11 are data races and documentation, for the jcstress suite and for review.
 */
// SEPARATE_THREAD: shutdownNow() and close() keep waiting through an interrupt, so a same-thread timeout could not
// end a test that hangs in them.
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WheelTimerReviewRegressionTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long GUARD_SECONDS = 30;

    /** A failure of the test's own, so that nothing else can have thrown it. */
    static final class Injected extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Injected(String message) {
            super(message);
        }
    }

    // ==========================================================================================================
    // Finding 1: a producer stalled between its index claim and its element store hid later, completed offers
    // from shutdownNow's and the failing owner's collection of the start queue (drain stops at the empty slot).

    /**
     * Finding 1, shutdownNow: producer A has claimed start-queue slot n and stalls before storing; producer B then
     * schedules (slot n+1) and returns normally, so B is accepted. shutdownNow() must hand B back. Before the fix
     * it collected with drain, which stopped at slot n: it returned [], and B stayed NEW forever (never run, never
     * handed back, pending leaked).
     */
    @Test
    void shutdownNowHandsBackTimersOfferedBehindAStalledProducer() throws Exception {
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run).build();
        StalledProducer a = StalledProducer.claimSlot(timer);
        long raw = timer.metrics().pending(); // A's raw offer: the counts read the queue's index, which includes it
        ScheduledFuture<?> b = timer.schedule(() -> { }, 1, MILLISECONDS); // returns normally: B is accepted
        assertEquals(raw + 1, timer.metrics().pending());

        AtomicReference<List<Runnable>> handedBack = new AtomicReference<>();
        Thread caller = new Thread(() -> handedBack.set(timer.shutdownNow()), "regr-shutdownNow-caller");
        caller.start();
        // Release A only once the collection has passed slot n (the old code: the caller has returned) or waits
        // there for A's store (the fix: poll spins on a claimed slot). Releasing earlier would let the old drain
        // see A's element and hide the bug.
        awaitCondition("shutdownNow returned or waits in the start queue's poll for the stalled producer",
                () -> !caller.isAlive() || waitsInQueuePoll(caller));
        a.release();
        join(a.thread);
        join(caller);

        assertEquals(List.of(b), handedBack.get(),
                "B was accepted before shutdownNow, so shutdownNow must hand it back exactly once");
        assertFalse(b.isDone(), "B was handed back, not run");
        assertEquals(raw, timer.metrics().pending(), "B's pending count is released by the hand-back");
        assertTrue(timer.isTerminated());
        ((Runnable) b).run(); // the caller may run what it was handed
        assertTrue(b.isDone());
    }

    /**
     * Finding 1, owner failure: the same stalled slot n and accepted B, then the owner loop throws. failOwner
     * must fail B (its get() throws). Before the fix it drained the start queue, stopped at slot n, and B stayed
     * NEW forever: its get() would block for good.
     */
    @Test
    void ownerFailureFailsTimersOfferedBehindAStalledProducer() throws Exception {
        AtomicLong clock = new AtomicLong();
        AtomicBoolean failNextStep = new AtomicBoolean();
        Injected injected = new Injected("owner loop failure injected by the test");
        FaultThreads threads = new FaultThreads("regr-failing-owner");
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).threadFactory(threads)
                .executor(Runnable::run).stepHook(() -> {
                    if (failNextStep.get()) {
                        throw injected;
                    }
                }).build();
        Thread owner = threads.owner();
        StalledProducer a = StalledProducer.claimSlot(timer);
        long raw = timer.metrics().pending(); // A's raw offer: the counts read the queue's index, which includes it
        ScheduledFuture<?> b = timer.schedule(() -> { }, 1, HOURS); // returns normally: B is accepted
        // B's offer woke the owner, and while slot n is claimed but empty the owner keeps stepping (planPark's
        // index check), so its next step runs the hook and fails.
        failNextStep.set(true);
        awaitCondition("the failed owner exited or waits in the start queue's poll for the stalled producer",
                () -> !owner.isAlive() || waitsInQueuePoll(owner));
        a.release();
        join(a.thread);
        join(owner);

        assertEquals(1, threads.uncaught.size(), "the owner rethrew its failure: " + threads.uncaught);
        assertSame(injected, threads.uncaught.get(0).getCause());
        assertTrue(b.isDone(), "B was accepted before the owner failed, so the failure must complete it");
        ExecutionException e = assertThrows(ExecutionException.class, b::get);
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertSame(injected, e.getCause().getCause());
        assertEquals(raw, timer.metrics().pending(), "B's pending count is released by the failure");
        assertThrows(RejectedExecutionException.class, () -> timer.schedule(() -> { }, 1, MILLISECONDS));
    }

    // ==========================================================================================================
    // Finding 2: after shutdown(), planPark could take the last piece of work in its own drain and then plan a
    // park (indefinite, or until a reaped timer's old deadline) instead of letting the owner exit.

    /**
     * Finding 2, interleaving A: a fixed-delay periodic's runner has passed its isShutdown() check (it is held in
     * the time source, where it computes its next deadline) when shutdown() happens and the owner's next step
     * sees SHUTDOWN. A one-shot run inline in that step lets the runner resubmit: it finds SHUTDOWN, revokes its
     * timer and offers the cancel, after the step's drain and before its exit test, so the step does not exit.
     * planPark's drain then takes that last command. Before the fix it returned NO_EVENT with an empty wheel: the
     * real owner (whose wake-up permit the shutdown already used) would park forever and awaitTermination hang.
     */
    @Test
    void afterShutdownPlanParkDoesNotParkOnceItsOwnDrainTookTheLastStartCommand() throws Exception {
        AtomicLong now = new AtomicLong();
        ExecutorService runnerPool = Executors.newSingleThreadExecutor(r -> new Thread(r, "regr-periodic-runner"));
        try {
            Thread runner = runnerPool.submit(Thread::currentThread).get();
            AtomicBoolean holdRunner = new AtomicBoolean(); // set by the periodic task, on the runner
            CountDownLatch runnerHeld = new CountDownLatch(1);
            CountDownLatch releaseRunner = new CountDownLatch(1);
            CountDownLatch runFinished = new CountDownLatch(1);
            TimeSource clock = () -> {
                // The runner's first clock read after its task is PeriodicTimer.run's next-deadline computation,
                // which comes after its isShutdown() check and before its resubmit.
                if (Thread.currentThread() == runner && holdRunner.compareAndSet(true, false)) {
                    runnerHeld.countDown();
                    await(releaseRunner, "the release of the held runner");
                }
                return now.get();
            };
            AtomicReference<Object> periodic = new AtomicReference<>();
            Executor executor = r -> {
                if (r == periodic.get()) {
                    runnerPool.execute(() -> {
                        r.run();
                        runFinished.countDown();
                    });
                } else {
                    r.run(); // on the stepping thread, inside step()
                }
            };
            WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().executor(executor).build();
            ScheduledFuture<?> p = timer.scheduleWithFixedDelay(() -> holdRunner.set(true), 1, 1, MILLISECONDS);
            periodic.set(p);
            ScheduledFuture<?> y = timer.schedule(() -> {
                releaseRunner.countDown();
                await(runFinished, "the periodic run's resubmit");
            }, 2, MILLISECONDS);

            now.set(1 * MS);
            OwnerLoop.of(timer).step(); // P goes to the runner, which stops after its isShutdown() check
            await(runnerHeld, "the runner held after its isShutdown() check");
            timer.shutdown();
            now.set(2 * MS);
            OwnerLoop.of(timer).step(); // sees SHUTDOWN; Y runs after the drain and lets P's revoked resubmit in

            assertTrue(y.isDone());
            assertTrue(p.isCancelled(), "the periodic ended with the shutdown");
            assertEquals(0, timer.metrics().pending(), "nothing is left to wait for");
            // Since shutdown() ends periodic timers itself before it returns, the held runner's CAS back to pending
            // fails and no revoked resubmit arrives after the drain: the step above exits at once. Should any late
            // command still arrive after a step's drain, planPark must not park on it.
            if (!timer.isTerminated()) {
                long plan = OwnerPark.of(timer).planPark();
                assertEquals(WheelTimer.AWAKE, plan, "after shutdown() with nothing left, the owner must not park;"
                        + " it planned " + describePlan(plan));
                OwnerLoop.of(timer).step();
            }
            assertTrue(timer.isTerminated(), "the owner exits");
        } finally {
            runnerPool.shutdownNow();
        }
    }

    /**
     * Finding 2, interleaving B: after shutdown() the wheel holds only C (due in 1 h), and C's cancel arrives
     * after the step's cancel drain. planPark computes its plan from C, then reaps C: the wheel is empty. Before
     * the fix it returned that plan (3.6 million ticks), so termination waited an hour for a timer that no longer
     * existed.
     */
    @Test
    void afterShutdownPlanParkDoesNotSleepUntilTheDeadlineOfTheLastTimerItReaped() {
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run).build();
        ScheduledFuture<?> c = timer.schedule(() -> { }, 1, HOURS);
        OwnerLoop.of(timer).step();
        timer.shutdown();
        OwnerLoop.of(timer).step(); // SHUTDOWN seen; the one-shot C stays to run at its time
        assertFalse(timer.isTerminated(), "precondition: C keeps the owner");
        assertTrue(c.cancel(false));

        long plan = OwnerPark.of(timer).planPark();
        assertTrue(OwnerLoop.of(timer).wheel().isEmpty(), "precondition: planPark reaped C");
        assertEquals(WheelTimer.AWAKE, plan, "after shutdown() the owner must not sleep until the deadline of the "
                + "timer it just reaped; it planned " + describePlan(plan));
        OwnerLoop.of(timer).step();
        assertTrue(timer.isTerminated());
        assertEquals(0, timer.metrics().pending());
    }

    /**
     * Finding 2, interleaving C (found while writing these tests; not in the review): shutdown() wakes the owner
     * with an unpark, but a task running on the owner thread that waits on anything built on LockSupport.park (a
     * latch, a lock, a blocking queue) uses that permit up. After the task, the step still acts on the run state
     * it read at its start (ACTIVE), and planPark only noticed a run state that changed during planPark itself:
     * it planned to sleep until the next timer, here a periodic due in an hour that shutdown() ends at once. So
     * awaitTermination waited an hour (forever if the next timer is far enough).
     */
    @Test
    void shutdownWhileATaskOnTheOwnerThreadWaitsDoesNotLeaveTheOwnerAsleepUntilTheNextTimer() throws Exception {
        FaultThreads threads = new FaultThreads("regr-shutdown-permit");
        WheelTimer timer = WheelTimer.builder().timeSource(new AtomicLong()::get).threadFactory(threads)
                .runTasksOnOwnerThread().build();
        Thread owner = threads.owner();
        ScheduledFuture<?> hourly = timer.scheduleAtFixedRate(() -> { }, 1, 1, HOURS);
        CountDownLatch taskWaiting = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        timer.schedule(() -> {
            taskWaiting.countDown();
            await(release, "the test releasing the task");
        }, 0, MILLISECONDS);
        await(taskWaiting, "the task on the owner thread");
        FaultThreads.awaitBlocked(owner); // parked in the task's latch: shutdown()'s unpark goes to that park

        timer.shutdown();
        release.countDown();

        // Bounded by the guard, not by a look at the owner's park: the owner may pass through a short timed park on
        // its way out (a look at its stack then read that as the bug; CI saw this in the shutdownNow test below).
        boolean terminated = timer.awaitTermination(GUARD_SECONDS, TimeUnit.SECONDS);
        if (!terminated) {
            timer.shutdownNow(); // clean up: wakes the sleeping owner
        }
        assertTrue(terminated, "after shutdown() the owner slept until the periodic timer's next run (an hour) "
                + "instead of ending it and exiting");
        assertTrue(hourly.isCancelled());
    }

    /**
     * Finding 2, interleaving C for shutdownNow(): its unpark and interrupt reach a task on the owner thread that
     * keeps waiting for something else (a task may ignore an interrupt). When that task returns, the rest of the
     * step and planPark did not act on STOP: the owner parked until the next timer (an hour here, forever with an
     * empty wheel), and shutdownNow(), which waits for the owner, did not return.
     */
    @Test
    void shutdownNowWhileATaskOnTheOwnerThreadIgnoresItsInterruptStillReturns() throws Exception {
        FaultThreads threads = new FaultThreads("regr-shutdownNow-permit");
        WheelTimer timer = WheelTimer.builder().timeSource(new AtomicLong()::get).threadFactory(threads)
                .runTasksOnOwnerThread().build();
        Thread owner = threads.owner();
        ScheduledFuture<?> hourLong = timer.schedule(() -> { }, 1, HOURS);
        CountDownLatch taskWaiting = new CountDownLatch(1);
        CountDownLatch taskInterrupted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        timer.schedule(() -> {
            taskWaiting.countDown();
            for (;;) {
                try {
                    if (!release.await(GUARD_SECONDS, TimeUnit.SECONDS)) {
                        throw new AssertionError("the test did not release the task");
                    }
                    return;
                } catch (InterruptedException e) {
                    taskInterrupted.countDown(); // and keep waiting
                }
            }
        }, 0, MILLISECONDS);
        await(taskWaiting, "the task on the owner thread");
        FaultThreads.awaitBlocked(owner);

        AtomicReference<List<Runnable>> handedBack = new AtomicReference<>();
        Thread caller = new Thread(() -> handedBack.set(timer.shutdownNow()), "regr-shutdownNow-caller");
        caller.start();
        await(taskInterrupted, "shutdownNow's interrupt of the task");
        FaultThreads.awaitBlocked(caller); // its unpark and interrupt are delivered; it waits for the owner
        FaultThreads.awaitBlocked(owner); // the task waits again, having used up any permit
        release.countDown();

        // Bounded by the guard, not by a look at the owner's park: CI (session 30, JDK 17, a clean clone) caught the
        // owner in a park frame while it was on its way out, and the test failed although nothing waited an hour.
        caller.join(TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
        boolean returned = !caller.isAlive();
        if (!returned) {
            timer.shutdown(); // clean up: another wake-up lets the owner see STOP
        }
        join(caller);
        assertTrue(returned, "shutdownNow() waited for an owner that had parked until its next timer");
        assertEquals(List.of(hourLong), handedBack.get());
    }

    // ==========================================================================================================
    // Finding 3: cancelling a handed-back periodic during the caller's run released pending a second time.

    /**
     * Finding 3: shutdownNow() hands back periodic P (releasing its pending count); the caller runs P and P's
     * task cancels P. Before the fix the cancel's RUNNING branch released pending again: pending went to -1, and
     * with maxPending set that admits one timer more than the limit.
     */
    @Test
    void cancellingAHandedBackPeriodicDuringItsRunReleasesPendingOnlyOnce() {
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run)
                .maxPending(1).build();
        AtomicReference<ScheduledFuture<?>> self = new AtomicReference<>();
        AtomicBoolean cancelledInRun = new AtomicBoolean();
        self.set(timer.scheduleAtFixedRate(() -> cancelledInRun.set(self.get().cancel(false)), 1, 1, MILLISECONDS));
        assertEquals(1, timer.metrics().pending());

        List<Runnable> back = timer.shutdownNow();
        assertEquals(List.of(self.get()), back);
        assertEquals(0, timer.metrics().pending(), "the hand-back released P's pending count");

        back.get(0).run(); // the caller runs it; its task cancels it
        assertTrue(cancelledInRun.get(), "cancel during the run returned true");
        assertTrue(self.get().isCancelled());
        assertEquals(0, timer.metrics().pending(), "P was accounted for when handed back: its cancel during the "
                + "caller's run must not release pending again");
    }

    // ==========================================================================================================
    // Finding 4: cancel(true) left the runner thread interrupted whenever the canceller finished first.

    /**
     * Finding 4, a task that cancels itself with cancel(true): the interrupt it delivers to its own thread must be
     * cleared before the run returns. Before the fix the runner saw CANCELLED (not INTERRUPTING) and skipped the
     * clear, so the interrupt leaked into whatever that thread ran next: here the stepping thread (a direct
     * executor), in production a user executor's next task or the owner thread.
     */
    @Test
    void cancelTrueFromItsOwnTaskLeavesTheRunnerThreadUninterrupted() {
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run).build();
        AtomicReference<ScheduledFuture<?>> self = new AtomicReference<>();
        AtomicBoolean interruptedInTask = new AtomicBoolean();
        self.set(timer.scheduleAtFixedRate(() -> {
            self.get().cancel(true);
            interruptedInTask.set(Thread.currentThread().isInterrupted());
        }, 1, 1, MILLISECONDS));
        clock.set(1 * MS);
        boolean leaked;
        try {
            OwnerLoop.of(timer).step(); // runs the periodic on this thread
        } finally {
            leaked = Thread.interrupted(); // never leave the test thread interrupted
        }
        assertTrue(interruptedInTask.get(), "precondition: cancel(true) interrupted the running task");
        assertTrue(self.get().isCancelled());
        assertFalse(leaked, "the interrupt from cancel(true) outlived the run and reached the runner's next work");
    }

    /**
     * Finding 4, cancel(true) from another thread that returns before the task does (a long task, the common
     * case): the task restores the interrupt it received, as a well-behaved task does; the runner must clear it.
     * Before the fix the runner found CANCELLED and left it set.
     */
    @Test
    void cancelTrueFromAnotherThreadLeavesTheRunnerThreadUninterrupted() throws Exception {
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run).build();
        CountDownLatch taskStarted = new CountDownLatch(1);
        CountDownLatch cancelReturned = new CountDownLatch(1);
        AtomicBoolean taskSawInterrupt = new AtomicBoolean();
        ScheduledFuture<?> p = timer.scheduleAtFixedRate(() -> {
            taskStarted.countDown();
            boolean interrupted = false;
            for (;;) {
                try {
                    if (!cancelReturned.await(GUARD_SECONDS, TimeUnit.SECONDS)) {
                        throw new AssertionError("the canceller did not return");
                    }
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            // The latch may have been released and the interrupt delivered together: then await returns normally
            // with the interrupt still set.
            interrupted |= Thread.currentThread().isInterrupted();
            taskSawInterrupt.set(interrupted);
            if (interrupted) {
                Thread.currentThread().interrupt(); // restore, as a task that does not handle it should
            }
        }, 1, 1, MILLISECONDS);
        AtomicBoolean cancelResult = new AtomicBoolean();
        Thread canceller = new Thread(() -> {
            await(taskStarted, "the periodic task");
            cancelResult.set(p.cancel(true));
            cancelReturned.countDown();
        }, "regr-canceller");
        canceller.start();
        clock.set(1 * MS);
        boolean leaked;
        try {
            OwnerLoop.of(timer).step(); // runs the periodic on this thread until the canceller has returned
        } finally {
            leaked = Thread.interrupted();
        }
        join(canceller);
        assertTrue(cancelResult.get());
        assertTrue(taskSawInterrupt.get(), "precondition: cancel(true) interrupted the running task");
        assertTrue(p.isCancelled());
        assertFalse(leaked, "the interrupt from cancel(true) outlived the run and reached the runner's next work");
    }

    // ==========================================================================================================
    // Finding 6: RunnableScheduledFuture.run() called from outside on a timer still linked in the wheel.

    /**
     * Finding 6, periodic: its public run() while it waits in the wheel runs it once and resubmits its next
     * period, while the node is still linked. Before the fix the owner's wheel.add threw "node is already in this
     * wheel" and the whole timer failed. Now the start moves it: no run at the old deadline, the next at the new.
     */
    @Test
    void publicRunOfAPeriodicStillInTheWheelDoesNotKillTheOwner() {
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run).build();
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> p = timer.scheduleAtFixedRate(runs::incrementAndGet, 10, 10, MILLISECONDS);
        OwnerLoop.of(timer).step(); // P is linked in the wheel at 10 ms
        ((Runnable) p).run(); // public API: runs now; its next period is 20 ms
        assertEquals(1, runs.get());

        assertDoesNotThrow(OwnerLoop.of(timer)::step, "the owner must survive the resubmit of a timer that is still linked");
        clock.set(10 * MS);
        OwnerLoop.of(timer).step();
        assertEquals(1, runs.get(), "the old 10 ms entry was replaced by the next period");
        clock.set(20 * MS);
        OwnerLoop.of(timer).step();
        assertEquals(2, runs.get(), "the next period runs at 20 ms");
        assertFalse(p.isDone());
        assertEquals(1, timer.metrics().pending());
    }

    /**
     * Finding 6, one-shot: its public run() while it waits in the wheel completes it, but left the node linked
     * until its original deadline (62a8ece fixed only the periodic case); after shutdown() the owner then could
     * not exit until that deadline, though nothing was left to run. The node must be unlinked soon after, as a
     * cancelled one is (the run's end now sends the owner a reap command when the node is still linked).
     */
    @Test
    void publicRunOfAOneShotStillInTheWheelDoesNotHoldTerminationUntilItsDeadline() throws Exception {
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run).build();
        ScheduledFuture<String> o = timer.schedule(() -> "ran", 1, HOURS);
        ScheduledFuture<String> q = timer.schedule(() -> "ran", 1, MILLISECONDS);
        OwnerLoop.of(timer).step(); // both linked in the wheel
        timer.shutdown();
        OwnerLoop.of(timer).step(); // SHUTDOWN seen: one-shots stay to run at their time
        assertFalse(timer.isTerminated());
        ((Runnable) o).run(); // public API: completes O an hour early
        assertEquals("ran", o.get());
        clock.set(1 * MS);
        OwnerLoop.of(timer).step(); // Q runs; O has run, so nothing is left

        assertEquals("ran", q.get(0, TimeUnit.NANOSECONDS));
        long plan = timer.isTerminated() ? WheelTimer.AWAKE : OwnerPark.of(timer).planPark();
        assertEquals(WheelTimer.AWAKE, plan, "every timer has ended, so the owner must not sleep until O's old "
                + "deadline; it planned " + describePlan(plan));
        OwnerLoop.of(timer).step();
        assertTrue(timer.isTerminated());
        assertEquals(0, timer.metrics().pending());
    }

    // ==========================================================================================================
    // Finding 7: after shutdownNow() the owner went on starting the rest of the current due batch.

    /**
     * Finding 7, tasks on the owner thread: six timers in one due batch; the first blocks until shutdownNow()
     * interrupts it. The other five were NEW when shutdownNow() was called, so they must be handed back. Before
     * the fix the owner cleared the interrupt, ran all five, and shutdownNow() returned [].
     */
    @Test
    void shutdownNowHandsBackTheRestOfTheDueBatchInsteadOfRunningItOnTheOwner() throws Exception {
        Gate gate = new Gate();
        FaultThreads threads = new FaultThreads("regr-owner-batch");
        WheelTimer timer = WheelTimer.builder().timeSource(new AtomicLong()::get).threadFactory(threads)
                .runTasksOnOwnerThread().stepHook(gate::holdFirstStep).build();
        AtomicBoolean first = new AtomicBoolean();
        CountDownLatch firstRunning = new CountDownLatch(1);
        AtomicBoolean firstInterrupted = new AtomicBoolean();
        AtomicInteger ranAfterFirst = new AtomicInteger();
        List<ScheduledFuture<?>> timers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            timers.add(timer.schedule(() -> {
                if (!first.compareAndSet(false, true)) {
                    ranAfterFirst.incrementAndGet();
                    return;
                }
                firstRunning.countDown();
                try {
                    new CountDownLatch(1).await(GUARD_SECONDS, TimeUnit.SECONDS); // until shutdownNow interrupts
                } catch (InterruptedException e) {
                    firstInterrupted.set(true);
                }
            }, 0, MILLISECONDS));
        }
        // The first schedule started the owner, whose first step waits at the gate: all six land in one drain and
        // one due batch.
        gate.awaitHeld();
        gate.open();
        await(firstRunning, "the first task of the batch");

        AtomicReference<List<Runnable>> handedBack = new AtomicReference<>();
        Thread caller = new Thread(() -> handedBack.set(timer.shutdownNow()), "regr-shutdownNow-caller");
        caller.start();
        awaitCondition("shutdownNow returned, or the rest of the batch ran",
                () -> !caller.isAlive() || ranAfterFirst.get() == 5);
        // Before the fix the owner went on to run the batch and could then park for good, its unpark used up by
        // the first task's wait: another shutdown request wakes it (a no-op when shutdownNow already returned).
        timer.shutdown();
        join(caller);
        List<Runnable> back = handedBack.get();

        assertTrue(firstInterrupted.get(), "precondition: shutdownNow interrupted the running task");
        assertEquals(0, ranAfterFirst.get(), "timers still NEW at shutdownNow() were started after it");
        assertEquals(5, back.size(), "the rest of the due batch must be handed back: " + back);
        assertTrue(timers.containsAll(back));
        for (Runnable r : back) {
            assertFalse(((Future<?>) r).isDone());
        }
        assertEquals(0, timer.metrics().pending());
        assertTrue(timer.isTerminated());
    }

    /**
     * Finding 7, a user executor: the owner is inside executor.execute() for the first timer of a six-timer due
     * batch when shutdownNow() is called. The other five must be handed back, not handed to the executor. Before
     * the fix the owner gave all six to the executor and shutdownNow() returned [].
     */
    @Test
    void shutdownNowHandsBackTheRestOfTheDueBatchInsteadOfGivingItToTheExecutor() throws Exception {
        Gate gate = new Gate();
        AtomicReference<WheelTimer> timerRef = new AtomicReference<>();
        List<Runnable> givenToExecutor = new CopyOnWriteArrayList<>();
        CountDownLatch inFirstExecute = new CountDownLatch(1);
        Executor executor = r -> {
            givenToExecutor.add(r);
            if (givenToExecutor.size() == 1) {
                inFirstExecute.countDown();
                WheelTimer t = timerRef.get();
                while (!t.isShutdown()) { // until the test's shutdownNow(), which does not return before we do
                    Thread.yield();
                }
            }
            // The executor keeps what it was given and runs nothing: that is its right.
        };
        FaultThreads threads = new FaultThreads("regr-executor-batch");
        WheelTimer timer = WheelTimer.builder().timeSource(new AtomicLong()::get).threadFactory(threads)
                .executor(executor).stepHook(gate::holdFirstStep).build();
        timerRef.set(timer);
        List<ScheduledFuture<?>> timers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            timers.add(timer.schedule(() -> { }, 0, MILLISECONDS));
        }
        // The first schedule started the owner, whose first step waits at the gate: all six land in one drain and
        // one due batch.
        gate.awaitHeld();
        gate.open();
        await(inFirstExecute, "the owner handing the first timer to the executor");

        List<Runnable> back = timer.shutdownNow();

        assertEquals(1, givenToExecutor.size(), "timers still NEW at shutdownNow() were handed to the executor "
                + "after it: " + givenToExecutor);
        assertEquals(5, back.size(), "the rest of the due batch must be handed back: " + back);
        HashSet<Object> all = new HashSet<>(back);
        all.addAll(givenToExecutor);
        assertEquals(new HashSet<Object>(timers), all, "each timer went exactly one way");
        assertEquals(1, timer.metrics().pending(), "only the timer given to the executor is still pending");
        assertTrue(timer.isTerminated());
        givenToExecutor.get(0).run(); // the executor's to run; let it end
    }

    // ==========================================================================================================
    // Finding 8: the owner-failure path could lose what stopNow had claimed.

    /**
     * Finding 8, second point: stopNow throws after it has claimed timers (here the timer's own pool's
     * shutdownNow() throws, because a worker thread from the user's thread factory throws from interrupt()).
     * The claimed timers are RETURNED, their pending count released: the shutdownNow() caller must still receive
     * them. Before the fix failOwner replaced the list with an empty one, and they were returned to nobody and
     * never completed.
     */
    @Test
    void shutdownNowThatFailsAfterClaimingStillHandsBackWhatItClaimed() throws Exception {
        HostileInterruptThreads threads = new HostileInterruptThreads();
        WheelTimer timer = WheelTimer.builder().timeSource(new AtomicLong()::get).threadFactory(threads)
                .workerThreads(1).build();
        // The pool's shutdownNow interrupts only a worker that has started (workers start on demand) and is
        // running: have it run a task first, so that the injection certainly fires (a due-now timer runs although
        // this clock never moves).
        timer.schedule(() -> { }, 0, MILLISECONDS).get(GUARD_SECONDS, TimeUnit.SECONDS);
        List<ScheduledFuture<?>> timers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            timers.add(timer.schedule(() -> { }, 1, HOURS));
        }
        threads.throwOnNextInterrupt.set(true);

        List<Runnable> back = timer.shutdownNow();
        join(threads.created.get(0)); // the owner, created by build()

        assertFalse(threads.throwOnNextInterrupt.get(), "precondition: the pool's shutdownNow interrupted its"
                + " started worker, so the injection fired");
        assertEquals(1, threads.uncaught.size(), "precondition: the collection failed: " + threads.uncaught);
        assertInstanceOf(Injected.class, threads.uncaught.get(0).getCause());
        assertEquals(new HashSet<Object>(timers), new HashSet<Object>(back),
                "the timers stopNow claimed before it failed must reach the caller");
        assertEquals(3, back.size());
        assertTrue(timer.awaitTermination(GUARD_SECONDS, TimeUnit.SECONDS));
        // After termination: the warm-up task's future completes just before its run is counted (TimerMetrics).
        assertEquals(0, timer.metrics().pending());
        RejectedExecutionException rejected =
                assertThrows(RejectedExecutionException.class, () -> timer.schedule(() -> { }, 1, MILLISECONDS));
        assertInstanceOf(Injected.class, rejected.getCause(), "later schedules name the failure");
    }

    // ==========================================================================================================
    // Finding 9: close() discarded what its internal shutdownNow() handed back.

    /**
     * Finding 9: an interrupted close() turns into shutdownNow(), whose list nobody receives. Those timers must
     * end (cancelled), so that a get() on them returns. Before the fix they stayed RETURNED forever.
     */
    @Test
    void interruptedCloseCancelsTheTimersItsShutdownNowHandsBackToNobody() {
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run).build();
        ScheduledFuture<?> hourLong = timer.schedule(() -> { }, 1, HOURS);
        OwnerLoop.of(timer).step();
        boolean keptInterrupt;
        Thread.currentThread().interrupt(); // close()'s wait throws at once: it turns into shutdownNow()
        try {
            timer.close();
        } finally {
            keptInterrupt = Thread.interrupted();
        }
        assertTrue(keptInterrupt, "close() restores the interrupt");
        assertTrue(timer.isTerminated());
        assertTrue(hourLong.isDone(), "the timer close() handed back to nobody must end, not stay pending forever");
        assertTrue(hourLong.isCancelled());
        assertThrows(CancellationException.class, hourLong::get);
        assertEquals(0, timer.metrics().pending());
    }

    // ==========================================================================================================
    // Helpers

    /**
     * A producer stopped between its start-queue index claim and its element store: {@code fill(supplier, 1)}
     * claims one index with the queue's atomic add, then calls the supplier, then stores its result. The element
     * finally stored is a timer already revoked: it stands for a producer that, when it resumes, re-reads the run
     * state, finds it stopped, revokes its own timer and throws (its timer is not the subject of these tests).
     */
    static final class StalledProducer {
        final Thread thread;
        private final CountDownLatch release = new CountDownLatch(1);

        private StalledProducer(WheelTimer timer, CommandQueue<ScheduledTimer<?>> starts,
                                CountDownLatch claimed) {
            ScheduledTimer<Void> own = new ScheduledTimer<>(timer, (Runnable) () -> { }, 0, 0L);
            assertTrue(own.revoke());
            thread = new Thread(() -> starts.fill(() -> {
                claimed.countDown();
                WheelTimerReviewRegressionTest.await(release, "the release of the stalled producer");
                return own;
            }, 1), "regr-stalled-producer");
            thread.setDaemon(true);
        }

        static StalledProducer claimSlot(WheelTimer timer) throws Exception {
            CountDownLatch claimed = new CountDownLatch(1);
            StalledProducer p = new StalledProducer(timer, startQueueOf(timer), claimed);
            p.thread.start();
            await(claimed, "the stalled producer's index claim");
            return p;
        }

        void release() {
            release.countDown();
        }
    }

    private static CommandQueue<ScheduledTimer<?>> startQueueOf(WheelTimer timer) {
        return timer.starts; // the command port's start queue (package-private)
    }

    /** Whether a thread is inside the JCTools queue's poll, where it waits for a claimed slot's element. */
    private static boolean waitsInQueuePoll(Thread t) {
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getClassName().startsWith("org.jctools.queues.")
                    && (frame.getMethodName().equals("poll") || frame.getMethodName().equals("spinForElement"))) {
                return true;
            }
        }
        return false;
    }

    /** Holds the owner's first step (the step hook) until the test opens it. */
    static final class Gate {
        private final AtomicBoolean armed = new AtomicBoolean(true);
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch opened = new CountDownLatch(1);

        void holdFirstStep() {
            if (armed.compareAndSet(true, false)) {
                held.countDown();
                await(opened, "the test opening the owner's first step");
            }
        }

        void awaitHeld() {
            await(held, "the owner's first step");
        }

        void open() {
            opened.countDown();
        }
    }

    /**
     * A thread factory whose threads throw from {@link Thread#interrupt()} once, when armed: a hostile factory
     * that makes the timer's own pool's shutdownNow() throw inside the owner's stopNow. It records what escapes
     * its threads.
     */
    static final class HostileInterruptThreads implements ThreadFactory {
        final AtomicBoolean throwOnNextInterrupt = new AtomicBoolean();
        final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        final List<Thread> created = new CopyOnWriteArrayList<>();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "regr-hostile-" + created.size()) {
                @Override
                public void interrupt() {
                    if (throwOnNextInterrupt.compareAndSet(true, false)) {
                        throw new Injected("interrupt() of " + getName() + " fails (injected by the test)");
                    }
                    super.interrupt();
                }
            };
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
            created.add(t);
            return t;
        }
    }

    private static String describePlan(long plan) {
        return plan == WheelTimer.NO_EVENT ? "NO_EVENT (an indefinite park)"
                : plan == WheelTimer.AWAKE ? "AWAKE" : "a park until tick " + plan;
    }

    static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(GUARD_SECONDS, TimeUnit.SECONDS)) {
                fail("gave up after " + GUARD_SECONDS + " s waiting for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        }
    }

    private static void join(Thread t) throws InterruptedException {
        t.join(TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
        assertFalse(t.isAlive(), t.getName() + " did not finish");
    }
}

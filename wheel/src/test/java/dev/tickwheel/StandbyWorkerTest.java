package dev.tickwheel;

import static dev.tickwheel.FaultThreads.awaitCondition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The worker that stands by for the next due timer (see {@link WorkerPool}'s class comment): it steps the owner's
 * loop at the timer's tick and runs the timer itself, the owner its backup; a failure in its step fails the owner's
 * loop as the owner's own would; shutdown and shutdownNow take it out of its slot. The races of its handshakes are
 * jcstress tests (HandOffVsStandbyPark, ReadyAtVsStandbyArm, StandbyStepVsOwnerStep). And the owner's plan, which
 * the standby shares: the first timer's own tick, not the cascades before it.
 */
class StandbyWorkerTest {

    /** Isolated timers, one at a time: each runs once, never early, on a worker; the standby steps for them. */
    @Test
    void isolatedTimersAreSteppedAndRunByTheStandingByWorker() throws Exception {
        WheelTimer timer = WheelTimer.create();
        try {
            Thread owner = timer.schedule(Thread::currentThread, 0, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS);
            assertTrue(owner != null);
            for (int i = 0; i < 40; i++) {
                long start = System.nanoTime();
                ScheduledFuture<Long> f = timer.schedule(System::nanoTime, 2, TimeUnit.MILLISECONDS);
                long ran = f.get(30, TimeUnit.SECONDS);
                assertTrue(ran - start >= TimeUnit.MILLISECONDS.toNanos(2), "never early");
            }
            // Each of the 40 had the pool idle and a worker standing by; the owner parks 100 µs past the tick, so
            // the standby steps for nearly all of them. At least one proves the path runs (0 without a standby).
            assertTrue(OwnerPark.of(timer).standbySteps() >= 1,
                    "standby steps: " + OwnerPark.of(timer).standbySteps());
            // Counted before the hand-off, so exact once the last future is done.
            assertEquals(41, timer.metrics().fired());
        } finally {
            timer.shutdown();
            assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    /** A throwable in a step run by the standby fails the owner's loop, as one in the owner's own step does. */
    @Test
    void aThrowableInTheStandbysStepFailsTheOwnersLoop() throws Exception {
        IllegalStateException boom = new IllegalStateException("boom in a standby's step");
        WheelTimer timer = WheelTimer.builder().stepHook(() -> {
            if (Thread.currentThread().getName().contains("worker")) {
                throw boom;
            }
        }).build();
        try {
            timer.schedule(() -> { }, 0, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS); // a worker exists
            ScheduledFuture<?> pending = timer.schedule(() -> { }, 1, TimeUnit.HOURS);
            ExecutionException failed = null;
            for (int i = 0; i < 500 && failed == null; i++) {
                ScheduledFuture<?> f = timer.schedule(() -> { }, 2, TimeUnit.MILLISECONDS);
                try {
                    f.get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    failed = e;
                }
            }
            assertTrue(failed != null, "a standby stepped within 500 isolated timers, and its step threw");
            ExecutionException e = assertThrows(ExecutionException.class, () -> pending.get(30, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            Throwable cause = e.getCause();
            while (cause != null && cause != boom) {
                cause = cause.getCause();
            }
            assertSame(boom, cause, "the failure carries what the standby's step threw");
            assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS), "a failed owner terminates the timer");
        } finally {
            timer.shutdownNow();
        }
    }

    /** shutdownNow takes the standby (parked until a timer an hour out) out of its slot; the pool terminates. */
    @Test
    void shutdownNowTakesTheStandbyOutOfItsSlotAndThePoolTerminates() throws Exception {
        WheelTimer timer = WheelTimer.create();
        timer.schedule(() -> { }, 0, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS);
        ScheduledFuture<?> later = timer.schedule(() -> { }, 1, TimeUnit.HOURS);
        awaitCondition("a worker stands by", () -> timer.pool().standsBy());
        List<Runnable> back = timer.shutdownNow();
        assertEquals(List.of(later), back);
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        assertFalse(timer.pool().standsBy());
    }

    /** shutdown lets the timer the standby waits for run at its time, then the pool terminates. */
    @Test
    void shutdownLetsTheStandbysTimerRunThenTerminates() throws Exception {
        WheelTimer timer = WheelTimer.create();
        timer.schedule(() -> { }, 0, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> soon = timer.schedule(runs::incrementAndGet, 50, TimeUnit.MILLISECONDS);
        awaitCondition("a worker stands by", () -> timer.pool().standsBy());
        timer.shutdown();
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        assertTrue(soon.isDone());
        assertEquals(1, runs.get());
    }

    /** A timer earlier than the one the standby parked for re-arms it (or the owner runs it): it runs on time. */
    @Test
    void anEarlierTimerThanTheStandbysRunsAtItsOwnTime() throws Exception {
        WheelTimer timer = WheelTimer.create();
        try {
            timer.schedule(() -> { }, 0, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS);
            timer.schedule(() -> { }, 1, TimeUnit.HOURS);
            awaitCondition("a worker stands by for the hour-long timer", () -> timer.pool().standsBy());
            long start = System.nanoTime();
            Thread ranOn = timer.schedule(Thread::currentThread, 5, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS);
            long took = System.nanoTime() - start;
            assertTrue(took >= TimeUnit.MILLISECONDS.toNanos(5), "never early");
            assertNotSame(Thread.currentThread(), ranOn);
            assertTrue(ranOn.getName().contains("worker"), ranOn.getName());
        } finally {
            timer.shutdownNow();
            assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    /**
     * A time source that throws once when a worker reads it (standing by, or recording lateness) loses no timer and
     * no worker: the timer due next and a task submitted afterwards both run on the one worker.
     */
    @Test
    void aTimeSourceThatThrowsOnAWorkerLosesNoTimerAndNoWorker() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean thrown = new java.util.concurrent.atomic.AtomicBoolean();
        TimeSource flaky = () -> {
            if (Thread.currentThread().getName().contains("worker") && thrown.compareAndSet(false, true)) {
                throw new IllegalStateException("a clock that fails once");
            }
            return System.nanoTime();
        };
        WheelTimer timer = WheelTimer.builder().timeSource(flaky).workerThreads(1).recordLateness().build();
        try {
            timer.schedule(() -> { }, 0, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS);
            for (int i = 0; i < 20; i++) {
                timer.schedule(() -> { }, 3, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS);
                timer.submit(() -> { }).get(30, TimeUnit.SECONDS);
            }
            assertTrue(thrown.get(), "a worker read the clock");
        } finally {
            timer.shutdownNow();
            assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    /** The owner plans its park for the first timer's own tick, not for the cascade of the slot that holds it. */
    @Test
    void theOwnerPlansForTheFirstTimersOwnTickNotItsCascades() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = WheelTimer.builder().tick(1, TimeUnit.MICROSECONDS).timeSource(clock).manualDrive()
                .executor(Runnable::run).build();
        OwnerLoop loop = OwnerLoop.of(timer);
        timer.schedule(() -> { }, 20_000, TimeUnit.MICROSECONDS); // two levels up: cascades at earlier ticks
        loop.step();
        long key = 20_000;
        assertTrue(loop.wheel().nextEventAtOrBefore(Long.MAX_VALUE) < key, "the wheel's next event is a cascade");
        assertEquals(key, loop.ownerPark.planPark(), "the owner parks until the timer's own tick");
        loop.step(); // withdraws nothing: the plan is a test's; a step re-reads the clock
        // A crowded slot (more timers than the owner looks at): the plan falls back to the cascade, earlier.
        for (int i = 0; i < OwnerPark.READY_SCAN + 1; i++) {
            timer.schedule(() -> { }, 30_000 + i, TimeUnit.MICROSECONDS);
        }
        loop.step();
        long planned = loop.ownerPark.planPark();
        assertTrue(planned <= key, "never past the first timer: " + planned);
    }

    /** A manual-drive timer with its own pool of one detached worker, which stands by (as the spinner would). */
    private static WheelTimer standingByRig(ManualTimeSource clock) {
        return standingByRig(clock, WheelTimer.builder());
    }

    /** The same rig on a builder the test has set up further (here: a smaller owner batch). */
    private static WheelTimer standingByRig(ManualTimeSource clock, WheelTimer.Builder builder) {
        WheelTimer timer = builder.tick(1, TimeUnit.MICROSECONDS).timeSource(clock).manualDrive()
                .workerThreads(1).build();
        WorkerPool pool = timer.pool();
        pool.detachedWorker();
        pool.standbySlot.host = OwnerPark.of(timer);
        pool.idleWorkers.becomeSpinner(); // readyAt: a worker will stand by for the tick
        return timer;
    }

    /**
     * When a worker stands by for the owner's tick, the owner publishes the tick it really wakes at (its backup, 100
     * µs later): a producer whose timer is due before that wakes it at once; one due after does not. The standby's
     * step then leaves the owner asleep until that backup, unless the next due timer needs it sooner.
     */
    @Test
    void theOwnersPublishedPlanIsItsBackupTickAndTheStandbyLeavesItAsleep() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = standingByRig(clock);
        OwnerLoop loop = OwnerLoop.of(timer);
        long backupTicks = OwnerPark.STANDBY_BACKUP_NANOS / 1_000;
        timer.schedule(() -> { }, 2_000, TimeUnit.MICROSECONDS);
        timer.schedule(() -> { }, 5_000, TimeUnit.MICROSECONDS); // the next due timer after the standby's step
        loop.step();
        assertEquals(2_000, loop.ownerPark.planPark(),
                "the owner parks until the timer's tick (and its backup past it)");
        assertEquals(2_000 + backupTicks, timer.plan(), "producers read the tick the owner wakes at");
        timer.schedule(() -> { }, 2_000 + backupTicks + 50, TimeUnit.MICROSECONDS);
        assertFalse(timer.isAwake(), "a timer due after the backup tick does not wake the owner");

        clock.advance(2_000, TimeUnit.MICROSECONDS);
        assertTrue(loop.ownerPark.standbyStep(), "the standby steps while the owner sleeps");
        assertEquals(1, loop.wheel().size(), "the standby's step took the timer due at 2,000 µs, not the next one");
        assertFalse(timer.isAwake(), "the next timer (5,000 µs) is after the owner's backup: it stays asleep");
        assertEquals(2_000 + backupTicks, timer.plan(), "the plan stays the owner's real wake-up");
        timer.schedule(() -> { }, 30, TimeUnit.MICROSECONDS);
        assertTrue(timer.isAwake(), "a timer due before the owner's backup wakes it at its offer");
        timer.shutdownNow();
    }

    /**
     * A standby's step covers the next due timer however near it is (the worker that stepped stands by again once it
     * has run what it took), so the owner sleeps on to its backup tick; if that worker never comes back (here the
     * rig's worker is detached: a task that blocks), the owner's backup plan finds the timer due and runs it.
     */
    @Test
    void theStandbyCoversTheNextTimerHoweverNearAndTheOwnersBackupRunsItIfTheWorkerIsHeld() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = standingByRig(clock);
        OwnerLoop loop = OwnerLoop.of(timer);
        WorkerPool pool = timer.pool();
        long backupTicks = OwnerPark.STANDBY_BACKUP_NANOS / 1_000;
        timer.schedule(() -> { }, 2_000, TimeUnit.MICROSECONDS);
        // 40 µs after: nearer than the owner's own plans cover
        timer.schedule(() -> { }, 2_040, TimeUnit.MICROSECONDS);
        loop.step();
        assertEquals(2_000, loop.ownerPark.planPark());
        clock.advance(2_000, TimeUnit.MICROSECONDS);
        assertTrue(loop.ownerPark.standbyStep());
        assertFalse(timer.isAwake(), "the standby covers the timer 40 µs on: the owner sleeps to its backup");
        assertEquals(2_040, pool.standbySlot.readyTick(), "published for the worker that comes back to stand by");
        assertEquals(1, loop.wheel().size());

        // The worker does not come back (its task holds it): the owner's backup tick plans, finds the timer due, and
        // steps for it, at most the backup past the tick the standby stepped.
        clock.advance(backupTicks, TimeUnit.MICROSECONDS);
        assertEquals(CommandPort.AWAKE, loop.ownerPark.planPark(), "the timer 40 µs on is due: no park");
        assertFalse(loop.step());
        assertEquals(0, loop.wheel().size(), "handed off by the owner's step");
        assertEquals(2, timer.metrics().fired());
        timer.shutdownNow();
    }

    /**
     * An owner that has been woken but has not taken the token yet (on a busy machine it may wait a whole slice of
     * another process for a core) does not hold up the due timer: the standby still steps for it, and hands it off
     * once. The owner's own step then finds nothing due. Before session 28 the standby deferred to any woken owner.
     */
    @Test
    void theStandbyStepsWhileAWokenOwnerHasNotTakenTheToken() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = standingByRig(clock);
        OwnerLoop loop = OwnerLoop.of(timer);
        timer.schedule(() -> { }, 2_000, TimeUnit.MICROSECONDS);
        loop.step();
        assertEquals(2_000, loop.ownerPark.planPark());
        timer.schedule(() -> { }, 1_000_000, TimeUnit.MICROSECONDS);
        timer.schedule(() -> { }, 30, TimeUnit.MICROSECONDS); // due before the plan: its producer wakes the owner
        assertTrue(timer.isAwake(), "woken by the producer, not yet stepping");

        clock.advance(2_000, TimeUnit.MICROSECONDS);
        assertTrue(loop.ownerPark.standbyStep(), "the token is free: the standby steps although the owner was woken");
        assertEquals(1, timer.metrics().fired(), "the timer due at 2,000 µs, handed off by the standby's step");
        assertTrue(timer.isAwake(), "still woken: the standby does not re-plan for the owner");
        assertFalse(loop.ownerPark.ownerWakeStep(), "the owner's step follows, with nothing left over");
        assertEquals(2, timer.metrics().fired(),
                "the owner drained and handed off the 30 µs timer; nothing fired twice");
        assertEquals(1, loop.wheel().size(), "only the timer a second out is left");
        timer.shutdownNow();
    }

    /** A standby's step still wakes the owner when it leaves due timers behind (more due than one step takes). */
    @Test
    void theStandbyWakesTheOwnerWhenItsStepLeavesDueTimersBehind() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = standingByRig(clock, WheelTimer.builder().ownerBatch(4));
        OwnerLoop loop = OwnerLoop.of(timer);
        for (int i = 0; i < 6; i++) { // not more than the owner's plan looks at (READY_SCAN)
            timer.schedule(() -> { }, 2_000, TimeUnit.MICROSECONDS);
        }
        while (loop.step()) {
            // drains four commands a step
        }
        assertEquals(2_000, loop.ownerPark.planPark());
        clock.advance(2_000, TimeUnit.MICROSECONDS);
        assertTrue(loop.ownerPark.standbyStep());
        assertTrue(loop.wheel().size() > 0, "one step takes at most a batch");
        assertTrue(timer.isAwake(), "due timers left behind: the owner must step now");
        timer.shutdownNow();
    }

    /** The two rules the standby's step and the owner's plan share, on their edges. */
    @Test
    void theOwnersWakeTickAndWhetherTheStandbyMustWakeIt() {
        assertEquals(5_100, OwnerPark.ownerWakeTick(5_000, 100_000, 1_000), "1 µs tick: 100 ticks on");
        assertEquals(6, OwnerPark.ownerWakeTick(5, 100_000, 1_000_000), "1 ms tick: the next tick's start");
        assertEquals(5, OwnerPark.ownerWakeTick(5, 0, 1_000), "no backup: the planned tick");
        assertEquals(CommandPort.NO_EVENT, OwnerPark.ownerWakeTick(CommandPort.NO_EVENT, 100_000, 1_000));
        assertEquals(CommandPort.NO_EVENT, OwnerPark.ownerWakeTick(CommandPort.NO_EVENT - 3, 100_000, 1_000),
                "saturates");
        assertTrue(OwnerPark.ownerMustWake(10, 10, true, 100), "due timers left behind at the tick");
        assertTrue(OwnerPark.ownerMustWake(10, 50, false, 100), "uncovered, before the owner's wake-up");
        assertFalse(OwnerPark.ownerMustWake(10, 50, true, 100), "a worker stands by for it");
        assertFalse(OwnerPark.ownerMustWake(10, 100, false, 100), "at the owner's wake-up: it plans then");
        assertFalse(OwnerPark.ownerMustWake(10, CommandPort.NO_EVENT, false, 100), "nothing left");
    }

    /** A plan earlier than the first due tick (here the reap of a cancelled timer) publishes no backup past it. */
    @Test
    void aPlanForAReapPublishesTheReapTickWithoutBackup() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = standingByRig(clock);
        OwnerLoop loop = OwnerLoop.of(timer);
        timer.schedule(() -> { }, 50_000, TimeUnit.MICROSECONDS);
        ScheduledFuture<?> gone = timer.schedule(() -> { }, 60_000, TimeUnit.MICROSECONDS);
        loop.step();
        assertTrue(gone.cancel(false));
        loop.step(); // reaps it: the next plan looks again within the reap interval
        long reapTicks = CommandPort.REAP_NANOS / 1_000;
        assertEquals(reapTicks, loop.ownerPark.planPark(), "the reap tick comes before the timer's");
        assertEquals(reapTicks, timer.plan(), "no backup past a tick no worker stands by for");
        timer.shutdownNow();
    }

    /**
     * A waker takes the standby out of its slot only when no other worker can be had, once the standby's tick has
     * come: a standby still in its slot after its tick is waiting for a CPU, so a parked worker is woken, or a new one
     * started, in its place. Before its tick the order is unchanged: the idle stack, then the standby.
     */
    @Test
    void aWakerLeavesAStandbyWhoseTickHasComeAndWakesAParkedWorkerFirst() {
        long[] now = {0};
        WorkerPool pool = slotRig(2, now, r -> {
            throw new AssertionError("the pool is full: nothing is started");
        });
        WorkerPool.Worker standby = pool.detachedWorker();
        WorkerPool.Worker parked = pool.detachedWorker();
        standBy(pool, standby, 10);
        pool.idleWorkers.pushIdle(parked);

        now[0] = 10_000; // the standby's tick: it would leave the slot now, if it had a CPU
        assertTrue(pool.standbySlot.due());
        assertTrue(pool.idleWorkers.signal());
        assertEquals(WorkerPool.ACTIVE, parked.state, "the parked worker is woken");
        assertEquals(WorkerPool.STANDBY, standby.state, "the standby stays in its slot, to step when it runs");
        assertSame(standby, pool.standbySlot.worker());

        assertTrue(pool.idleWorkers.signal(), "no worker parked and the pool full: the standby is taken after all");
        assertEquals(WorkerPool.ACTIVE, standby.state);
        assertFalse(pool.standbySlot.occupied());
    }

    /** Once the standby's tick has come, a pool with room starts a worker rather than take the standby; not before. */
    @Test
    void aWakerStartsAWorkerRatherThanTakeAStandbyWhoseTickHasCome() {
        long[] now = {0};
        AtomicInteger made = new AtomicInteger();
        WorkerPool pool = slotRig(2, now, r -> {
            made.incrementAndGet();
            // stands for the new worker: it is started, and awake, as far as the pool knows
            return new Thread(() -> { });
        });
        WorkerPool.Worker standby = pool.detachedWorker();
        standBy(pool, standby, 10);

        now[0] = 9_000; // before the tick: the standby is taken, as it is the one parked worker
        assertFalse(pool.standbySlot.due());
        assertTrue(pool.idleWorkers.signal());
        assertEquals(WorkerPool.ACTIVE, standby.state);
        assertEquals(0, made.get(), "a parked worker (the standby) was there: nothing is started");

        standBy(pool, standby, 20);
        now[0] = 20_000;
        assertTrue(pool.standbySlot.due());
        assertTrue(pool.idleWorkers.signal());
        assertEquals(1, made.get(), "one worker is started");
        assertEquals(2, pool.startedWorkers());
        assertEquals(WorkerPool.STANDBY, standby.state, "the standby stays in its slot");
    }

    /** A pool of {@code size} with no owner loop: its standby's host reads ticks of 1 µs from {@code now[0]} (ns). */
    private static WorkerPool slotRig(int size, long[] now, java.util.concurrent.ThreadFactory factory) {
        WorkerPool pool = new WorkerPool(size, factory);
        pool.standbySlot.host = new StandbySlot.Host() {
            @Override
            public long nanosUntilTick(long tick) {
                return tick * 1_000 - now[0];
            }

            @Override
            public boolean standbyStep() {
                throw new AssertionError("the standby does not step in this test");
            }
        };
        return pool;
    }

    /** The standby's steps before its park for {@code tick}: the tick published, the slot taken, the tick armed. */
    private static void standBy(WorkerPool pool, WorkerPool.Worker w, long tick) {
        assertTrue(pool.standbySlot.readyAt(tick, true));
        assertTrue(pool.standbySlot.take(w));
        assertEquals(tick, pool.standbySlot.arm(w));
    }
}

package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The owner's park, and who steps its loop while it sleeps: the plan the owner publishes to producers before it parks
 * (and the re-check that withdraws it), the park itself, and the step token that lets one standing-by worker run the
 * expiry half of a step in the owner's place. What a step does is {@link OwnerLoop}'s; this class decides whether the
 * owner parks, until which tick, and which of the two threads steps the loop at a due tick.
 *
 * <h2>Threading</h2>
 * The owner thread calls {@link #takeToken}, {@link #park} and {@link #planPark()} (a test stepping a manual-drive
 * timer, or a jcstress actor, stands in for it); a pool worker standing by for the next due timer calls
 * {@link #standbyStep} and {@link #nanosUntilTick} (this is the {@link StandbySlot.Host} of the pool's standby slot).
 * The plain fields here, like the loop's, are the step token holder's: written and read by one thread at a time, the
 * token's CAS and release store ordering them (and the loop's) between the owner and the standby. The shared fields
 * are the token ({@link #stepping}), {@link #standbySteps} and {@link #standbyFailure}; each says at its declaration
 * who writes it and how. The plan producers read ({@code wakeupTick}) and its Dekker handshake with their offers are
 * {@link CommandPort}'s ({@code publishPlan}, {@code commandsInFlight}, {@code withdrawPlan}, {@code plan},
 * {@code wakeIfPlan}); their orderings are documented there. jcstress: ScheduleVsParkPlan, ParkPlanRace (and the
 * spill and resize races built on it), RevokeVsPark, CappedPushVsOwnerPark, HeldBatchVsOwnerPark,
 * StandbyStepVsOwnerStep (and their Broken twins).
 *
 * <h2>The step token</h2>
 * With the own pool, one idle worker stands by for the next due timer: it parks until that timer's tick, as the owner
 * does, and whichever of the two runs first steps the loop. If it is the worker, it takes the first due timer itself,
 * so a timer that fires while the pool is idle waits for one thread's wake-up, not two in turn (the owner's, then a
 * worker's). The owner holds {@link #stepping} from its wake-up to its next park and releases it just before it parks;
 * the standby only tries it (one CAS) while the timer is running and the token is free (the owner parked, or woken and
 * not yet running: a woken owner still waiting for a core must not hold up a due timer), and only for the
 * expiry half of a step (advance to now, hand off what is due): the drains, the park plan and the shutdown,
 * shutdownNow and failure paths stay the owner's. The owner then wakes at its backup, past the tick, unless the
 * standby wakes it sooner because the next due timer needs it; its published plan is that backup tick, so a producer
 * whose timer is due earlier wakes it. The token's CAS and release store order every plain field here and in the loop
 * (and the wheel, the due buffer, the command queues' consumer side, the pool's batch chain) between the two threads.
 *
 * <h2>Layout</h2>
 * Not padded, unlike {@link PoolOwnerSide} and {@link IdleWorkers}: these fields are written once per park plan, per
 * park and per standby step, not per timer, and only by the token's holder. Other threads read two things here: the
 * standby reads the token just before it CASes it, and the standby and wakers (any thread that signals the pool,
 * producers included, through {@code StandbySlot.due}) read the final clock through {@link #nanosUntilTick}. No
 * producer reads the plan here (the plan producers read is {@link CommandPort}'s). Before the split the same reads hit
 * the loop's lines, written at every step, so a neighbour sharing a line costs no more than it did then.
 */
final class OwnerPark implements StandbySlot.Host {

    /**
     * The longest the owner backs off, once yielding has not helped, while a producer sits between its queue index
     * claim and its element store: short, since the owner keeps every other timer waiting meanwhile.
     */
    static final long MID_OFFER_BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** The most timers the owner looks at to find the next due tick for the standby worker (see planReady). */
    static final int READY_SCAN = 8;
    /** How long past the first due tick the owner parks while a worker stands by for it: the backup's delay. */
    static final long STANDBY_BACKUP_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /** How long the owner backs off, after a short spin, while a standby worker's step holds the token. */
    static final long TOKEN_BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    private static final VarHandle STEPPING;

    static {
        try {
            STEPPING = MethodHandles.lookup().findVarHandle(OwnerPark.class, "stepping", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The loop this parks and steps; also the blocker of every park here (as before the split, a thread dump names
     * the owner's loop). Final.
     */
    private final OwnerLoop loop;
    private final CommandPort port;
    private final TickClock clock;
    private final TaskDispatch dispatch;
    private final TimingWheel<ScheduledTimer<?>> wheel;
    private final int batch;
    /** Consecutive park plans abandoned because a producer was between its index claim and element store. */
    private int midOfferPlans;
    /**
     * The step token: 1 while a thread steps this loop. cas 0 -&gt; 1 to take it (acquire: everything the last holder
     * wrote is visible), release store of 0 to give it back. The owner takes it at its start and after each park and
     * gives it back before it parks; a standby worker tries it once per due tick.
     */
    private volatile int stepping;
    /**
     * Whether the current step is a standby worker's (the token holder's, plain). Written by {@link #stepAsStandby};
     * read by the loop's hand-off ({@code OwnerLoop.dispatchDue}) under the same token.
     */
    boolean byStandby;
    /** How long past its due tick the owner parks, as the standby's backup (0: no standby). Token holder's, plain. */
    private long backupNanos;
    /**
     * The last planReady's answer: the next key or event (NO_EVENT: none), and whether a worker stands by for it.
     * Plain: written and read by the step token's holder.
     */
    private long readyNext = CommandPort.NO_EVENT;
    private boolean readyCovered;
    /** Steps run by a standby worker (for tests). sv by the token holder only, so the increment is not lost; lv. */
    private volatile long standbySteps;
    /** A throwable that escaped a standby's step: the owner throws it from its next step (sv by the standby, lv). */
    private volatile Throwable standbyFailure;

    OwnerPark(OwnerLoop loop, CommandPort port, TaskDispatch dispatch, TimingWheel<ScheduledTimer<?>> wheel,
            int batch) {
        this.loop = loop;
        this.port = port;
        this.clock = port.clock;
        this.dispatch = dispatch;
        this.wheel = wheel;
        this.batch = batch;
    }

    /** @return the owner's park of a timer (for tests that plan it, or step as its standby) */
    static OwnerPark of(WheelTimer timer) {
        return timer.loop.ownerPark;
    }

    // ---- the owner's park ----

    /**
     * Plans a park until the next event, re-checks the queues (the Dekker handshake), then parks, giving the step
     * token back for the park (a standby worker may step meanwhile) and taking it again after.
     */
    void park() {
        long planned = planPark();
        if (planned == CommandPort.AWAKE) {
            return;
        }
        long backup = backupNanos; // read before the token goes: the plan published with it is what producers see
        STEPPING.setRelease(this, 0);
        try {
            if (planned == CommandPort.NO_EVENT) {
                LockSupport.park(loop);
            } else if (clock.nanosUntilTick(planned) > 0) {
                // Not once the planned tick has come: a standby that woke for it while this thread held the token
                // (planning) found the token taken and will not stand by for that tick again.
                LockSupport.parkNanos(loop, TickClock.saturatedAdd(clock.nanosUntilTick(planned), backup));
            }
            port.withdrawPlan();
        } finally {
            takeToken();
        }
        Thread.interrupted(); // shutdownNow signals through runState; a stray interrupt must not spin the park
    }

    /** Owner: takes the step token, waiting out a standby's step (bounded: one batch) if one holds it. */
    void takeToken() {
        for (int spins = 0; !STEPPING.compareAndSet(this, 0, 1); spins++) {
            if (spins < 256) {
                Thread.onSpinWait();
            } else {
                // The standby was descheduled mid-step: do not take the CPU it needs to finish.
                LockSupport.parkNanos(loop, TOKEN_BACKOFF_NANOS);
            }
        }
    }

    /**
     * The owner's decision to park: publishes the planned wake-up tick, then drains what producers offered before
     * they could see it.
     *
     * @return the planned tick (NO_EVENT for an indefinite park), or AWAKE if the owner must not park
     */
    long planPark() {
        return planPark(true);
    }

    /**
     * {@link #planPark()}; jcstress's BrokenCappedPushVsOwnerPark passes {@code lookAtPool} false, to show the
     * lost nudge that the look at the pool's queue prevents. The library always looks.
     */
    long planPark(boolean lookAtPool) {
        long tick = clock.tickNow();
        loop.stepTick = tick; // the base the drains below resolve moves against, as a step's
        // Until the first timer's own tick when a short look finds it, not the cascades before it: the advance at
        // that tick does them, and the owner wakes once per due timer rather than once per level it passes.
        long due = wheel.minKeyOrNextEvent(READY_SCAN);
        long planned = due;
        // A worker stands by for the first due timer: the owner parks a little past it (backupNanos), so that the
        // worker, not the owner, usually steps at that tick and runs the timer with one wake-up; the owner is the
        // backup, and wakes then to drain and plan (the standby does not wake it unless the next due timer needs it).
        boolean covered = dispatch.readyAt(due > tick && due != CommandPort.NO_EVENT ? due : Long.MAX_VALUE);
        backupNanos = covered ? STANDBY_BACKUP_NANOS : 0L;
        if (loop.reapedLastStep) {
            planned = Math.min(planned, tick + port.reapTicks);
        }
        if (loop.poolBacklog) {
            // Handed-off work still queued: look again soon, in case every awake worker is blocked (the watchdog).
            planned = Math.min(planned, tick + Math.max(1, dispatch.stallNanos() / clock.tickNanos));
        }
        if (planned != due) {
            backupNanos = 0L; // woken earlier than the due tick anyway (a reap, the watchdog)
        }
        int rs = port.runState();
        // Producers compare their keys with the tick by which the owner's timed park ends: past the due tick by the
        // backup when a worker stands by for it, so that a timer offered after this store and due before the backup
        // wakes the owner at its offer, and the standby's step need not wake the owner after it. (One taken by the
        // re-check drain below with a key between the due tick and the backup does not withdraw the plan: the
        // standby's step wakes the owner for it, or, if no standby steps, the owner's backup runs it.)
        port.publishPlan(ownerWakeTick(planned, backupNanos, clock.tickNanos), tick);
        int reaped = loop.drainCancels();
        int started = loop.drainStarts();
        boolean midOffer = port.commandsInFlight();
        if (loop.dueCount > 0 || reaped == batch || started == batch || midOffer || port.runState() != rs
                || wheel.minKeyOrNextEvent(READY_SCAN) < Math.min(due, planned) || planned <= tick
                // the drain above may have taken the last work (not with the watchdog's backlog: that look is due)
                || (rs == CommandPort.SHUTDOWN && wheel.isEmpty() && !loop.poolBacklog)
                // Work due now pushed to the pool after this step's watch, whose wake-up the awake cap held back: its
                // producer's nudge read the plan before the store above (it found the owner awake), so the owner must
                // see the push here and look again within the stall (the next step's watch says so).
                || (lookAtPool && !loop.poolBacklog && dispatch.backlogToWatch())
                // A shutdown the steps have not acted on yet: its unpark may be used up already, by a park inside
                // a task on this thread or inside the executor's execute, so the next step must see it now.
                || (rs == CommandPort.SHUTDOWN && !loop.shutdownSeen) || rs >= CommandPort.STOP) {
            port.withdrawPlan();
            if (midOffer && loop.dueCount == 0 && reaped < batch && started < batch) {
                // A producer sits between its index claim and its element store: let it finish. Yield at first;
                // if it stays stuck (descheduled on a busy machine), back off briefly instead of spinning.
                if (++midOfferPlans > 100 && port.owner != null) {
                    LockSupport.parkNanos(loop, midOfferBackoffNanos(clock.tickNanos));
                } else {
                    Thread.yield();
                }
            } else {
                midOfferPlans = 0;
            }
            return CommandPort.AWAKE;
        }
        return planned;
    }

    /**
     * How long the owner backs off while a producer stays stuck between its index claim and its element store: a
     * tick at most, and never more than {@link #MID_OFFER_BACKOFF_NANOS}, since every other timer waits meanwhile
     * (a whole tick would add up to a tick of lateness, a second with a coarse tick).
     */
    static long midOfferBackoffNanos(long tickNanos) {
        return Math.min(tickNanos, MID_OFFER_BACKOFF_NANOS);
    }

    /**
     * The tick by which the timed park of an owner that parked with {@code plan} and {@code backupNanos} ends (the
     * OS may add its timer slack): the start of that tick is at or after that end. Saturates at
     * {@link CommandPort#NO_EVENT} (an indefinite park).
     */
    static long ownerWakeTick(long plan, long backupNanos, long tickNanos) {
        if (plan == CommandPort.NO_EVENT || backupNanos <= 0) {
            return plan;
        }
        long ticks = (backupNanos + tickNanos - 1) / tickNanos;
        return plan > CommandPort.NO_EVENT - ticks ? CommandPort.NO_EVENT : plan + ticks;
    }

    /**
     * The owner's step, first thing: the throwable a standby's step left for it, if any, which it then clears (lv,
     * then sv of null only if there was one).
     *
     * @return that throwable, or null
     */
    Throwable takeStandbyFailure() {
        Throwable failed = standbyFailure;
        if (failed != null) {
            standbyFailure = null;
        }
        return failed;
    }

    // ---- the standby's step ----

    /**
     * A worker standing by for the next due timer, at its tick: the expiry half of a step (advance to now, hand off
     * what is due, publish the next due tick), if the timer is running and nobody holds the token (the owner is parked,
     * or woken and not yet stepping); then it wakes the owner only if the next due timer comes before the end of the
     * owner's timed park (its backup tick, when it parked behind a standby) and no worker stands by for it, or this
     * step left due timers behind: otherwise the owner drains the commands and plans again when its park ends, off
     * this timer's path. Never the shutdown, shutdownNow or failure paths: those stay the owner's. A throwable that
     * escapes the step is handed to the owner, whose loop then fails with it.
     *
     * @return whether this thread stepped the loop
     */
    @Override
    public boolean standbyStep() {
        // Not refused because the owner has been woken (AWAKE): woken is not running. A producer's wake-up or the
        // owner's own timed one marks it AWAKE at once, and on a busy machine the owner may then wait a whole slice of
        // another process for a core, its token still free. Refusing then left the due timer to that late owner:
        // session 28's scheduler trace found the standby's own wake-ups on time more often than the JDK worker's, and
        // the late fires behind the owner's late ones. The token alone keeps the two steps apart.
        if (port.plan() == CommandPort.UNSTARTED || port.runState() != CommandPort.ACTIVE
                || stepping != 0 || !STEPPING.compareAndSet(this, 0, 1)) {
            return false;
        }
        boolean stepped;
        boolean wakeOwner = false;
        long plan;
        try {
            // Read again under the token: the owner plans only while holding it, so this is the plan it parked with
            // (the tick by which its timed park ends: its backup tick when a worker stood by, else the planned tick,
            // or NO_EVENT), or AWAKE if it has been woken since (by a producer, its own timed wake, a shutdown).
            plan = port.plan();
            stepped = stepAsStandby();
            wakeOwner = stepped && plan != CommandPort.AWAKE
                    && ownerMustWake(loop.stepTick, readyNext, readyCovered, plan);
        } finally {
            STEPPING.setRelease(this, 0);
        }
        if (wakeOwner) {
            // The step left due timers behind, or the next due timer comes before the owner's wake-up and no worker
            // stands by for it: the owner must plan for it now. Otherwise the owner sleeps on to its backup tick,
            // one wake-up later and off this timer's path, and drains the commands then: its published plan is
            // that tick (planPark), so a producer whose timer is due before it wakes it meanwhile. Only this plan:
            // one the owner has made since, from the wheel this step left, stands.
            port.wakeIfPlan(plan);
        }
        return stepped;
    }

    /**
     * After a standby's step at {@code tick}: whether the owner must wake now rather than at {@code ownerWake}.
     * Yes if the step left due timers behind (the next key is not after the tick), or if the next due tick comes
     * before the owner's wake-up and no worker stands by for it.
     */
    static boolean ownerMustWake(long tick, long next, boolean covered, long ownerWake) {
        return next <= tick || (!covered && next < ownerWake);
    }

    /** The standby's step, the token held. */
    private boolean stepAsStandby() {
        try {
            if (port.runState() != CommandPort.ACTIVE || port.termination.ownerDone()) {
                return false;
            }
            byStandby = true;
            // The expiry half of a step only (the loop's test hook, then advance to now and hand off what is due).
            // The drains (a burst of commands would delay the timer this worker is about to run) and the park plan
            // stay the owner's, which wakes at its backup tick, or sooner if standbyStep finds the next due timer
            // needs it.
            long tick = loop.expireAsStandby();
            standbySteps++;
            planReady(tick);
            return true;
        } catch (Throwable e) {
            standbyFailure = e;
            port.nudgeOwner();
            return false;
        } finally {
            byStandby = false;
        }
    }

    @Override
    public long nanosUntilTick(long tick) {
        return clock.nanosUntilTick(tick);
    }

    /**
     * Tells the dispatch the tick of the next due timer, for a worker to stand by for it: the wheel's smallest key,
     * or, when finding it would take more than {@link #READY_SCAN} looks (a crowded slot above level 0), the
     * earlier cascade tick of that slot (the standby then steps the cascade and stands by again). The worker that
     * stepped covers that tick itself however near it is (it stands by again once it has run what it took), so the
     * owner sleeps on to its backup tick: two timers a few microseconds apart each still cost one wake-up.
     */
    private void planReady(long tick) {
        long next = wheel.minKeyOrNextEvent(READY_SCAN);
        readyNext = next;
        readyCovered = dispatch.readyAt(next > tick ? next : Long.MAX_VALUE, true);
    }

    // ---- test seams ----

    /**
     * jcstress: the owner's wake-up path as {@link #park} runs it after its park (withdraw the plan, take the token),
     * then one step, then the token given back as before the next park.
     */
    boolean ownerWakeStep() {
        port.withdrawPlan();
        takeToken();
        try {
            return loop.step();
        } finally {
            STEPPING.setRelease(this, 0);
        }
    }

    /**
     * jcstress only ({@code BrokenStandbyStepVsOwnerStep}): the standby's step without the token, to show what the
     * token keeps apart. Never called by the library.
     */
    boolean standbyStepWithoutToken() {
        if (port.runState() != CommandPort.ACTIVE) {
            return false;
        }
        return stepAsStandby();
    }

    /** @return whether a producer has woken the owner since its last {@link #planPark()} */
    boolean isAwake() {
        return port.isAwake();
    }

    /** @return steps of this loop run by a standby worker (tests) */
    long standbySteps() {
        return standbySteps;
    }
}

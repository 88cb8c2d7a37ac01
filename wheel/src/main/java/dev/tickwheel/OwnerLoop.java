package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.jctools.queues.MessagePassingQueue;

/**
 * The owner thread's work, and everything confined to it: the {@link TimingWheel}, the buffer of timers due now,
 * and the steps that move timers between the command queues, the wheel and the {@link TaskDispatch}. Each step
 * drains (bounded) the cancel and start commands into the wheel, advances the wheel to the current tick (bounded),
 * and hands out what expired; between steps the owner parks until the wheel's next event. At shutdownNow it
 * collects every timer not started for the caller; if its own loop fails, it fails them all.
 *
 * <p>Single-threaded: every field here is read and written by one thread at a time (plain): the owner thread, or
 * the one thread that stands in for it (a test stepping a manual-drive timer; the {@code shutdownNow} caller once
 * the owner has exited or never started; a pool worker standing by for the next due timer, see below). The
 * handshakes with producers are the {@link CommandPort}'s.
 *
 * <p><b>The step token.</b> With the own pool, one idle worker stands by for the next due timer: it parks until
 * that timer's tick, as the owner does, and whichever of the two runs first steps the loop. If it is the worker,
 * it takes the first due timer itself, so a timer that fires while the pool is idle waits for one thread's wake-up,
 * not two in turn (the owner's, then a worker's). The owner holds {@link #stepping} from its wake-up to its next
 * park and releases it just before it parks; the standby only tries it (one CAS) while the owner is parked with a
 * plan and the timer is running, and only for the expiry half of a step (advance to now, hand off what is due): the
 * drains, the park plan and the shutdown, shutdownNow and failure paths stay the owner's. The owner then wakes at
 * its backup, past the tick, unless the standby wakes it sooner because the next due timer needs it; its published
 * plan is that backup tick, so a producer whose timer is due earlier wakes it. The token's CAS and release store
 * order every plain field here (and the wheel, the due buffer, the command queues' consumer side, the pool's batch
 * chain) between the two threads.
 *
 * <p>Tests drive it directly: {@link #of(WheelTimer)} finds a timer's loop, {@link #step()} and
 * {@link #planPark()} run the owner's decisions on the calling thread, and {@link #wheel()} shows its wheel.
 */
final class OwnerLoop implements StandbySlot.Host {

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
            STEPPING = MethodHandles.lookup().findVarHandle(OwnerLoop.class, "stepping", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final CommandPort port;
    private final TickClock clock;
    private final TaskDispatch dispatch;
    private final TimingWheel<ScheduledTimer<?>> wheel;
    /** Timers due now, collected during a step and dispatched at its end, outside the wheel's advance. */
    private final ScheduledTimer<?>[] due;
    /**
     * The sum {@link #fetchStates} leaves so that its loads are used; never read. Plain: written by whoever steps the
     * loop (the owner, or a standing-by worker), under the step token, as the due buffer.
     */
    private int fetchedPhases;
    private final int batch;
    private final Runnable stepHook;
    private int dueCount;
    /** The clock's tick read at the start of the current step (or park plan): the base moves resolve against. */
    private long stepTick;
    private long fired;
    /** Moves done (earlier reschedules' commands, deferred timers moved at their old key): for tests. */
    private long moved;
    private boolean shutdownSeen;
    private boolean reapedLastStep;
    /** Whether the pool still had handed-off work queued after the last step (its watchdog's answer). */
    private boolean poolBacklog;
    /** Consecutive park plans abandoned because a producer was between its index claim and element store. */
    private int midOfferPlans;
    /**
     * The step token: 1 while a thread steps this loop. cas 0 -&gt; 1 to take it (acquire: everything the last holder
     * wrote is visible), release store of 0 to give it back. The owner takes it at its start and after each park and
     * gives it back before it parks; a standby worker tries it once per due tick.
     */
    private volatile int stepping;
    /** Whether the current step is a standby worker's (the token holder's, plain). */
    private boolean byStandby;
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
    private final MessagePassingQueue.Consumer<ScheduledTimer<?>> starter = this::start;
    private final MessagePassingQueue.Consumer<ScheduledTimer<?>> reaper = this::reap;
    private final Consumer<ScheduledTimer<?>> expirer = this::expire;

    OwnerLoop(CommandPort port, TaskDispatch dispatch, int[] levelBits, int batch, Runnable stepHook) {
        this.port = port;
        this.clock = port.clock;
        this.dispatch = dispatch;
        this.wheel = new TimingWheel<>(0L, levelBits, port); // its attachment: every timer finds its WheelTimer there
        this.due = new ScheduledTimer<?>[3 * batch];
        this.batch = batch;
        this.stepHook = stepHook;
    }

    /** @return the owner loop of a timer (for tests that step it, or inspect it between steps) */
    static OwnerLoop of(WheelTimer timer) {
        return timer.loop;
    }

    /** The owner thread's body: step, and park when nothing is left to do, until the timer terminates. */
    void run() {
        try {
            takeToken(); // never given back once the loop ends or fails: no standby steps after that
            while (!port.termination.ownerDone()) {
                boolean more = step();
                if (!more && !port.termination.ownerDone()) {
                    park();
                }
            }
        } catch (Throwable e) {
            fail(e);
            if (e instanceof Error) {
                throw (Error) e;
            }
            throw new IllegalStateException("the WheelTimer owner thread failed", e);
        }
    }

    /**
     * One iteration of the owner: drain (bounded) the cancel and start queues into the wheel, advance the wheel
     * to the current tick (bounded), and dispatch what expired.
     *
     * @return whether work is left over (a full batch was drained or expired), so the owner must not park
     */
    boolean step() {
        Throwable failed = standbyFailure;
        if (failed != null) {
            standbyFailure = null;
            throw new IllegalStateException("a step run by a standing-by worker failed", failed);
        }
        if (port.termination.ownerDone()) {
            return false;
        }
        int rs = port.runState();
        if (rs >= CommandPort.STOP) {
            stopNow();
            return false;
        }
        if (rs == CommandPort.SHUTDOWN) {
            shutdownSeen = true; // shutdown() itself ended the periodic timers; their cancel commands unlink them
        }
        if (stepHook != null) {
            stepHook.run();
        }
        long tick = clock.tickNow();
        stepTick = tick;
        int reaped = port.cancels.drain(reaper, batch);
        int started = port.starts.drain(starter, batch);
        long target = tick + 1;
        int room = due.length - dueCount;
        if (room > 0) {
            wheel.increaseMinAllowedKey(target, Math.min(batch, room), expirer);
        }
        dispatchDue();
        poolBacklog = dispatch.watch(clock.elapsedNanos());
        reapedLastStep = reaped > 0;
        long behind = target - wheel.minAllowedKey();
        port.counters.publishLag(behind > 0 ? behind * clock.tickNanos : 0L);
        if (port.termination.ownerDone()) {
            return false; // a task run on this thread called shutdownNow
        }
        if (rs == CommandPort.SHUTDOWN && wheel.isEmpty() && port.starts.isEmpty() && !poolBacklog) {
            // Not while the pool's watchdog is still needed: work due now queued behind blocked workers, whose
            // wake-up the awake cap held back, gets its worker from the watch, and after the owner's exit nothing
            // would add one (the pool starts no worker once shut down). The owner looks again within the stall.
            port.termination.exit(null, dispatch);
            return false;
        }
        return reaped == batch || started == batch || behind > 0;
    }

    private void start(ScheduledTimer<?> t) {
        int phase = t.phase();
        if (phase == ScheduledTimer.MOVING) {
            move(t);
            return;
        }
        if (phase != ScheduledTimer.NEW && phase != ScheduledTimer.DEFERRED) {
            return; // cancelled or revoked before reaching the wheel (accounted for), or handed off: a stale command
        }
        if (t.hasMoved()) {
            // A move command whose move was made already: by the timer's own start command, which found it MOVING
            // (the start comes first in the queue). It is linked or taken as due: placing it again would put it in
            // the due buffer twice.
            return;
        }
        // DEFERRED: rescheduled later before its first start; linked at its own key, moved when that expires.
        // After shutdown() a periodic timer's next period does not start (shutdown ended it; this one raced it).
        // After shutdownNow (STOP, which may have landed during this step) timers are linked like any other, so
        // that stopNow hands them back.
        if (t.isPeriodic() && port.runState() == CommandPort.SHUTDOWN) {
            if (t.revoke()) {
                port.onEnded(t);
            }
            return;
        }
        if (t.isInWheel()) {
            wheel.remove(t); // its public run() was called while it waited in the wheel: this is its next period
        }
        place(t, t.startKey()); // a periodic's next period: its runner never writes the key the wheel reads
    }

    /**
     * Links a timer at {@code key}, or takes it as due now if that key is already behind the wheel.
     *
     * @return whether it was taken as due (appended to the due buffer) rather than linked
     */
    private boolean place(ScheduledTimer<?> t, long key) {
        long min = wheel.minAllowedKey();
        if (key >= min) {
            wheel.add(t, key);
            return false;
        } else if (dueCount < due.length) {
            due[dueCount++] = t;
            return true;
        } else {
            // The due buffer is full (a flood of already-due timers): the earliest key the wheel takes is at most
            // the current tick + 1, so the timer still runs at the next step's advance, in key order.
            wheel.add(t, min);
            return false;
        }
    }

    /**
     * A move, for a reschedule to an earlier key (its command) or for a deferred timer whose old key expired (the
     * owner moved it DEFERRED &rarr; MOVING itself): unlink the timer if it is linked (else it left the wheel when its
     * old key expired), link it at the key its state word carries (or take it as due), then MOVING &rarr; NEW in one
     * CAS on the word read, adding to its relink stamp. A reschedule meanwhile changes the word's key (still
     * MOVING): the CAS fails and the move starts over with the newer key, so none is lost; a cancel, shutdownNow's
     * claim or a failure ends the loop, and the path that ended the timer takes it out of the wheel or the due
     * buffer. One move per burst of reschedules between two steps: only the first offers a command.
     */
    private void move(ScheduledTimer<?> t) {
        move(t, 0L, 0L);
    }

    /**
     * @param known a MOVING word whose key is already resolved, or 0 (no MOVING word is 0)
     * @param knownKey that key: a deferral's, resolved around where the timer was linked
     */
    private void move(ScheduledTimer<?> t, long known, long knownKey) {
        for (;;) {
            long s = t.word();
            if (ScheduledTimer.phaseOf(s) != ScheduledTimer.MOVING) {
                return; // cancelled (or handed back, or failed) while moving: its own path unlinks it
            }
            // A move command's key is resolved against the clock (this step's reading), not the wheel's time,
            // which a long park leaves behind (see ScheduledTimer.resolveKey).
            long key = s == known ? knownKey : t.movedKey(s, stepTick);
            if (t.isInWheel()) {
                wheel.remove(t);
            }
            t.key = key; // plain: a reschedule reads it only after the CAS below (or a later one) releases it
            boolean taken = place(t, key);
            long done = ScheduledTimer.withPhase(s + ScheduledTimer.STAMP_ONE, ScheduledTimer.NEW) | ScheduledTimer.MOVED;
            if (t.casWord(s, done)) {
                moved++;
                return;
            }
            if (taken) {
                due[--dueCount] = null; // placed again below: the due buffer holds each timer once
            }
        }
    }

    private void reap(ScheduledTimer<?> t) {
        wheel.remove(t);
    }

    private void expire(ScheduledTimer<?> t) {
        due[dueCount++] = t; // step() bounds the advance by the room left in the buffer
    }

    private void dispatchDue() {
        long before = fired;
        try {
            for (int i = 0; i < dueCount; i++) {
                if ((i & (FETCH_AHEAD - 1)) == 0) {
                    fetchStates(i);
                }
                ScheduledTimer<?> t = due[i];
                if (t != null && port.runState() >= CommandPort.STOP) {
                    return; // shutdownNow: the next step's stopNow hands the rest back (it skips the nulled entries)
                }
                due[i] = null;
                if (t == null || !dueNow(t)) {
                    continue; // cancelled (not yet reaped), moving, or deferred and moved just now
                }
                fired++;
                dispatch.dispatch(t);
            }
            dueCount = 0;
        } finally {
            if (fired != before) {
                // Counted before the push: a worker may run the step's timers before this step ends.
                port.counters.publishFired(fired);
                // One push and at most one wake-up per batch, not per timer; on shutdownNow (the early return
                // above) the partial chain is still pushed, for the hand-back to take, and wakes nobody.
                dispatch.afterBatch(port.runState() >= CommandPort.STOP, byStandby);
            }
        }
    }

    /**
     * Due timers whose state words {@link #fetchStates} loads together. At most as many misses as a core keeps in
     * flight (Zen and recent Intel cores keep 16 or more).
     */
    static final int FETCH_AHEAD = 16;

    /**
     * Loads the state words of the next {@link #FETCH_AHEAD} due timers, from {@code from}, one after another with
     * nothing between them: their addresses come from the array, not from each other, so their cache misses overlap.
     * In {@link #dueNow}'s loop each load waits for the CAS before it (a full fence), so the misses came one at a
     * time: the state word of a quarter of back-to-back 48-byte timers sits on a line the wheel's walks never read,
     * and that first read was 16% of the owner's CPU samples in the expiry shot. Volatile loads, which the compiler
     * keeps; the phases are summed into a plain field only so that no load is dead.
     */
    private void fetchStates(int from) {
        int end = Math.min(from + FETCH_AHEAD, dueCount);
        int sum = 0;
        for (int j = from; j < end; j++) {
            ScheduledTimer<?> t = due[j];
            if (t != null) {
                sum += t.phase();
            }
        }
        fetchedPhases = sum;
    }

    /**
     * Whether a timer taken as due is to run now: NEW, which the owner moves to DISPATCHED by CAS (a reschedule
     * racing it CASes from NEW too: after this one it finds DISPATCHED and returns false). A DEFERRED one was
     * rescheduled later after it was linked: it moves to its new key now instead (DEFERRED &rarr; MOVING, then
     * {@link #move}, which may take it as due again if that key has come too: it is then dispatched later in the same
     * loop). A MOVING one is moved the same way, without waiting for its command, which may not be offered yet; any
     * other has ended or was run early by a caller.
     */
    private boolean dueNow(ScheduledTimer<?> t) {
        for (;;) {
            int p = t.phase();
            if (p == ScheduledTimer.NEW) {
                if (t.isInWheel()) {
                    // A second entry of a timer that a move has linked since (a due entry is never linked): the
                    // first entry may have been deferred and moved. Not due.
                    return false;
                }
                if (t.casPhase(ScheduledTimer.NEW, ScheduledTimer.DISPATCHED)) {
                    return true;
                }
            } else if (p == ScheduledTimer.DEFERRED) {
                long s = t.word();
                if (ScheduledTimer.phaseOf(s) == ScheduledTimer.DEFERRED) {
                    long moving = ScheduledTimer.withPhase(s, ScheduledTimer.MOVING);
                    if (t.casWord(s, moving)) {
                        move(t, moving, t.deferredKey(s));
                        return false;
                    }
                }
            } else if (p == ScheduledTimer.MOVING) {
                // Rescheduled earlier, and met here before its move command: the rescheduling thread may still be
                // between its CAS to MOVING and its offer. Move it now, as that command would (the command then finds
                // it moved and is skipped). Skipping it would leave it out of the wheel with no command yet: an owner
                // shut down meanwhile would find nothing left, exit, and the command would land where nobody reads.
                move(t);
                return false;
            } else {
                return false;
            }
        }
    }

    /**
     * Plans a park until the next event, re-checks the queues (the Dekker handshake), then parks, giving the step
     * token back for the park (a standby worker may step meanwhile) and taking it again after.
     */
    private void park() {
        long planned = planPark();
        if (planned == CommandPort.AWAKE) {
            return;
        }
        long backup = backupNanos; // read before the token goes: the plan published with it is what producers see
        STEPPING.setRelease(this, 0);
        try {
            if (planned == CommandPort.NO_EVENT) {
                LockSupport.park(this);
            } else if (clock.nanosUntilTick(planned) > 0) {
                // Not once the planned tick has come: a standby that woke for it while this thread held the token
                // (planning) found the token taken and will not stand by for that tick again.
                LockSupport.parkNanos(this, TickClock.saturatedAdd(clock.nanosUntilTick(planned), backup));
            }
            port.withdrawPlan();
        } finally {
            takeToken();
        }
        Thread.interrupted(); // shutdownNow signals through runState; a stray interrupt must not spin the park
    }

    /** Owner: takes the step token, waiting out a standby's step (bounded: one batch) if one holds it. */
    private void takeToken() {
        for (int spins = 0; !STEPPING.compareAndSet(this, 0, 1); spins++) {
            if (spins < 256) {
                Thread.onSpinWait();
            } else {
                // The standby was descheduled mid-step: do not take the CPU it needs to finish.
                LockSupport.parkNanos(this, TOKEN_BACKOFF_NANOS);
            }
        }
    }

    /**
     * A worker standing by for the next due timer, at its tick: the expiry half of a step (advance to now, hand off
     * what is due, publish the next due tick), if the owner is parked with a plan, the timer is running, and nobody
     * holds the token; then it wakes the owner only if the next due timer comes before the end of the owner's timed
     * park (its backup tick, when it parked behind a standby) and no worker stands by for it, or this step left due
     * timers behind: otherwise the owner drains the commands and plans again when its park ends, off this timer's
     * path. Never the shutdown, shutdownNow or failure paths: those stay the owner's. A throwable that escapes the
     * step is handed to the owner, whose loop then fails with it.
     *
     * @return whether this thread stepped the loop
     */
    @Override
    public boolean standbyStep() {
        long seen = port.plan();
        if (seen == CommandPort.AWAKE || seen == CommandPort.UNSTARTED || port.runState() != CommandPort.ACTIVE
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
                    && ownerMustWake(stepTick, readyNext, readyCovered, plan);
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
            if (stepHook != null) {
                stepHook.run();
            }
            // The expiry half of a step only: advance to now and hand off what is due. The drains (a burst of
            // commands would delay the timer this worker is about to run) and the park plan stay the owner's, which
            // wakes at its backup tick, or sooner if standbyStep finds the next due timer needs it.
            long tick = clock.tickNow();
            stepTick = tick;
            int room = due.length - dueCount;
            if (room > 0) {
                wheel.increaseMinAllowedKey(tick + 1, Math.min(batch, room), expirer);
            }
            dispatchDue();
            long behind = tick + 1 - wheel.minAllowedKey();
            port.counters.publishLag(behind > 0 ? behind * clock.tickNanos : 0L);
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
        stepTick = tick;
        // Until the first timer's own tick when a short look finds it, not the cascades before it: the advance at
        // that tick does them, and the owner wakes once per due timer rather than once per level it passes.
        long due = wheel.minKeyOrNextEvent(READY_SCAN);
        long planned = due;
        // A worker stands by for the first due timer: the owner parks a little past it (backupNanos), so that the
        // worker, not the owner, usually steps at that tick and runs the timer with one wake-up; the owner is the
        // backup, and wakes then to drain and plan (the standby does not wake it unless the next due timer needs it).
        boolean covered = dispatch.readyAt(due > tick && due != CommandPort.NO_EVENT ? due : Long.MAX_VALUE);
        backupNanos = covered ? STANDBY_BACKUP_NANOS : 0L;
        if (reapedLastStep) {
            planned = Math.min(planned, tick + port.reapTicks);
        }
        if (poolBacklog) {
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
        int reaped = port.cancels.drain(reaper, batch);
        int started = port.starts.drain(starter, batch);
        boolean midOffer = port.commandsInFlight();
        if (dueCount > 0 || reaped == batch || started == batch || midOffer || port.runState() != rs
                || wheel.minKeyOrNextEvent(READY_SCAN) < Math.min(due, planned) || planned <= tick
                // the drain above may have taken the last work (not with the watchdog's backlog: that look is due)
                || (rs == CommandPort.SHUTDOWN && wheel.isEmpty() && !poolBacklog)
                // Work due now pushed to the pool after this step's watch, whose wake-up the awake cap held back: its
                // producer's nudge read the plan before the store above (it found the owner awake), so the owner must
                // see the push here and look again within the stall (the next step's watch says so).
                || (lookAtPool && !poolBacklog && dispatch.backlogToWatch())
                // A shutdown the steps have not acted on yet: its unpark may be used up already, by a park inside
                // a task on this thread or inside the executor's execute, so the next step must see it now.
                || (rs == CommandPort.SHUTDOWN && !shutdownSeen) || rs >= CommandPort.STOP) {
            port.withdrawPlan();
            if (midOffer && dueCount == 0 && reaped < batch && started < batch) {
                // A producer sits between its index claim and its element store: let it finish. Yield at first;
                // if it stays stuck (descheduled on a busy machine), back off briefly instead of spinning.
                if (++midOfferPlans > 100 && port.owner != null) {
                    LockSupport.parkNanos(this, midOfferBackoffNanos(clock.tickNanos));
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
     * shutdownNow's collection: every timer not started nor cancelled, claimed as RETURNED exactly once. By the
     * owner at its step after STOP, or by the shutdownNow caller once the owner has exited or never ran.
     */
    void stopNow() {
        List<Runnable> out = new ArrayList<>();
        // Published first: if anything below throws, what was claimed still reaches the caller.
        port.termination.publishHandedBack(out);
        // poll, not drain: drain stops at a slot whose producer has claimed the index but not yet stored the
        // element, stranding every timer offered after it; poll compares the raw indexes (a resize claim in the
        // overflow too) and waits for that store.
        for (ScheduledTimer<?> t; (t = port.starts.poll()) != null; ) {
            claimUnlessHandedOff(t, out);
        }
        for (int i = 0; i < dueCount; i++) {
            ScheduledTimer<?> t = due[i];
            due[i] = null;
            if (t != null) {
                claimUnlessHandedOff(t, out);
            }
        }
        dueCount = 0;
        wheel.removeAll(t -> claimUnlessHandedOff(t, out));
        port.cancels.drain(t -> { }, Integer.MAX_VALUE);
        dispatch.handBack(t -> claim(t, out)); // what the pool holds and has not started: DISPATCHED
        port.termination.exit(out, dispatch);
    }

    /**
     * A timer met in the start queue (a stale move command), the due buffer (a second entry) or the wheel is not
     * shutdownNow's to claim once the owner has handed it off (DISPATCHED): the executor holds it, and only the
     * pool's own hand-back may take it back. Only the owner hands off, and it is this thread (or gone), so the
     * phase read here cannot turn DISPATCHED before the claim.
     */
    private void claimUnlessHandedOff(ScheduledTimer<?> t, List<Runnable> out) {
        if (t.phase() != ScheduledTimer.DISPATCHED) {
            claim(t, out);
        }
    }

    private void claim(ScheduledTimer<?> t, List<Runnable> out) {
        if (t.claimReturned()) {
            out.add(t);
            if (t.isPeriodic()) {
                port.periodics.remove(t);
            }
            port.counters.releaseEnded();
        }
    }

    /**
     * The owner loop threw (or the owner thread could not be started): fail loudly, never silently dead. Every
     * pending future completes exceptionally with an {@link IllegalStateException} whose cause is {@code e}.
     */
    void fail(Throwable e) {
        port.termination.fail(e);
        port.advanceRunState(CommandPort.STOP);
        IllegalStateException cause = new IllegalStateException("the WheelTimer owner thread failed", e);
        try {
            for (ScheduledTimer<?> t; (t = port.starts.poll()) != null; ) {
                failUnlessHandedOff(t, cause); // poll, not drain: see stopNow
            }
            for (int i = 0; i < dueCount; i++) {
                ScheduledTimer<?> t = due[i];
                due[i] = null;
                if (t != null) {
                    failUnlessHandedOff(t, cause);
                }
            }
            dueCount = 0;
            wheel.removeAll(t -> failUnlessHandedOff(t, cause));
            // Hand-offs the pool has not started fail too, rather than run after the failure. Running tasks
            // finish; a periodic one then ends failed (PeriodicTimer.run reads the failure).
            dispatch.failQueued(cause);
            for (PeriodicTimer t : port.periodics) {
                t.fail(cause); // pending anywhere else (a user executor's queue): NEW -> FAILED; else a no-op
            }
        } catch (Throwable again) {
            e.addSuppressed(again);
        } finally {
            port.termination.exit(null, dispatch); // shutdownNow answers an empty list when none was published
        }
    }

    /** As {@link #claimUnlessHandedOff}: a handed-off timer is the executor's (the pool fails its own queue). */
    private static void failUnlessHandedOff(ScheduledTimer<?> t, Throwable cause) {
        if (t.phase() != ScheduledTimer.DISPATCHED) {
            t.fail(cause);
        }
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
            return step();
        } finally {
            STEPPING.setRelease(this, 0);
        }
    }

    /**
     * jcstress only ({@code BrokenStandbyStepVsOwnerStep}): the standby's step without the token, to show what the
     * token keeps apart. Never called by the library.
     */
    boolean standbyStepWithoutToken() {
        if (port.isAwake() || port.runState() != CommandPort.ACTIVE) {
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

    /** @return how many moves the owner has done (each relinks one timer), for tests that count them */
    long moves() {
        return moved;
    }

    /** @return the owner's wheel, for tests that inspect it between steps from the stepping thread */
    TimingWheel<ScheduledTimer<?>> wheel() {
        return wheel;
    }
}

package dev.tickwheel;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jctools.queues.MessagePassingQueue;

/**
 * The owner thread's work, and everything confined to it: the {@link TimingWheel}, the buffer of timers due now,
 * and the steps that move timers between the command queues, the wheel and the {@link TaskDispatch}. Each step
 * drains (bounded) the cancel and start commands into the wheel, advances the wheel to the current tick (bounded),
 * and hands out what expired; between steps the owner parks until the wheel's next event ({@link OwnerPark}). At
 * shutdownNow it collects every timer not started for the caller; if its own loop fails, it fails them all.
 *
 * <p>Single-threaded: every field here is read and written by one thread at a time (plain): the owner thread, or
 * the one thread that stands in for it (a test stepping a manual-drive timer; the {@code shutdownNow} caller once
 * the owner has exited or never started; a pool worker standing by for the next due timer, which runs the expiry
 * half of a step, {@link #expireAsStandby}, under the step token). The step token, the park plan and the standby's
 * step are {@link OwnerPark}'s, whose token's CAS and release store order these fields between the owner and the
 * standby; the handshakes with producers are the {@link CommandPort}'s.
 *
 * <p>Tests drive it directly: {@link #of(WheelTimer)} finds a timer's loop, {@link #step()} runs the owner's step on
 * the calling thread ({@link OwnerPark#planPark()} its park plan), and {@link #wheel()} shows its wheel.
 */
final class OwnerLoop {

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
    /** Timers in the due buffer. Plain; also read by {@link OwnerPark#planPark()} after its drains (token holder). */
    int dueCount;
    /**
     * The clock's tick read at the start of the current step (or park plan): the base moves resolve against. Plain;
     * also written by {@link OwnerPark#planPark()} and read by {@link OwnerPark#standbyStep} (token holder).
     */
    long stepTick;
    private long fired;
    /** Moves done (earlier reschedules' commands, deferred timers moved at their old key): for tests. */
    private long moved;
    /** Whether a step has seen SHUTDOWN. Plain; also read by {@link OwnerPark#planPark()} (token holder). */
    boolean shutdownSeen;
    /** Whether the last step reaped a timer. Plain; also read by {@link OwnerPark#planPark()} (token holder). */
    boolean reapedLastStep;
    /**
     * The last tick of the reap period after the last step that took cancels (owner only, plain): while the clock is
     * at or before it, the start queue's chain flag is open (before any cancel, never). Producers also chain while
     * cancels wait in their ring, whatever the flag says (CommandQueue#spillLending).
     */
    private long cancelsFlowUntilTick = Long.MIN_VALUE;
    /**
     * Whether the pool still had handed-off work queued after the last step (its watchdog's answer). Plain; also read
     * by {@link OwnerPark#planPark()} (token holder).
     */
    boolean poolBacklog;
    /**
     * Whether the watchdogs' clock ({@link #watchNanos()}) runs on real time while the timer's clock stands still: a
     * custom time source with an owner thread. Final. With the system's clock the two are one; a test that steps the
     * loop itself (manual drive, no owner thread) keeps the timer's clock alone, so that its steps, not the real time
     * between them, decide what the watchdogs see.
     */
    private final boolean watchFollowsRealTime;
    /**
     * Whether a move command leaves a timer alone while its start waits in the start chain (see
     * {@link TimerState#IN_START_CHAIN}): always, but for jcstress's broken variant. Final.
     */
    private final boolean movesWaitForChainedStart;
    /** The watchdogs' clock, and the timer's clock and real time at the last step that read it. Owner thread only. */
    private long watchNanos;
    private long watchedClockNanos;
    private long watchedRealNanos;
    private final MessagePassingQueue.Consumer<ScheduledTimer<?>> starter = this::start;
    private final MessagePassingQueue.Consumer<ScheduledTimer<?>> reaper = this::reap;
    private final Consumer<ScheduledTimer<?>> expirer = this::expire;
    /**
     * The owner's park, the step token and the standby's step ({@link OwnerPark}); made last in the constructor, from
     * this loop's final fields. Final.
     */
    final OwnerPark ownerPark;

    OwnerLoop(CommandPort port, TaskDispatch dispatch, int[] levelBits, int batch, Runnable stepHook) {
        this.port = port;
        this.clock = port.clock;
        this.dispatch = dispatch;
        this.wheel = new TimingWheel<>(0L, levelBits, port); // its attachment: every timer finds its WheelTimer there
        this.due = new ScheduledTimer<?>[3 * batch];
        this.batch = batch;
        this.stepHook = stepHook;
        this.ownerPark = new OwnerPark(this, port, dispatch, wheel, batch);
        this.watchFollowsRealTime = !clock.isSystem() && port.owner != null;
        this.movesWaitForChainedStart = port.starts.flaw != CommandQueue.Flaw.MOVE_OVERTAKES_CHAIN;
        this.watchNanos = clock.elapsedNanos();
        this.watchedClockNanos = watchNanos;
        this.watchedRealNanos = System.nanoTime();
    }

    /** @return the owner loop of a timer (for tests that step it, or inspect it between steps) */
    static OwnerLoop of(WheelTimer timer) {
        return timer.loop;
    }

    /** The owner thread's body: step, and park when nothing is left to do, until the timer terminates. */
    void run() {
        try {
            ownerPark.takeToken(); // never given back once the loop ends or fails: no standby steps after that
            while (!port.termination.ownerDone()) {
                boolean more = step();
                if (!more && !port.termination.ownerDone()) {
                    ownerPark.park();
                }
            }
        } catch (Throwable e) {
            fail(e);
            if (e instanceof Error) {
                throw (Error) e;
            }
            throw Termination.ownerFailed(e);
        }
    }

    /**
     * One iteration of the owner: drain (bounded) the cancel and start queues into the wheel, advance the wheel
     * to the current tick (bounded), and dispatch what expired.
     *
     * @return whether work is left over (a full batch was drained or expired), so the owner must not park
     */
    boolean step() {
        Throwable failed = ownerPark.takeStandbyFailure();
        if (failed != null) {
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
        int reaped = drainCancels();
        if (reaped > 0) {
            cancelsFlowUntilTick = tick + port.reapTicks;
        }
        // Starts chain past the ring only while cancels flow (CommandQueue#spillLending): cancels taken within the
        // last reap period, not only by this step, which may find the cancel queue empty between two of a steady
        // load's cancels (session 36: a one-step rule sent 54K starts an iteration into the chunks, 0.01-0.05 B per
        // schedule + cancel, in the two-producer rows).
        port.starts.openChainIf(tick <= cancelsFlowUntilTick);
        int started = drainStarts();
        long target = tick + 1;
        int room = due.length - dueCount;
        if (room > 0) {
            wheel.increaseMinAllowedKey(target, Math.min(batch, room), expirer);
        }
        dispatchDue();
        poolBacklog = dispatch.watch(watchNanos());
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

    /**
     * The clock the pool's watchdogs measure stalls on (owner thread only): the timer's clock while it moves, and real
     * time while it stands still between two steps. A custom clock that nobody advances (a test's manual one) would
     * otherwise hold work queued behind blocked workers, and a blocked task's continuation in its slot, for as long as
     * it stood still, while the owner thread looks again every stall of real time (its timed parks are real time)
     * and a JDK pool would have run the work at once. A clock that moves between steps is followed as it is, so a
     * test that advances it decides what the watchdog sees. With the system's clock, or in manual drive, this is the
     * timer's clock.
     */
    private long watchNanos() {
        long now = clock.elapsedNanos();
        if (!watchFollowsRealTime) {
            return now;
        }
        long real = System.nanoTime();
        watchNanos += now != watchedClockNanos ? now - watchedClockNanos : real - watchedRealNanos;
        watchedClockNanos = now;
        watchedRealNanos = real;
        return watchNanos;
    }

    private void start(ScheduledTimer<?> t) {
        long word = t.word();
        if (TimerState.inStartChain(word) && movesWaitForChainedStart) {
            // A move command that overtook the timer's start, which waits in the start chain (the chain clears the
            // bit before it hands the start here): linking the timer now would overwrite its link there, losing
            // the starts behind it. Its start, still to come, finds it MOVING and makes the move.
            return;
        }
        int phase = TimerState.phaseOf(word);
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
                dispatch.afterBatch(port.runState() >= CommandPort.STOP, ownerPark.byStandby);
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

    /** The step's bounded drain of the cancel queue (also {@link OwnerPark#planPark()}'s re-check drain). */
    int drainCancels() {
        return port.cancels.drain(reaper, batch);
    }

    /** The step's bounded drain of the start queue (also {@link OwnerPark#planPark()}'s re-check drain). */
    int drainStarts() {
        return port.starts.drain(starter, batch);
    }

    /**
     * The expiry half of a step, run by a standby worker holding the step token ({@link OwnerPark#standbyStep}): the
     * test hook, then advance to now, hand off what is due and publish the lag. No drains and no park plan: those stay
     * the owner's.
     *
     * @return the tick it advanced to
     */
    long expireAsStandby() {
        if (stepHook != null) {
            stepHook.run();
        }
        long tick = clock.tickNow();
        stepTick = tick;
        int room = due.length - dueCount;
        if (room > 0) {
            wheel.increaseMinAllowedKey(tick + 1, Math.min(batch, room), expirer);
        }
        dispatchDue();
        long behind = tick + 1 - wheel.minAllowedKey();
        port.counters.publishLag(behind > 0 ? behind * clock.tickNanos : 0L);
        return tick;
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
        IllegalStateException cause = Termination.ownerFailed(e);
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

    /** @return how many moves the owner has done (each relinks one timer), for tests that count them */
    long moves() {
        return moved;
    }

    /** @return the owner's wheel, for tests that inspect it between steps from the stepping thread */
    TimingWheel<ScheduledTimer<?>> wheel() {
        return wheel;
    }
}

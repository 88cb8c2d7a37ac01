package dev.tickwheel;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A one-shot timer of a {@link WheelTimer}: the future handed to the caller, the command sent to the owner thread,
 * and the wheel's node, all one object. A periodic timer is the subclass {@link PeriodicTimer}.
 *
 * <h2>Concurrency</h2>
 * The {@link #state} word decides every race, by CAS on its phase:
 * <pre>
 *   NEW ──owner hands it off──▶ DISPATCHED ──run claims──▶ CLAIMED ──runner published──▶ RUNNING ──▶ COMPLETING
 *       ──▶ COMPLETED | FAILED   (one-shot; a caller's early run() claims from any pending phase)
 *   DISPATCHED ──the own pool's worker, runner stored first──▶ RUNNING   (one CAS: no other run can race it)
 *   NEW | DISPATCHED | CLAIMED ──cancel──▶ CANCELLED           (CLAIMED: the task never starts)
 *   RUNNING ──cancel(false)──▶ CANCELLED                       (the task runs on; its outcome is dropped)
 *   RUNNING ──cancel(true)──▶ INTERRUPTING ──runner interrupted──▶ INTERRUPTED
 *   NEW | DISPATCHED ──shutdownNow collects──▶ RETURNED ──run (by the caller)──▶ CLAIMED, or ──cancel──▶ CANCELLED
 *   NEW ──reschedule later──▶ DEFERRED ──old key expires: owner──▶ MOVING ──owner relinked──▶ NEW
 *   NEW | DEFERRED ──reschedule earlier──▶ MOVING (+ move command) ──owner relinked──▶ NEW
 *   NEW ──schedule revoked on shutdown──▶ CANCELLED          (the producer then throws RejectedExecutionException)
 *   NEW ──executor rejects, or the owner fails──▶ FAILED
 * </pre>
 * This is {@link java.util.concurrent.FutureTask}'s contract: {@link #cancel} succeeds against a task that has not
 * completed, running or not. The run publishes the thread that runs it in two steps, as FutureTask does with its
 * runner field: it claims the timer (NEW &rarr; CLAIMED, so no other run starts), stores its thread (plain), and
 * only then moves CLAIMED &rarr; RUNNING (cas, which releases that store) and calls the task. A cancel that wins
 * from CLAIMED therefore stops the task before it starts, and one that wins from RUNNING (acquiring the thread by
 * its own cas) always has the thread to interrupt: no cancel(true) returns true against a task that then runs
 * uninterrupted. The own pool's worker, the only one that may run a timer it took from its queue, stores its thread
 * first and then makes one CAS, DISPATCHED &rarr; RUNNING ({@code claimIntoRun}): it needs no CLAIMED step, because
 * no other run can race it (one CAS on the timer's line fewer per fire). The runner that loses its final CAS to a
 * cancel(true) waits out INTERRUPTING and clears the interrupt, so it never reaches the next task its thread runs.
 *
 * <p>{@link #cancelIfNotStarted()}, the strict cancel, succeeds only from a pending phase (NEW, MOVING, DEFERRED,
 * DISPATCHED) or RETURNED: in a race with the fire (whose claim is the CAS from DISPATCHED) exactly one of the two
 * wins.
 *
 * <p>A reschedule is one CAS on the state word, which carries the new key's low 32 bits: a later deadline only
 * defers the timer (NEW or DEFERRED &rarr; DEFERRED), sending nothing, and the owner moves it when its old key
 * expires; an earlier one moves it to MOVING and sends a move command. Whether the new key is later is judged
 * against the key the timer is linked at, read beside the word; the owner changes that key only inside a move, and
 * every move ends by adding to the word's relink stamp, so a CAS that finds the word it read also finds that key
 * unchanged. The owner hands a due timer off by its own CAS, NEW &rarr; DISPATCHED: a reschedule that comes after
 * it finds DISPATCHED and returns false (the task runs at the old deadline), one that comes before it has moved the
 * timer out of NEW, so the owner moves the timer instead of handing it off.
 *
 * <p>The node's wheel fields ({@code key}, links) are written by the producer before the node is offered to the
 * start queue (a release; the owner's poll acquires), and after that only by the owner thread, but for {@code next}
 * while the start waits in the start queue's chain ({@link TimerChain}), where the producer that pushes the timer
 * after it links it there (a release store). A
 * {@link PeriodicTimer}'s runner writes the next period's key into a field of its own, which the owner copies when
 * it takes the next start command.
 *
 * <p>Memory: the object header, the wheel's key, two links and wheel reference, {@link TimerState}'s three fields
 * (the state word, task-or-outcome, waiters) and the timer reference here come to 48 bytes with compressed
 * references, which is the whole cost of a pending one-shot timer. The thread running the
 * task needs no field of its own: while it runs, {@code taskOrOutcome} holds it (the runner keeps the task in a
 * local).
 */
class ScheduledTimer<V> extends TimerState<V> implements RunnableScheduledFuture<V>, TimerFuture<V> {

    ScheduledTimer(WheelTimer timer, Object task, int kind, long key) {
        super(task, kind);
        // The node names its timer's wheel from the start (the wheel writes this field only when a node joins
        // another wheel, which a timer never does), and the wheel carries the timer: one reference field instead
        // of two, which keeps a one-shot timer at 48 bytes. Plain, published as the other fields are (see
        // TimerState's constructor).
        this.wheel = timer.loop.wheel();
        this.key = key;
    }

    /** @return the timer this belongs to, which its wheel carries (the node names the wheel from construction) */
    final WheelTimer timer() {
        return (WheelTimer) wheel.attachment;
    }

    /**
     * {@code get()} about to block: a timer due now that waits in the calling worker's continuation slot is handed
     * on to the pool's queue (see {@code ContinuationSlots}). Only a DISPATCHED timer can be in a slot.
     */
    @Override
    final void beforeBlock() {
        if (phase() == DISPATCHED) {
            timer().beforeAwait(this);
        }
    }

    @Override
    public boolean isPeriodic() {
        return false;
    }

    // ----------------------------------------------------------------------------------------------------------
    // Running

    static final int NOT_CLAIMED = 0;
    static final int CLAIMED_NEW = 1;
    static final int CLAIMED_RETURNED = 2;

    /**
     * The run's claim: DISPATCHED &rarr; CLAIMED (handed off by the owner), or from another pending phase (NEW,
     * MOVING, DEFERRED: run early by a caller, which a timer in the wheel allows; the owner then skips it when its
     * key comes, and its end unlinks it), or RETURNED &rarr; CLAIMED (run by the caller of shutdownNow, whose timer
     * was already accounted for). The winner owns the run; it publishes its thread and then moves to RUNNING with
     * {@link #startRun()}.
     *
     * @return which of the two won, or NOT_CLAIMED if the timer was cancelled, ran or is running
     */
    final int claimRun(boolean byPool) {
        for (;;) {
            long s = word();
            int p = phaseOf(s);
            if (p == DISPATCHED && !byPool && timer().poolQueuesHandOffs) {
                // Sitting in the own pool's queue, which owns its link until a worker takes it: only the pool may
                // claim it (it runs it momentarily). A periodic timer run from here would go back into the wheel,
                // rewriting that link while the queue still holds it.
                return NOT_CLAIMED;
            }
            if (isPending(p)) {
                if (casWord(s, withPhase(s, CLAIMED))) {
                    return CLAIMED_NEW;
                }
            } else if (p == RETURNED) {
                if (casWord(s, withPhase(s, CLAIMED))) {
                    return CLAIMED_RETURNED;
                }
            } else {
                return NOT_CLAIMED;
            }
        }
    }

    /**
     * The claim winner's second step: CLAIMED &rarr; RUNNING, after it stored its thread where
     * {@link #runnerThread()} finds it (this cas releases that store).
     *
     * @return false if a cancel won from CLAIMED: the task must not start (the caller then calls
     *         {@link #afterCancelledRun()})
     */
    final boolean startRun() {
        return casPhase(CLAIMED, RUNNING);
    }

    /**
     * Runs the task if it is still pending: handed off by the owner (DISPATCHED), called early by a caller (NEW,
     * MOVING, DEFERRED), or RETURNED when the caller of {@code shutdownNow} runs it. Does nothing if it was
     * cancelled, already ran or is running.
     */
    @Override
    public void run() {
        run(false);
    }

    /**
     * The own pool's run of a timer it took from its queue; once the owner has failed, the timer fails instead. The
     * failing owner stores its failure (volatile) before STOP, and fails what the pool has queued only after that
     * ({@code OwnerLoop.fail}): a hand-off a worker takes in between fails as the queue's do, rather than run after
     * the failure (CI once saw a worker released just after STOP run a queued one-shot; session 30). A cancelled one
     * stays cancelled ({@link #fail} is then a no-op). jcstress: OwnerFailureVsTake.
     *
     * @return whether this run ended the timer and left its end for the calling worker to count (see
     *         {@link CommandPort#onEndedInPool})
     */
    final boolean runHandedOff() {
        Throwable ownerFailure = timer().ownerFailure(); // lv: the failure, stored before STOP
        if (ownerFailure != null) {
            fail(Termination.ownerFailed(ownerFailure));
            return false;
        }
        return run(true);
    }

    /**
     * jcstress only ({@code BrokenOwnerFailureVsTake}): the pool's run without the look at the owner's failure, as
     * before session 30, to show what that look prevents. Never called by the library.
     */
    final boolean runHandedOffIgnoringFailure() {
        return run(true);
    }

    /**
     * @param byPool whether the caller is the own pool's worker that took this timer from its queue
     * @return whether this run ended the timer and left its end for the calling worker to count: only a pool's run
     *         ({@code byPool}) of a one-shot timer, with no pending limit
     */
    boolean run(boolean byPool) {
        if (byPool) {
            long w = word();
            if (phaseOf(w) == DISPATCHED && timer().poolQueuesHandOffs) {
                Object task = taskOrOutcome;
                return claimIntoRun(w, task, false) && runClaimed(task, false, true);
            }
        }
        int claim = claimRun(byPool);
        if (claim == NOT_CLAIMED) {
            return false;
        }
        Object task = taskOrOutcome; // the claim made it ours
        taskOrOutcome = Thread.currentThread(); // plain: released by startRun's cas to a cancel(true)
        if (!startRun()) {
            afterCancelledRun();
            return false;
        }
        return runClaimed(task, claim == CLAIMED_RETURNED, byPool);
    }

    /**
     * The own pool's claim of a timer it took from its queue (DISPATCHED), in one CAS: DISPATCHED &rarr; RUNNING,
     * with the thread stored first (plain; that CAS releases it to a cancel(true), whose own CAS from RUNNING
     * acquires it). The steps a run from elsewhere takes (claim to CLAIMED, store, CLAIMED &rarr; RUNNING) keep other
     * runs out while the thread is not yet published; here none can come: the queue (or a worker's continuation
     * slot) hands a timer to exactly one taker, and {@link #claimRun} refuses a caller's run of a DISPATCHED timer
     * of such a pool. The only other writers of the field meanwhile are the cancel and the revoke that win from
     * DISPATCHED, which null it (plain) after their CAS; this CAS then fails, and the run clears the field
     * (volatile) in {@link #afterCancelledRun}, so whichever store landed last, it ends null, and a cancelAndAwait
     * that read the thread meanwhile waits for that clear. That exclusivity is what makes the early store safe: the
     * two-step claim wrote nothing before winning. So a lost CAS that finds anything but a cancelled phase (which
     * nothing does today) is a broken invariant, not a cancel: the run undoes its own store if it is still there
     * (an outcome stored before it is lost all the same) and throws, rather than clear the field as for a cancel.
     * Should only another bit of the word have changed (none does on a DISPATCHED timer today), the task goes back
     * into the field before the next try.
     *
     * <p>Package-private for {@code PoolRunClaimTest}, which lands a cancel between the worker's read of the word and
     * this call.
     *
     * @param w        the word read DISPATCHED
     * @param task     the task read from the field before the thread replaces it
     * @param lateFlaw jcstress only ({@link #runHandedOffPublishingLate}): store the thread after the CAS, the flaw
     *                 that the store-first order prevents
     * @return whether the run is ours (RUNNING); false if it lost to a cancel or a revoke
     * @throws IllegalStateException if it lost to anything else: a second taker of a timer its queue handed out once
     */
    final boolean claimIntoRun(long w, Object task, boolean lateFlaw) {
        Thread self = Thread.currentThread();
        for (;;) {
            if (!lateFlaw) {
                taskOrOutcome = self;
            }
            if (casWord(w, withPhase(w, RUNNING))) {
                if (lateFlaw) {
                    taskOrOutcome = self;
                }
                return true;
            }
            w = word();
            int p = phaseOf(w);
            if (p >= INTERRUPTING) {
                afterCancelledRun(); // the volatile clear that a cancelAndAwait's waiter pairs with
                return false;
            }
            if (p != DISPATCHED) {
                TASK_OR_OUTCOME.compareAndSet(this, self, task); // only our own store, if it is still there
                throw new IllegalStateException("a timer taken from its pool's queue was claimed by another party "
                        + "while its worker held it (phase " + p + "): " + this);
            }
            taskOrOutcome = task;
        }
    }

    /**
     * jcstress only ({@code BrokenCancelInterruptVsPoolRunStart}): the own pool's one-CAS claim with the thread
     * stored after the CAS instead of before, to show what that order prevents. Never called by the library.
     */
    final boolean runHandedOffPublishingLate() {
        if (!timer().poolQueuesHandOffs) {
            throw new IllegalStateException("not a timer of a timer with its own pool: " + this);
        }
        long w = word();
        if (phaseOf(w) != DISPATCHED) {
            return run(true); // cancelled already: as the pool's run, which then does nothing
        }
        Object task = taskOrOutcome;
        return claimIntoRun(w, task, true) && runClaimed(task, false, true);
    }

    /**
     * The run once claimed and RUNNING: the lateness record, the task, and the end (unless a cancel won meanwhile).
     *
     * @return as {@link #run(boolean)}
     */
    private boolean runClaimed(Object task, boolean returned, boolean byPool) {
        if (!returned) {
            timer().noteLateness(startKey());
        }
        Object outcome;
        int phase;
        try {
            outcome = call(task);
            phase = COMPLETED;
        } catch (Throwable t) {
            outcome = t;
            phase = FAILED;
        }
        if (!casPhase(RUNNING, COMPLETING)) {
            afterCancelledRun(); // cancelled while running: the outcome is dropped, as FutureTask drops it
            return false;
        }
        taskOrOutcome = outcome;
        completePhase(phase); // a release store: publishes the outcome; waiters do not park on COMPLETING
        releaseWaiters();
        if (returned) {
            return false;
        }
        if (byPool) {
            return timer().onEndedInPool(this);
        }
        timer().onEnded(this);
        return false;
    }

    /** The thread running the task, while the phase is RUNNING or INTERRUPTING (a one-shot keeps it in its task field). */
    Thread runnerThread() {
        Object r = taskOrOutcome;
        return r instanceof Thread ? (Thread) r : null;
    }

    /**
     * Forgets the runner and the task once the run has lost to a cancel. Volatile: a cancelAndAwait waiter reads it
     * to learn that the runner has left (see {@link TimerState#awaitNoRun}).
     */
    void clearRun() {
        TASK_OR_OUTCOME.setVolatile(this, null);
    }

    /** A one-shot's run is in progress while claimed or running, and after a cancel until its thread has left. */
    @Override
    boolean runInProgress() {
        int p = phase();
        if (p == CLAIMED || p == RUNNING || p == INTERRUPTING) {
            return true;
        }
        // Cancelled: from NEW the task field was nulled; from CLAIMED or RUNNING it holds the runner's thread until
        // the runner, leaving, clears it (a task that is itself a Thread, cancelled from CLAIMED before the runner
        // stored its own, reads as a runner too, and the runner clears it the same way). From DISPATCHED it may hold,
        // for a moment, the thread of the own pool's worker that stored it before its claim's CAS failed
        // (claimIntoRun): a cancelAndAwait then waits for that worker's clear, for a run that never starts its task.
        return (p == CANCELLED || p == INTERRUPTED) && TASK_OR_OUTCOME.getVolatile(this) instanceof Thread;
    }

    @Override
    public boolean cancelAndAwait() throws InterruptedException {
        if (cancelIfNotStarted()) {
            return true;
        }
        cancel(false);
        if (runnerThread() != Thread.currentThread()) { // from inside its own task it cannot wait for itself
            awaitNoRun(false, 0L);
        }
        return false;
    }

    @Override
    public boolean cancelAndAwait(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
        long nanos = unit.toNanos(timeout);
        if (cancelIfNotStarted()) {
            return true;
        }
        cancel(false);
        if (runnerThread() != Thread.currentThread() && !awaitNoRun(true, nanos)) {
            throw new TimeoutException("the task was still running " + timeout + " " + unit
                    + " after cancelAndAwait; the timer is cancelled and runs no more");
        }
        return false;
    }

    /** Forgets the last run's thread when the timer ends between runs (a periodic keeps one; a one-shot none). */
    void forgetRunner() {
    }

    /**
     * The run lost its CAS to a cancel. If that was cancel(true), wait until it has delivered its interrupt, then
     * clear it, so the interrupt does not leak into whatever this thread runs next; then free the task.
     */
    final void afterCancelledRun() {
        int p;
        while ((p = phase()) == INTERRUPTING) {
            Thread.yield(); // the canceller is between its CAS and its store of INTERRUPTED: two instructions away
        }
        if (p == INTERRUPTED) {
            Thread.interrupted();
        }
        clearRun();
        releaseWaiters(); // a cancelAndAwait may wait for this run to leave
    }

    /** Runs the task and returns its result. Not final: {@link CustomTimer} runs its own method instead. */
    @SuppressWarnings("unchecked")
    Object call(Object task) throws Exception {
        if (isCallable()) {
            return ((Callable<Object>) task).call();
        }
        ((Runnable) task).run();
        return null;
    }

    final Object task() {
        return taskOrOutcome;
    }

    final void setOutcome(Object outcome) {
        taskOrOutcome = outcome;
    }

    /**
     * Ends a pending timer exceptionally, for example when the executor rejected it.
     *
     * @return whether this call ended it
     */
    final boolean fail(Throwable cause) {
        for (;;) {
            long s = word();
            if (!isPending(phaseOf(s))) {
                return false;
            }
            if (casWord(s, withPhase(s, COMPLETING))) {
                break;
            }
        }
        forgetRunner();
        taskOrOutcome = cause;
        setPhase(FAILED);
        releaseWaiters();
        timer().onEnded(this);
        return true;
    }

    /**
     * Cancels a timer that the timer itself ends (a schedule revoked by a racing shutdown, periodic timers at
     * shutdown). Same as {@link #cancel} from NEW, but counted by the caller.
     */
    final boolean revoke() {
        return revokeFrom(NEW);
    }

    /** As {@link #revoke()}, for a timer due now that its producer pushed to the pool (DISPATCHED). */
    final boolean revokeHandedOff() {
        return revokeFrom(DISPATCHED);
    }

    private boolean revokeFrom(int phase) {
        if (!casPhase(phase, CANCELLED)) {
            return false;
        }
        taskOrOutcome = null;
        forgetRunner();
        releaseWaiters();
        return true;
    }

    // ----------------------------------------------------------------------------------------------------------
    // Future

    /**
     * As {@link java.util.concurrent.FutureTask#cancel}: cancels the timer unless it has already completed, failed or
     * been cancelled, and returns whether it did. A task that has not started never starts. A running task runs on
     * (its outcome is dropped), and is interrupted if {@code mayInterruptIfRunning}; the interrupt never reaches the
     * next task its thread runs. A periodic timer runs no more. Safe from any thread; never blocks. For the strict
     * answer (true only if the task never started), see {@link #cancelIfNotStarted()}.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        for (;;) {
            int p = phase();
            if (p == RUNNING) {
                if (casPhase(RUNNING, mayInterruptIfRunning ? INTERRUPTING : CANCELLED)) {
                    if (mayInterruptIfRunning) {
                        try {
                            Thread t = runnerThread(); // acquired by the cas above from the runner's startRun
                            if (t != null) {
                                t.interrupt();
                            }
                        } finally {
                            setPhase(INTERRUPTED);
                        }
                    }
                    cancelledWhileRunning();
                    return true;
                }
            } else if (isPending(p) || p == RETURNED) {
                if (casPhase(p, CANCELLED)) {
                    cancelledBeforeStart(from(p));
                    return true;
                }
            } else if (p == CLAIMED) {
                if (casPhase(CLAIMED, CANCELLED)) {
                    cancelledWhileRunning(); // the task never starts: the runner sees that at its start
                    return true;
                }
            } else {
                return false;
            }
        }
    }

    @Override
    public boolean reschedule(long delay, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        if (isPeriodic()) {
            throw new UnsupportedOperationException("reschedule moves a one-shot timer; a periodic timer keeps its "
                    + "period (cancel it and schedule anew)");
        }
        TickClock clock = timer().clock;
        long nowNanos = clock.elapsedNanos(); // one clock read for both: the new key and the tick now
        long to;
        if (delay <= 0) {
            to = clock.ticksIn(nowNanos);
        } else {
            long d = unit.toNanos(delay);
            to = clock.keyOf(TickClock.saturatedAdd(nowNanos, d));
            // The limit, checked by a second tick count only for delays near it (see maxRescheduleNanosUnchecked).
            if (d > clock.maxRescheduleNanosUnchecked && to - clock.ticksIn(nowNanos) > Integer.MAX_VALUE) {
                throw tooFar(delay, unit, clock.tickNanos);
            }
        }
        if (!timer().isActive()) {
            return false; // shut down: a pending timer keeps its time (shutdown) or is handed back (shutdownNow)
        }
        for (;;) {
            long s = word();
            int p = phaseOf(s);
            if (p == NEW || p == DEFERRED) {
                // Where the timer is linked. The owner writes the key only while MOVING (and its CAS back to NEW,
                // which this load of the word acquired, released it), or at the first start, to the same key or a
                // later one that is already due. If the CAS below finds the word unchanged, so is this key: every
                // move adds to the stamp.
                long linked = this.key;
                if (linked < 0) {
                    return false; // a CustomTimer not scheduled yet: nothing to move
                }
                // Deferred only within 2^31 ticks of the linked key, so that the owner resolves it around that key
                // (deferredKey); a deferral made long after the linked key came (the owner behind, after a stopped
                // process) goes as a move command instead.
                if (to >= linked && to - linked < (1L << 31)) {
                    if (casWord(s, withKey(s, DEFERRED, to))) {
                        return true; // deferred: the owner moves it when its old key expires; nothing to send
                    }
                } else if (casWord(s, withKey(s, MOVING, to))) {
                    timer().offerMove(this, to);
                    return true;
                }
            } else if (p == MOVING) {
                if (casWord(s, withKey(s, MOVING, to))) {
                    // The move under way takes the newest key (the owner's CAS back to NEW sees it). Its command
                    // woke the owner for the key it carried then; this key may be earlier.
                    timer().wakeForMove(to);
                    return true;
                }
            } else {
                return false; // handed off to run, claimed, running, done, cancelled or handed back
            }
        }
    }

    /** Kept out of reschedule's body, so that the hot path stays small enough to inline. */
    private static IllegalArgumentException tooFar(long delay, TimeUnit unit, long tickNanos) {
        return new IllegalArgumentException("reschedule delay " + delay + " " + unit + " puts the deadline, rounded up "
                + "to the next tick, more than 2^31 - 1 ticks of " + tickNanos + " ns ahead (a delay of at most 2^31 - 2 "
                + "ticks, " + (Integer.MAX_VALUE - 1L) * tickNanos / 1_000_000_000L + " s, is always accepted): a "
                + "rescheduled deadline is kept in 32 bits so that the timer stays 48 bytes; use a coarser tick, or "
                + "cancel and schedule anew");
    }

    /**
     * The key whose low 32 bits are {@code bits}, in the window from 2^30 ticks before {@code tickNow} to 3 x 2^30
     * after it. A rescheduled key lies between the rescheduling thread's clock reading and 2^31 - 1 ticks after it,
     * so it resolves right unless the resolving thread reads its {@code tickNow} more than 2^30 ticks (18 minutes at
     * the 1 µs tick) after the key, or more than 2^30 ticks before that reading: the owner resolves a move in the
     * step that takes it, and a deferral when the old key expires, which is before the new key.
     */
    static long resolveKey(int bits, long tickNow) {
        long base = tickNow + (1L << 30);
        return base + (bits - (int) base);
    }

    /** @return the key a MOVING word asks for, resolved around {@code tickNow} */
    final long movedKey(long word, long tickNow) {
        return resolveKey(keyBits(word), tickNow);
    }

    /**
     * @return the key a DEFERRED word asks for, resolved around where the timer is linked ({@code key}, which does
     *         not change while DEFERRED): a deferral is never earlier than that key (but for a first start that
     *         linked the timer a little later than its own key, behind the wheel), and at most 2^31 - 1 ticks after
     *         the deferring thread's clock. Unlike a resolution around the clock, that stays right however late
     *         the owner comes to it; it needs the deferral made less than 2^30 ticks after the linked key came.
     */
    final long deferredKey(long word) {
        return resolveKey(keyBits(word), key);
    }

    @Override
    public boolean cancelIfNotStarted() {
        for (;;) {
            int p = phase();
            if (!isPending(p) && p != RETURNED) {
                return false;
            }
            if (casPhase(p, CANCELLED)) {
                cancelledBeforeStart(from(p));
                return true;
            }
        }
    }

    /**
     * How a cancel from a phase before any run is accounted: DISPATCHED as a cancel that needs no unlink command
     * (the owner took the timer out of the wheel to hand it off), RETURNED as already accounted for, and every
     * other pending phase as NEW (in the wheel, or on its way there). A timer cancelled from DISPATCHED must never
     * lend its task field to a command chain ({@code TimerChain}): the own pool's worker that holds it may still
     * store its thread there and clear it ({@link #claimIntoRun}); its path sends no lending command.
     */
    private static int from(int phase) {
        return phase == RETURNED || phase == DISPATCHED ? phase : NEW;
    }

    /**
     * After a successful cancel before any run (the common case, kept small enough to inline into both cancels):
     * no runner, so free the task now; wake waiters; account.
     */
    private void cancelledBeforeStart(int from) {
        taskOrOutcome = null;
        forgetRunner();
        releaseWaiters();
        timer().onCancelled(this, from);
    }

    /** After a successful cancel of a run claimed or in progress: the runner frees the task itself. */
    private void cancelledWhileRunning() {
        releaseWaiters();
        // A timer handed back by shutdownNow and then run by its caller was already accounted for.
        timer().onCancelled(this, handedBack() ? RETURNED : RUNNING);
    }

    // ----------------------------------------------------------------------------------------------------------
    // Delayed

    /**
     * The time left until the timer is due, at tick precision: the tick in which it becomes due, rounded up, so
     * never less than the exact remaining delay and at most one tick more. Negative once due.
     */
    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(timer().clock.nanosUntilTick(dueKey()), TimeUnit.NANOSECONDS);
    }

    /** @return the key the timer is due at: a rescheduled one while MOVING or DEFERRED, else {@link #startKey()} */
    final long dueKey() {
        long s = word(); // lv: acquires the key a periodic runner wrote before its CAS back to NEW
        int p = phaseOf(s);
        return p == DEFERRED ? deferredKey(s) : p == MOVING ? movedKey(s, timer().clock.tickNow()) : startKey();
    }

    /**
     * The key of the timer's next start: for a one-shot, the key it was scheduled with (written before its offer),
     * changed after only by the owner (to the same value, or to a rescheduled key while the timer is MOVING). {@link PeriodicTimer} answers its next period's.
     */
    long startKey() {
        return key;
    }

    @Override
    public int compareTo(Delayed other) {
        if (other == this) {
            return 0;
        }
        if (other instanceof ScheduledTimer && ((ScheduledTimer<?>) other).wheel == wheel) {
            return Long.compare(dueKey(), ((ScheduledTimer<?>) other).dueKey());
        }
        return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public String toString() {
        int p = phase();
        String status;
        switch (p) {
            case NEW:
            case MOVING:
            case DEFERRED: status = "pending"; break;
            case DISPATCHED: status = "due, handed off to run"; break;
            case RETURNED: status = "returned by shutdownNow"; break;
            case CLAIMED:
            case RUNNING:
            case COMPLETING: status = "running"; break;
            case COMPLETED: status = "completed"; break;
            case FAILED: status = "failed"; break;
            default: status = "cancelled"; break;
        }
        return getClass().getSimpleName() + "[" + status + ", due tick " + dueKey() + "]";
    }
}

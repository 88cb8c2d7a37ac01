package dev.tickwheel;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A timer's counters, kept so that {@code schedule} and {@code cancel} update none of their own: the start and
 * cancel queues' producer indexes (claimed by each offer's atomic add) count every start and cancel command, and
 * the adders here, touched only on rare paths and when a timer ends otherwise, correct them. Each correction is
 * incremented after the offer it corrects.
 *
 * <p>Every counter is safe from any thread: {@link LongAdder}s and an {@link AtomicLong} (any thread), and two
 * volatiles written only by the owner after each step.
 */
final class TimerCounters {

    /** The pending limit, or Long.MAX_VALUE for none. Final. */
    final long maxPending;
    /** Pending timers when maxPending is set: cas-reserved on accept so that the limit is exact. */
    private final AtomicLong pendingLimited = new AtomicLong();
    /** Start commands that are a periodic timer's next period, not a new timer. */
    final LongAdder resubmitted = new LongAdder();
    /** Accepted timers then revoked by a racing shutdown: rejected after all. */
    final LongAdder revokedAccepts = new LongAdder();
    /** Cancel commands that are not a successful cancel from NEW (revocations, unlinks after outside runs). */
    final LongAdder nonCancelOffers = new LongAdder();
    /** Successful cancels that sent no cancel command (a run claimed or in progress). */
    final LongAdder cancelsWithoutOffer = new LongAdder();
    /**
     * Timers ended other than by cancel, when maxPending is unlimited: ran, failed, revoked, handed back; but not the
     * one-shots the own pool's workers ran, which each worker counts itself ({@link TaskDispatch#endedInPool}).
     */
    private final LongAdder endedOtherwise = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    /**
     * Timers due now pushed straight to the pool (execute, submit, a delay of zero or less) from outside it; any
     * thread. Those that the pool's own tasks submit are counted by their workers ({@link TaskDispatch#submittedByWorkers}).
     */
    final LongAdder submittedNow = new LongAdder();
    /** Of those, the ones a racing shutdown revoked (also in revokedAccepts); any thread. */
    final LongAdder revokedNow = new LongAdder();
    /** Move commands offered by reschedule (through the start queue, so not new timers); any thread. */
    final LongAdder moves = new LongAdder();
    /** Periodic runs that threw and were continued (the timer's continuing failure policy); any thread. */
    final LongAdder continuedFailures = new LongAdder();
    /**
     * The owner's count of timers handed out. sv by the owner (or the standby stepping for it) before it pushes a
     * step's due timers to the own pool, so a run the pool starts is counted before it starts: a thread that saw such
     * a run's future complete reads it here (a task given to your executor, or run on the owner, is handed on during
     * the step, and may be counted only at the step's end). lv by metrics().
     */
    private volatile long firedPublished;
    /** sv by the owner after each step; lv by metrics(). */
    private volatile long lagNanos;

    TimerCounters(long maxPending) {
        this.maxPending = maxPending;
    }

    /**
     * @return whether a timer may be accepted (always, without a limit); reserves its place if so. Small enough to
     *         inline into {@code schedule}: the loop for a limit is out of line
     */
    boolean reservePending() {
        return maxPending == Long.MAX_VALUE || reserveLimited();
    }

    private boolean reserveLimited() {
        for (;;) {
            long p = pendingLimited.get();
            if (p >= maxPending) {
                return false;
            }
            if (pendingLimited.compareAndSet(p, p + 1)) {
                return true;
            }
        }
    }

    /** A timer ended by a successful cancel, or revoked: its place under the limit is free again. */
    void releaseCancelled() {
        if (maxPending != Long.MAX_VALUE) {
            pendingLimited.decrementAndGet();
        }
    }

    /** A timer ended other than by cancel (ran, failed, revoked, handed back). */
    void releaseEnded() {
        if (maxPending != Long.MAX_VALUE) {
            pendingLimited.decrementAndGet();
        } else {
            endedOtherwise.increment();
        }
    }

    void rejected() {
        rejected.increment();
    }

    /** The owner's count of timers handed out, before it hands them on. */
    void publishFired(long fired) {
        this.firedPublished = fired;
    }

    /** The owner's lag after a step. */
    void publishLag(long lagNanos) {
        this.lagNanos = lagNanos;
    }

    /**
     * A snapshot, read without stopping anything, in an order that can only make pending read high, never low,
     * while timers move: ends before starts (a timer's start offer happens before whatever ends it); the cancel
     * corrections after the cancel index and the start corrections before the start index (each correction is
     * incremented after the offer it corrects, so a correction read first is already in the index read next).
     */
    TimerMetrics snapshot(CommandQueue<?> starts, CommandQueue<?> cancels, TaskDispatch dispatch,
                          TimerMetrics.Lateness lateness) {
        long cancelled = cancels.producerIndex();
        cancelled += cancelsWithoutOffer.sum() - nonCancelOffers.sum();
        long ended = endedOtherwise.sum() + dispatch.endedInPool();
        long notNew = resubmitted.sum() + revokedAccepts.sum() + moves.sum();
        long scheduled = starts.producerIndex() - notNew;
        long revokedNow = this.revokedNow.sum();
        // After its corrections (revokedAccepts, revokedNow), as the start index; with the pool tasks' own submits,
        // which each worker counts itself (read after the ends: a submit comes before its timer's end).
        long now = submittedNow.sum() + dispatch.submittedByWorkers();
        scheduled += now;
        long pending = maxPending != Long.MAX_VALUE ? pendingLimited.get() : scheduled - cancelled - ended;
        long fired = firedPublished + now - revokedNow;
        long handOffs = dispatch.takesWorkDueNow() ? dispatch.ownerBatches() + now : 0;
        return new TimerMetrics(pending, scheduled, fired, cancelled, rejected.sum(), lagNanos,
                continuedFailures.sum(), handOffs, dispatch.wakeups(), starts.room() + cancels.room(),
                starts.spills() + cancels.spills(), lateness);
    }
}

package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The soak test's accounting: a clock the test can jump forward, one record per timer that is also the timer's
 * task, and the checks that every accepted timer ends exactly one way.
 *
 * <p>Every one-shot record is in {@link #open} from just before its {@code schedule} until it settles: it ran, a
 * {@code cancel} on it returned true, or {@code shutdownNow} handed it back. Settling sets one bit in the record's
 * {@code outcome} word with an atomic or; whoever finds a bit already set reports a violation (ran twice,
 * cancelled and ran, handed back and ran, ...). A record still open after the timer has terminated was lost.
 * Memory stays flat: a settled record is referenced by nothing but, for a moment, its timer.
 */
final class SoakLedger {

    // ------------------------------------------------------------------------------------------------------
    // The clock

    /** The real monotonic clock plus an offset that only the test's conductor thread increases. */
    static final class SoakClock implements TimeSource {

        /** An offset and its generation, read together so a reader knows whether a jump happened in between. */
        static final class Warp {
            final long offset;
            final int generation;

            Warp(long offset, int generation) {
                this.offset = offset;
                this.generation = generation;
            }
        }

        /** Written (sv) by the conductor only, each time a new Warp with a larger offset; read (lv) by all. */
        volatile Warp warp = new Warp(0, 0);

        @Override
        public long nanoTime() {
            return System.nanoTime() + warp.offset;
        }

        /** Jumps the clock forward. One thread only (the conductor). */
        void jump(long nanos) {
            Warp w = warp;
            warp = new Warp(w.offset + nanos, w.generation + 1);
        }
    }

    // ------------------------------------------------------------------------------------------------------
    // Outcomes and counters

    static final int RAN = 1;
    static final int CANCELLED = 2;
    static final int RETURNED = 4;

    final SoakClock clock = new SoakClock();
    /** One-shot records accepted and not yet settled. Concurrent set: added by producers, removed by settlers. */
    final Set<SoakTimer> open = ConcurrentHashMap.newKeySet(1 << 16);
    final SoakHistogram lateness = new SoakHistogram();

    final LongAdder accepted = new LongAdder();
    final LongAdder ran = new LongAdder();
    final LongAdder cancelled = new LongAdder();
    final LongAdder returned = new LongAdder();
    final LongAdder rejectedAtLimit = new LongAdder();
    final LongAdder periodicAccepted = new LongAdder();
    final LongAdder periodicRuns = new LongAdder();
    final LongAdder periodicCancelled = new LongAdder();
    final LongAdder lost = new LongAdder();
    final LongAdder duplicate = new LongAdder();
    final LongAdder early = new LongAdder();
    final LongAdder cancelledAndRan = new LongAdder();
    final LongAdder otherViolations = new LongAdder();
    private final ConcurrentLinkedQueue<String> examples = new ConcurrentLinkedQueue<>();
    private final AtomicLong exampleCount = new AtomicLong();

    void violation(LongAdder kind, String what) {
        kind.increment();
        if (exampleCount.incrementAndGet() <= 20) {
            examples.add(what);
        }
    }

    long violations() {
        return lost.sum() + duplicate.sum() + early.sum() + cancelledAndRan.sum() + otherViolations.sum();
    }

    List<String> examples() {
        return new ArrayList<>(examples);
    }

    static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (b < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }

    // ------------------------------------------------------------------------------------------------------
    // One-shot timers

    /** A one-shot timer's record and task (Runnable or Callable, as the producer chooses). */
    static final class SoakTimer implements Runnable, Callable<Object> {
        private static final VarHandle OUTCOME;

        static {
            try {
                OUTCOME = MethodHandles.lookup().findVarHandle(SoakTimer.class, "outcome", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final SoakLedger ledger;
        /** The earliest clock reading at which the task may start: the clock before schedule plus the delay. */
        final long earliest;
        /** The clock's generation when it was read before schedule; lateness counts only if no jump came between. */
        final int generation;
        /** Set (sv) by the producer after schedule returns, before the record is offered to a canceller. */
        volatile Future<?> future;
        /** RAN | CANCELLED | RETURNED bits; set by atomic or (getAndBitwiseOr). */
        private volatile int outcome;

        SoakTimer(SoakLedger ledger, long earliest, int generation) {
            this.ledger = ledger;
            this.earliest = earliest;
            this.generation = generation;
        }

        @Override
        public void run() {
            SoakClock.Warp w = ledger.clock.warp;
            long now = System.nanoTime() + w.offset;
            if (settle(RAN)) {
                ledger.ran.increment();
            }
            if (now < earliest) {
                ledger.violation(ledger.early, "one-shot ran " + (earliest - now) + " ns early");
            }
            if (w.generation == generation) {
                ledger.lateness.record(now - earliest);
            }
        }

        @Override
        public Object call() {
            run();
            return this;
        }

        /** @return whether this was the first outcome; otherwise the violation is already recorded */
        boolean settle(int how) {
            int before = (int) OUTCOME.getAndBitwiseOr(this, how);
            if (before == 0) {
                ledger.open.remove(this);
                return true;
            }
            if ((before & how) != 0) {
                ledger.violation(how == RAN ? ledger.duplicate : ledger.otherViolations,
                        "outcome " + how + " twice (outcomes before: " + before + ")");
            } else if ((before | how) == (RAN | CANCELLED)) {
                ledger.violation(ledger.cancelledAndRan, "a one-shot both ran and was cancelled by a cancel that"
                        + " returned true");
            } else {
                ledger.violation(ledger.otherViolations, "two outcomes: " + before + " then " + how);
            }
            return false;
        }

        int outcome() {
            return outcome;
        }
    }

    // ------------------------------------------------------------------------------------------------------
    // Periodic timers

    /** A periodic timer's record and task. */
    static final class SoakPeriodic implements Runnable {
        private static final VarHandle STARTS;
        private static final VarHandle IN_RUN;
        private static final VarHandle CANCEL_WINS;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                STARTS = l.findVarHandle(SoakPeriodic.class, "starts", int.class);
                IN_RUN = l.findVarHandle(SoakPeriodic.class, "inRun", int.class);
                CANCEL_WINS = l.findVarHandle(SoakPeriodic.class, "cancelWins", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final SoakLedger ledger;
        final boolean fixedRate;
        final long periodNanos;
        /** The earliest reading for the first run. */
        final long firstEarliest;
        /** Runs started (getAndAdd by the runner). */
        private volatile int starts;
        /** 1 while a run is in progress (cas by the runner). */
        private volatile int inRun;
        /** Clock at the end of the last run (sv by the runner), for fixed delay. */
        private volatile long lastEnd;
        /** cancel() calls that returned true (getAndAdd by the cancellers): must end at exactly 1. */
        private volatile int cancelWins;
        /** Runs started when the winning cancel had returned (sv by the winner), else -1. */
        private volatile int startsAtCancel = -1;
        /** Set (sv) by the producer after schedule returns. */
        volatile ScheduledFuture<?> future;

        SoakPeriodic(SoakLedger ledger, boolean fixedRate, long periodNanos, long firstEarliest) {
            this.ledger = ledger;
            this.fixedRate = fixedRate;
            this.periodNanos = periodNanos;
            this.firstEarliest = firstEarliest;
        }

        @Override
        public void run() {
            if (!IN_RUN.compareAndSet(this, 0, 1)) {
                ledger.violation(ledger.otherViolations, "periodic runs overlapped");
            }
            int k = (int) STARTS.getAndAdd(this, 1);
            long now = ledger.clock.nanoTime();
            long earliest;
            if (fixedRate) {
                long span = k == 0 ? 0 : periodNanos > Long.MAX_VALUE / k ? Long.MAX_VALUE : periodNanos * k;
                earliest = saturatedAdd(firstEarliest, span);
            } else {
                earliest = k == 0 ? firstEarliest : saturatedAdd(lastEnd, periodNanos);
            }
            if (now < earliest) {
                ledger.violation(ledger.early, "periodic run " + k + " started " + (earliest - now) + " ns early");
            }
            int atCancel = startsAtCancel;
            if (atCancel >= 0 && k > atCancel) {
                ledger.violation(ledger.otherViolations, "periodic run " + k + " started after cancel() returned"
                        + " true at " + atCancel + " starts");
            }
            ledger.periodicRuns.increment();
            lastEnd = ledger.clock.nanoTime();
            inRun = 0;
        }

        /** Cancels it, and records a true answer. */
        boolean cancel(boolean mayInterrupt) {
            boolean won = future.cancel(mayInterrupt);
            if (won) {
                if ((int) CANCEL_WINS.getAndAdd(this, 1) != 0) {
                    ledger.violation(ledger.otherViolations, "two cancel() calls on one periodic timer returned true");
                }
                startsAtCancel = starts;
                ledger.periodicCancelled.increment();
            }
            return won;
        }

        /** The end-of-life checks, once the timer is cancelled and any run in progress has had time to end. */
        void verifyEnded() {
            if (cancelWins != 1) {
                ledger.violation(ledger.otherViolations, "periodic timer ended with " + cancelWins
                        + " winning cancels");
            }
            int atCancel = startsAtCancel;
            if (atCancel >= 0 && starts > atCancel + 1) {
                ledger.violation(ledger.otherViolations, "periodic timer started " + starts + " runs, "
                        + atCancel + " when cancel() returned true");
            }
        }
    }

    // ------------------------------------------------------------------------------------------------------
    // Lateness

    /**
     * A log-linear histogram of non-negative nanosecond values: 8 buckets per power of two (12.5% resolution),
     * fixed size, lock-free.
     */
    static final class SoakHistogram {
        private final AtomicLongArray counts = new AtomicLongArray(8 * 62);
        private final LongAdder total = new LongAdder();
        private final AtomicLong max = new AtomicLong();

        void record(long value) {
            long v = Math.max(0, value);
            counts.incrementAndGet(index(v));
            total.increment();
            if (v > max.get()) {
                max.accumulateAndGet(v, Math::max);
            }
        }

        private static int index(long v) {
            if (v < 8) {
                return (int) v;
            }
            int e = 63 - Long.numberOfLeadingZeros(v);
            return (e - 2) * 8 + (int) ((v >>> (e - 3)) & 7);
        }

        /** The largest value a bucket holds. */
        private static long upper(int index) {
            if (index < 8) {
                return index;
            }
            int e = index / 8 + 2;
            long sub = index % 8;
            return ((9 + sub) << (e - 3)) - 1;
        }

        long count() {
            return total.sum();
        }

        long max() {
            return max.get();
        }

        /** The value at or below which {@code fraction} of the records lie (bucket upper bound). */
        long percentile(double fraction) {
            long n = 0;
            for (int i = 0; i < counts.length(); i++) {
                n += counts.get(i);
            }
            long rank = (long) Math.ceil(fraction * n);
            long seen = 0;
            for (int i = 0; i < counts.length(); i++) {
                seen += counts.get(i);
                if (seen >= rank && seen > 0) {
                    return Math.min(upper(i), max());
                }
            }
            return max();
        }
    }
}

package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * How late a timer's runs start: (start of the run − the start of the tick it was due in), in nanoseconds, in
 * log-linear buckets (HdrHistogram's idea): exact below 32 ns, then 32 buckets per power of two, so every value is
 * reported within 1/32 (3.1%) above its true value. About 15 KB per thread that runs tasks.
 *
 * <h2>Concurrency</h2>
 * Recording takes no lock and allocates nothing once a thread has its stripe: each thread that runs tasks writes
 * its own stripe (found through a {@link ThreadLocal}; made and registered once per thread), with opaque stores, so
 * no two threads write one counter. Readers sum every stripe with opaque loads: a snapshot taken while runs are
 * recorded is not one instant, but each count only grows. {@link #reset()} and {@link #snapshot()} synchronize
 * with each other (readers only): a reset stores the current sums as the baseline that later snapshots subtract.
 */
final class LatenessHistogram {

    /** Sub-bucket bits: 32 buckets per power of two. */
    static final int SUB_BITS = 5;
    static final int SUB = 1 << SUB_BITS;
    /** Buckets: 32 exact ones (0..31 ns), then 32 per power of two from 2^5 to 2^62. */
    static final int BUCKETS = SUB + (63 - SUB_BITS) * SUB;

    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

    /** Every stripe made so far; appended once per recording thread (copy on write), read by snapshots. */
    private final List<Stripe> stripes = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Stripe> mine = ThreadLocal.withInitial(this::newStripe);
    /** The sums at the last reset, or null; guarded by this. */
    private long[] baseline;

    /** One thread's counts. Written by that thread only (opaque), read by snapshots (opaque). */
    static final class Stripe {
        final long[] counts = new long[BUCKETS];
        /** The largest value recorded, exact; written by the owning thread only. */
        volatile long max;
    }

    private Stripe newStripe() {
        Stripe s = new Stripe();
        stripes.add(s);
        return s;
    }

    /** @return the bucket of a non-negative value */
    static int bucket(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int e = 63 - Long.numberOfLeadingZeros(v); // 5 .. 62
        int sub = (int) (v >>> (e - SUB_BITS)) & (SUB - 1);
        return SUB + ((e - SUB_BITS) << SUB_BITS) + sub;
    }

    /** @return the largest value a bucket holds */
    static long highestIn(int bucket) {
        if (bucket < SUB) {
            return bucket;
        }
        int e = ((bucket - SUB) >>> SUB_BITS) + SUB_BITS;
        long sub = (bucket - SUB) & (SUB - 1);
        long lowest = (SUB + sub) << (e - SUB_BITS);
        long width = 1L << (e - SUB_BITS);
        return lowest + width - 1 < 0 ? Long.MAX_VALUE : lowest + width - 1;
    }

    /** Records one run's lateness from the running thread; a negative value (a run before its time) is not kept. */
    void record(long latenessNanos) {
        if (latenessNanos < 0) {
            return;
        }
        Stripe s = mine.get();
        int b = bucket(latenessNanos);
        COUNTS.setOpaque(s.counts, b, (long) COUNTS.getOpaque(s.counts, b) + 1);
        if (latenessNanos > s.max) {
            s.max = latenessNanos;
        }
    }

    /** Forgets what was recorded so far, for the snapshots that follow. */
    synchronized void reset() {
        baseline = sums();
    }

    /** @return the runs recorded since creation or the last reset */
    synchronized TimerMetrics.Lateness snapshot() {
        long[] counts = sums();
        long max = 0;
        for (Stripe s : stripes) {
            max = Math.max(max, s.max);
        }
        if (baseline != null) {
            for (int i = 0; i < BUCKETS; i++) {
                counts[i] -= baseline[i];
            }
        }
        return new TimerMetrics.Lateness(counts, max);
    }

    private long[] sums() {
        long[] out = new long[BUCKETS];
        for (Stripe s : stripes) {
            for (int i = 0; i < BUCKETS; i++) {
                out[i] += (long) COUNTS.getOpaque(s.counts, i);
            }
        }
        return out;
    }
}

package dev.tickwheel;

/**
 * The {@link WorkerPool}'s fields of the owner's side: the chain of due timers being built in the current step, and
 * the watchdog's last look at the queue. Plain: only the holder of the owner loop's step token touches them (the owner
 * thread, or a standby worker stepping for it, which builds and pushes a chain but never runs the watchdog); the
 * token's CAS and release store order them between the two. The chain is written once per due timer, so
 * these live apart from the pool's shared fields (the spinner flag, the idle stack, the awake count, the standby
 * slot), which every worker reads on each take and every producer on each push: on the same cache line, each of
 * those reads would miss on a line the owner had just written. Padded on both sides, as JCTools pads its indexes,
 * so that no neighbouring object shares the line either.
 */
final class PoolOwnerSide extends PoolOwnerSideFields {
    long q00, q01, q02, q03, q04, q05, q06, q07;
    long q10, q11, q12, q13, q14, q15, q16, q17;
}

/** The owner's fields, between the two paddings. */
abstract class PoolOwnerSideFields extends PoolOwnerSidePad {
    /**
     * The current step's chain, linked through {@code next}: full batches, then (at the push) the last, partial one
     * or a lone timer, and any timer chained itself when no batch could be allocated; and its number of timers in all.
     */
    TimingWheel.Node first;
    TimingWheel.Node last;
    int count;
    /** The batch being filled, not yet in the chain (null: none). */
    HandOffBatch filling;
    /** Recycled batches taken back from the queue's free list, through {@code freeNext}. */
    HandOffBatch spare;
    /** Batches made to be pooled (at most WorkerPool.POOLED_BATCHES). */
    int pooledBatches;
    /** The watchdog's last look: the queue's count of timers handed out, and when it saw it change. */
    long watchedTaken = -1;
    long watchedSinceNanos;
}

abstract class PoolOwnerSidePad {
    /**
     * Fills the 4 bytes after a compressed object header: left empty, the JVM packs a subclass's int or reference
     * there (it put {@code count} there), before the padding, next to whatever object precedes this one.
     */
    int gap;
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p10, p11, p12, p13, p14, p15, p16, p17;
}

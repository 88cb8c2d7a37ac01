package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Up to {@link #CAPACITY} due timers handed off as one node of the {@link HandOffQueue}: the owner fills it during a
 * step and pushes it (one swap and one release store, however many timers it holds). A consumer takes the whole
 * batch out of the queue in one turn and then claims its timers from it one at a time, lowest first, through the
 * batch's own {@link #claim} word, on a line no other taker writes. Others may steal from the top of it (the upper
 * half of what is left, or the last timer): a worker recruited for it, one woken by the owner's watchdog when the
 * holder blocks in a task, and shutdownNow's hand-back. Whoever claims the last timer gives the batch back to the
 * owner ({@link HandOffQueue#giveBack}).
 *
 * <p>Why an array and not a chain through the timers: a consumer's first touch of a handed-off timer waits for its
 * line from the owner's core. Linked through the timers, the next timer's address is in the timer before, so those
 * waits came one after another (a third of a worker's CPU in the expiry shot). Here the addresses sit side by side,
 * so the holder, at the first of every eight it claims, loads the next seven timers' state words together
 * ({@link HandOffQueue#touchAhead}) and their misses overlap, as the owner's due buffer does for its own.
 *
 * <h2>The claim word</h2>
 * {@code generation << 32 | hi << 16 | lo}: the timers still to claim are {@code items[lo, hi)}. While the batch is
 * queued, or being refilled, the range is empty ({@code lo == hi}), so nobody can claim from it. The consumer that
 * takes it out of the queue <em>arms</em> it: under the queue's turn it stores {@code (generation + 1, count, 0)}
 * (release). A holder claims {@code lo} by a CAS to {@code lo + 1}; a thief claims the top {@code k} by a CAS of
 * {@code hi} to {@code hi - k}; the CAS whose result makes the range empty is the last claim, and its thread gives the
 * batch back. Each claimer reads the items it claims <em>before</em> its CAS, and the CAS validates the read: while
 * the word holds this generation with {@code lo < hi} the batch cannot have been given back, so nobody has refilled
 * or cleared those slots. A thief that read the word long ago (the batch since emptied, given back, refilled and
 * armed again) fails its CAS on the generation, even if {@code lo} and {@code hi} are back to what it read
 * (jcstress: RefillVsLateThief; BrokenRefillVsLateThief arms without the generation and runs a timer twice).
 *
 * <p>Orderings: the owner writes {@link #items} and {@link #count} plain before the push's release store; the taker
 * acquires them through the queue (its turn) and arms the word with a release store; every claimer acquires the word
 * (volatile load, CAS), so it sees the items the arming published. The last claimer clears the slots and resets
 * {@link #count} after its CAS, then gives the batch back by a CAS onto the free list (release), which the owner's
 * getAndSet of the list acquires. A worker's own batch ({@link #workerOwned}: where a thief keeps the half it stole,
 * so that it can be stolen from in turn) is never given back: its worker refills it only once it reads it empty,
 * and its slots are cleared by that refill, not by the last claimer, whose clearing could land after the refill.
 */
final class HandOffBatch extends TimingWheel.Node {

    /** Timers a batch holds: a few lines of references, claimed in groups of {@link HandOffQueue#TOUCH_AHEAD}. */
    static final int CAPACITY = 64;

    static final VarHandle CLAIM;

    static {
        try {
            CLAIM = MethodHandles.lookup().findVarHandle(HandOffBatch.class, "claim", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The timers, {@code [lo, hi)} of {@link #claim} still to claim. Slots written plain by the owner (or the standby,
     * under the step token) before the push's release store, or by the thief that fills its own batch before arming
     * it (release); read plain by claimers after acquiring the word; cleared by the last claimer of a pooled batch.
     */
    final TimingWheel.Node[] items = new TimingWheel.Node[CAPACITY];
    /**
     * Timers filled in. Written plain by the owner before the push (release), by a thief into its own batch before
     * arming it; read by the arming taker and the last claimer; reset by the last claimer of a pooled batch.
     */
    int count;
    /**
     * {@code generation << 32 | hi << 16 | lo} (see the class comment). Release store by the arming taker; CAS by
     * claimers and thieves; volatile loads. 0 for a new batch: generation 0, empty.
     */
    volatile long claim;
    /**
     * Its link in the queue's free list while recycled. Written plain by the recycling consumer before its CAS
     * (release); read by the owner after its getAndSet of the list (acquire).
     */
    HandOffBatch freeNext;
    /**
     * Whether it goes back to the free list once emptied (a bounded number of batches are kept for reuse; a burst
     * that has more in flight makes the rest as garbage). Final.
     */
    final boolean pooled;
    /** A worker's own batch for what it steals: never given back, refilled by its worker only. Final. */
    final boolean workerOwned;

    HandOffBatch(boolean pooled) {
        this(pooled, false);
    }

    HandOffBatch(boolean pooled, boolean workerOwned) {
        this.pooled = pooled;
        this.workerOwned = workerOwned;
    }

    static int lo(long word) {
        return (int) word & 0xFFFF;
    }

    static int hi(long word) {
        return (int) (word >>> 16) & 0xFFFF;
    }

    static long generation(long word) {
        return word >>> 32;
    }

    static long word(long generation, int hi, int lo) {
        return generation << 32 | (long) hi << 16 | lo;
    }

    /** Timers left to claim: hi - lo (never negative). */
    static int left(long word) {
        return Math.max(0, hi(word) - lo(word));
    }
}

package dev.tickwheel;

/**
 * Up to {@link #CAPACITY} due timers handed off as one node of the {@link HandOffQueue}: the owner fills it during a
 * step and pushes it (one swap and one release store, however many timers it holds); the pool's consumers claim its
 * timers one at a time, in order, under the queue's turn, and the one that claims the last takes the node out of the
 * queue and gives it back to the owner ({@link HandOffQueue#recycle}).
 *
 * <p>Why an array and not a chain through the timers: a consumer's first touch of a handed-off timer waits for its
 * line from the owner's core. Linked through the timers, the next timer's address is in the timer before, so those
 * waits came one after another (a third of a worker's CPU in the expiry shot). Here the addresses sit side by side,
 * so the consumer that claims the first of every eight loads the next seven timers' state words together
 * ({@link HandOffQueue#touchAhead}) and their misses overlap, as the owner's due buffer does for its own.
 *
 * <p>Fields are plain. The owner writes {@link #items} and {@link #count} before the push's release store (a
 * consumer acquires them with the link, and each later consumer through the turn); {@link #claimed} and
 * {@link #lastTaker} are written by the consumer holding the turn; a recycled batch is reset by the consumer that
 * took it before its free-list CAS (release), which the owner's getAndSet of the list acquires. A claimed slot is
 * nulled at once, so a batch never keeps a run or handed-back timer (and its task) reachable.
 */
final class HandOffBatch extends TimingWheel.Node {

    /** Timers a batch holds: a few lines of references, claimed in groups of {@link HandOffQueue#TOUCH_AHEAD}. */
    static final int CAPACITY = 64;

    /**
     * The timers, {@code [claimed, count)} still to hand out; null at or past {@link #count} and once claimed. Slots
     * written plain by the owner (or the standby, under the step token) before the push's release store; read and
     * nulled plain by the consumer holding the queue's turn.
     */
    final TimingWheel.Node[] items = new TimingWheel.Node[CAPACITY];
    /** Timers filled in. Written plain by the owner before the push (release); reset by the recycling consumer. */
    int count;
    /** Timers handed out so far (the next index to claim). Plain: consumers under the turn (its CAS and release). */
    int claimed;
    /**
     * The thread that claimed the last one, or null: a consumer loads the next group's lines only if it took the
     * timer before (alone on the batch), since lines it loads that another worker then takes would only be moved
     * again. Plain: consumers under the turn.
     */
    Thread lastTaker;
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

    HandOffBatch(boolean pooled) {
        this.pooled = pooled;
    }
}

package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The pool's queue of timers handed off to run: FIFO, many producers, consumers one at a time. Its nodes are timers
 * (a task due now, or a step's lone due timer), linked through the timers themselves (their wheel node's
 * {@code next} field, which is free while a timer is handed off), and {@link HandOffBatch}es: arrays of up to 64 of
 * a step's due timers, which the owner fills and reuses. A consumer takes a batch out of the queue whole, in one turn,
 * and then claims its timers from the batch's own claim word ({@link BatchHolder}, {@link #claimLow}), where others
 * may steal from it ({@link #steal}). A hand-off allocates nothing in the steady state, and a step's whole chain costs
 * what one timer costs.
 *
 * <h2>Why not a JCTools queue</h2>
 * JCTools' queues are arrays of references: handing off a batch of k timers stores k slots (and, in its MPMC
 * queues, claims k indexes), and every consumer claims its element with an atomic on an index the producers' lines
 * sit beside. Here the owner stores a step's due timers into batches it owns (plain stores into lines no other
 * thread writes until the push) and publishes the step's chain of batches with one atomic swap of {@link #tail} and
 * one release store: O(1) shared writes per step, whatever its size. JCTools' own linked queues allocate a node per
 * element.
 *
 * <h2>Why batches, taken whole</h2>
 * A consumer's first touch of a handed-off timer waits for the timer's line to come from the owner's core. In a batch
 * the addresses sit side by side, so the holder, at the first of each group of {@link #TOUCH_AHEAD}, loads the other
 * seven's state words together and their waits overlap ({@link #touchAhead}). Until session 19 a batch stayed at the
 * queue's head and each of its timers cost a turn on the queue ({@link #takeLock}): with two consumers taking at once
 * that turn was a spin lock whose line moved between their cores on every take (on 2 vCPUs, 32,768 batches of 64
 * drained: 16-20 ns a timer with one consumer, 103-137 ns with two). Taken whole, a batch costs one turn; its timers
 * then cost one CAS each on the batch's claim word, a line only its holder writes unless it is robbed: 13-15 ns a
 * timer with two consumers (session 19's {@code BatchTake}). A slow or blocked task holds only the timer its worker
 * claimed: the rest of its batch can be stolen, by a worker the holder recruits, by one that finds the queue empty,
 * or by one the owner's watchdog adds when the holder blocks (the watchdog finds held batches through
 * {@link #heldHint}).
 *
 * <h2>The algorithm</h2>
 * Dmitry Vyukov's intrusive MPSC queue, with a stub node: a producer clears the last node's link, swaps
 * {@link #tail} to it (getAndSet), then stores the old tail's {@code next} (release). The consumer follows
 * {@code next} from {@link #head}; when it would take the last node it first pushes the stub behind it, so the queue
 * never holds a reference to a node it has handed out (a periodic timer goes back into the wheel after its run, which
 * rewrites {@code next}; an emptied batch goes back to the owner, which refills it). A batch is armed only once its
 * node is out of the queue, and given back only once its last timer is claimed, by the thread whose claim emptied it,
 * so a batch is never refilled while queued (jcstress: BatchRecycleVsRefill, ClaimVsSteal, RefillVsLateThief). Between
 * a producer's swap and its link the queue is briefly cut: {@link #poll} answers {@link #RETRY}, never "empty", while
 * that is so.
 *
 * <p>Consumers take turns through {@link #takeLock} (a CAS to acquire, a release store to let go), which is what
 * makes the single-consumer algorithm safe for the pool's workers and its hand-back: each consumer's plain accesses
 * to {@code head} and the links happen-before the next one's. It is taken once per node: per timer due now, per
 * isolated fire, and per batch of up to 64 of a step's due timers. The consumer that takes a batch publishes it as
 * its own ({@link BatchHolder#held}) before it lets the turn go, so the hand-back, which takes the turn after, sees
 * it and claims what it has left.
 *
 * <h2>Emptiness, for the wake-up handshake</h2>
 * {@link #isEmpty()} loads {@link #head} and then {@link #tail} (both volatile): empty when both are the stub. It
 * can answer "empty" while nodes are queued: between its two loads a consumer may move {@code head} off the stub,
 * take the last node and push the stub behind it while a producer's swap is not yet linked. It is safe for the
 * wake-up handshake because that consumer is awake and holds on: every consumer that moves {@code head} off the
 * stub keeps polling (RETRY, never giving up) until it hands a timer out, and takes what follows; and a push that
 * {@code isEmpty} misses with no such consumer came after its tail load. A worker therefore announces that it parks
 * (an atomic on the idle stack), then calls {@code isEmpty}; a producer swaps the tail, then reads the idle stack:
 * one of the two sees the other, or an awake consumer takes the push (jcstress: HandOffVsPark). Timers left in a
 * held batch are not in the queue, and a parker does not wait for them: their holder is awake and claims them after
 * its task, and if it blocks the watchdog adds a worker that steals them (jcstress: HandOffVsParkBehindBatch,
 * HeldBatchVsOwnerPark).
 *
 * <p>Fields are padded apart: {@link #tail} is written by the producers, {@link #head}, {@link #takeLock}, the
 * count of nodes handed out and the held hint by the consumers (who also push emptied batches onto the free list,
 * once per batch, which the owner empties in one getAndSet when it runs out).
 */
final class HandOffQueue extends HandOffQueuePad2 {

    /** {@link #poll}'s answer while another consumer holds the turn or a producer is between its swap and link. */
    static final TimingWheel.Node RETRY = new TimingWheel.Node();

    /** The holder of {@link #poll()}, the loose consumer of tests and jcstress arbiters; never a worker's. Final. */
    final BatchHolder loose = new BatchHolder() { };

    HandOffQueue() {
        super(new TimingWheel.Node());
    }

    /** Any thread: appends one node. Its {@code next} is the queue's until a consumer hands it out. */
    void push(TimingWheel.Node n) {
        pushChain(n, n);
    }

    /**
     * Any thread: appends a chain already linked {@code first} .. {@code last} through {@code next} (plain stores,
     * published by the release below): one swap and one release store for the whole chain.
     */
    void pushChain(TimingWheel.Node first, TimingWheel.Node last) {
        last.next = null;
        TimingWheel.Node prev = (TimingWheel.Node) TAIL.getAndSet(this, last);
        NEXT.setRelease(prev, first);
    }

    /** Any thread: whether no node is queued (see the class comment for what a concurrent push may do). */
    boolean isEmpty() {
        return head == stub && tail == stub;
    }

    /** {@link #poll(BatchHolder)} for the loose consumer (tests, jcstress arbiters: one thread at a time). */
    TimingWheel.Node poll() {
        return poll(loose);
    }

    /**
     * The thread that owns {@code h}: its next timer. First the batch it holds (a CAS on the batch's claim word, no
     * turn); once that is empty, the queue's oldest node, if this thread gets the consumers' turn at once: a single
     * timer is handed out, a batch is taken out whole, armed, published in {@code h}, and its first timer claimed.
     *
     * @return the timer; null if {@code h} holds nothing and the queue is empty; {@link #RETRY} if another consumer
     *         holds the turn or a producer is between its swap and its link (the caller tries again: something may
     *         be there)
     */
    TimingWheel.Node poll(BatchHolder h) {
        return poll(h, true, true);
    }

    /**
     * Takes the oldest timer, waiting out another consumer's turn and a producer's cut: for the hand-back and the
     * owner's failure, which must strand nothing.
     *
     * @return the node, or null once {@code h} holds nothing and the queue is empty
     */
    TimingWheel.Node pollWaiting(BatchHolder h) {
        for (int tries = 0; ; tries++) {
            TimingWheel.Node n = poll(h);
            if (n != RETRY) {
                return n;
            }
            if ((tries & 63) == 63) {
                Thread.yield(); // the other side may be descheduled mid-step
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * jcstress only ({@code BrokenTakeVsHandBack}): the pop without taking the consumers' turn, to show what the
     * turn is for. Never called by the library.
     */
    TimingWheel.Node pollWithoutTurn() {
        return poll(loose, true, false);
    }

    /**
     * jcstress only ({@code BrokenRefillVsLateThief}): the pop that arms a batch with the generation it had, to show
     * what the new generation is for. Never called by the library.
     */
    TimingWheel.Node pollArmingWithoutGeneration(BatchHolder h) {
        return poll(h, false, true);
    }

    /**
     * {@link #poll(BatchHolder)}; the jcstress twins turn off one of its two guards each: {@code newGeneration}
     * (arm a batch taken out with a new generation) or {@code takeTurn} (pop under the consumers' turn). The library
     * passes both true, constants that the JIT folds once this is inlined into {@code poll}.
     */
    private TimingWheel.Node poll(BatchHolder h, boolean newGeneration, boolean takeTurn) {
        HandOffBatch b = h.held;
        if (b != null) {
            TimingWheel.Node t = claimLow(h, b);
            if (t != null) {
                return t;
            }
            h.held = null; // read empty (claimed to the end, here or by thieves)
            h.left = 0;
            if (b == h.own) {
                clearOwn(b);
            }
        }
        if (!takeTurn) {
            return pollLocked(h, newGeneration); // BROKEN (jcstress only): no turn
        }
        if (takeLock != 0 || !TAKE_LOCK.compareAndSet(this, 0, 1)) {
            return RETRY;
        }
        try {
            return pollLocked(h, newGeneration);
        } finally {
            TAKE_LOCK.setRelease(this, 0);
        }
    }

    /**
     * Vyukov's pop, under the consumers' turn (without it only in {@link #pollWithoutTurn}'s jcstress twin): a single
     * timer is handed out; a batch is taken out and armed.
     */
    private TimingWheel.Node pollLocked(BatchHolder h, boolean newGeneration) {
        TimingWheel.Node n = head;
        if (n == stub) {
            TimingWheel.Node next = (TimingWheel.Node) NEXT.getAcquire(n);
            if (next == null) {
                return tail == stub ? null : RETRY; // empty, or a push behind the stub not yet linked
            }
            HEAD.setRelease(this, next); // off the stub: isEmpty now reads non-empty until the last node is taken
            stub.next = null; // its link was seen; nobody writes it until the stub is pushed again (which clears it)
            n = next;
        }
        TimingWheel.Node t = takeNode(n);
        if (t == RETRY) {
            return RETRY;
        }
        TAKEN.setOpaque(this, taken + 1);
        if (t instanceof HandOffBatch) {
            return arm(h, (HandOffBatch) t, newGeneration);
        }
        return t;
    }

    /**
     * Under the turn, with the batch {@code b} just taken out of the queue: arms its claim word for its timers (a new
     * generation; the same one only through {@link #pollArmingWithoutGeneration}), publishes it as {@code h}'s (release, under
     * the turn: the hand-back takes the turn after and so sees it), and claims its first timer.
     *
     * @return the first timer, or RETRY if thieves took them all in the meantime (the caller looks again)
     */
    private TimingWheel.Node arm(BatchHolder h, HandOffBatch b, boolean newGeneration) {
        long generation = HandOffBatch.generation(b.claim) + (newGeneration ? 1 : 0);
        HandOffBatch.CLAIM.setRelease(b, HandOffBatch.word(generation, b.count, 0));
        h.heldGeneration = generation;
        h.held = b;
        if (!heldHint) {
            heldHint = true; // for the owner's watchdog: a batch is held (a write per batch at most)
        }
        TimingWheel.Node t = claimLow(h, b);
        return t != null ? t : RETRY;
    }

    /** Takes the head node {@code h} (not the stub) out of the queue; RETRY while a producer's link is missing. */
    private TimingWheel.Node takeNode(TimingWheel.Node h) {
        TimingWheel.Node n = (TimingWheel.Node) NEXT.getAcquire(h);
        if (n != null) {
            return take(h, n);
        }
        if (tail != h) {
            return RETRY; // a producer swapped the tail past h and has not linked h yet
        }
        push(stub); // h is the last node: put the stub behind it, so that taking h leaves no reference to it
        n = (TimingWheel.Node) NEXT.getAcquire(h);
        return n != null ? take(h, n) : RETRY; // null: a producer slipped in before the stub, not yet linked
    }

    private TimingWheel.Node take(TimingWheel.Node h, TimingWheel.Node following) {
        HEAD.setRelease(this, following);
        h.next = null; // plain: nobody else reads h's link any more (its successor was linked before we saw it)
        return h;
    }

    /** Timers of a batch whose lines {@link #touchAhead} loads together: at most a core's misses in flight. */
    static final int TOUCH_AHEAD = 8;

    /**
     * The holder's claim: the lowest timer left in {@code b}, if {@code b} still holds the generation {@code h}
     * armed (or stole into) and any are left. Reads the slot, then the CAS validates it (see {@link HandOffBatch}).
     * Sets {@code h.left}; at the first of each group of {@link #TOUCH_AHEAD}, loads the rest of the group's lines.
     *
     * @return the timer, or null once the range is empty or the batch is not {@code h}'s any more
     */
    TimingWheel.Node claimLow(BatchHolder h, HandOffBatch b) {
        for (;;) {
            long c = b.claim;
            int lo = HandOffBatch.lo(c);
            int hi = HandOffBatch.hi(c);
            if (lo >= hi || HandOffBatch.generation(c) != h.heldGeneration) {
                return null;
            }
            TimingWheel.Node t = b.items[lo];
            if (HandOffBatch.CLAIM.compareAndSet(b, c, c + 1)) {
                h.left = hi - lo - 1;
                if (lo + 1 == hi) {
                    giveBack(b);
                } else if ((lo & (TOUCH_AHEAD - 1)) == 0) {
                    touchAhead(h, b, lo + 1, hi);
                }
                return t;
            }
        }
    }

    /**
     * {@code thief}, holding nothing, steals from what {@code victim} holds: the last timer left, or the upper half
     * of those left (at least two), which it copies into its own batch, arms (a new generation) and publishes as the
     * batch it holds, so that others may steal from it in turn; it returns the first of them, claimed.
     *
     * @return a timer, or null if the victim holds nothing left to steal
     */
    TimingWheel.Node steal(BatchHolder thief, BatchHolder victim) {
        HandOffBatch b = victim.held;
        if (b == null) {
            return null;
        }
        for (;;) {
            long c = b.claim;
            int lo = HandOffBatch.lo(c);
            int hi = HandOffBatch.hi(c);
            int n = hi - lo;
            if (n <= 0) {
                return null;
            }
            int k = n / 2;
            if (k <= 1) {
                TimingWheel.Node t = stealTop(b, c);
                if (t != null) {
                    return t;
                }
                continue;
            }
            HandOffBatch mine = thief.own;
            if (mine == null) {
                mine = new HandOffBatch(false, true); // once per consumer that ever steals a half
                thief.own = mine;
            }
            mine.count = Math.max(mine.count, k); // slots written so far, cleared past the fill once it succeeds
            for (int i = 0; i < k; i++) {
                // Its own batch, read empty: a late claimer may still read these slots, but its CAS fails on the
                // generation, which the arming below bumps.
                mine.items[i] = b.items[hi - k + i];
            }
            if (!HandOffBatch.CLAIM.compareAndSet(b, c, HandOffBatch.word(HandOffBatch.generation(c), hi - k, lo))) {
                continue;
            }
            for (int i = k, end = mine.count; i < end; i++) {
                mine.items[i] = null; // what a failed attempt or an earlier fill left past this one's end
            }
            mine.count = k;
            long generation = HandOffBatch.generation(mine.claim) + 1;
            HandOffBatch.CLAIM.setRelease(mine, HandOffBatch.word(generation, k, 0));
            thief.heldGeneration = generation;
            thief.held = mine;
            if (!heldHint) {
                heldHint = true; // as arm(): the owner's watchdog must find this batch too
            }
            TimingWheel.Node t = claimLow(thief, mine);
            if (t != null) {
                return t;
            }
            // stolen from in turn, to the last timer, before its first claim: look again
            thief.held = null;
            return null;
        }
    }

    /**
     * Claims the top timer of {@code b} if its word is still {@code c} (non-empty): a thief's or the hand-back's
     * claim of one.
     *
     * @return the timer, or null if the word moved
     */
    private TimingWheel.Node stealTop(HandOffBatch b, long c) {
        int lo = HandOffBatch.lo(c);
        int hi = HandOffBatch.hi(c);
        TimingWheel.Node t = b.items[hi - 1];
        if (!HandOffBatch.CLAIM.compareAndSet(b, c, HandOffBatch.word(HandOffBatch.generation(c), hi - 1, lo))) {
            return null;
        }
        if (hi - 1 == lo) {
            giveBack(b);
        }
        return t;
    }

    /**
     * The hand-back's claim from what {@code victim} holds: its top timer, whoever holds the batch now.
     *
     * @return the timer, or null once the victim's batch is empty (or it holds none)
     */
    TimingWheel.Node stealOne(BatchHolder victim) {
        HandOffBatch b = victim.held;
        if (b == null) {
            return null;
        }
        for (;;) {
            long c = b.claim;
            if (HandOffBatch.left(c) == 0) {
                return null;
            }
            TimingWheel.Node t = stealTop(b, c);
            if (t != null) {
                return t;
            }
        }
    }

    /**
     * Its holder, having read its own batch empty: clears the slots, so that it keeps no run timer (and its task)
     * reachable until its next steal. Only its holder fills it, and only after this; a late claimer that reads a
     * cleared slot fails its CAS (the range is empty in this generation, and a refill bumps it).
     */
    private static void clearOwn(HandOffBatch b) {
        TimingWheel.Node[] items = b.items;
        for (int i = 0, n = b.count; i < n; i++) {
            items[i] = null;
        }
        b.count = 0;
    }

    /**
     * Loads the state words of the batch's timers {@code from} .. the end of the group (or {@code hi}), one after
     * another with nothing between them: their addresses come from the array, not from each other, so the waits for
     * their lines from the owner's core overlap instead of coming one per claim. Volatile loads, which the compiler
     * keeps; summed into the holder's own field only so that no load is dead. Holder only, so that on many cores a worker does not
     * pull in lines that a thief then takes.
     */
    private static void touchAhead(BatchHolder h, HandOffBatch b, int from, int hi) {
        int end = Math.min(from + TOUCH_AHEAD - 1, hi);
        int sum = 0;
        for (int k = from; k < end; k++) {
            TimingWheel.Node t = b.items[k];
            if (t instanceof ScheduledTimer) {
                sum += ((ScheduledTimer<?>) t).phase();
            }
        }
        h.touched = sum;
    }

    /**
     * The thread whose claim emptied {@code b}: if it is a pooled batch, clears it and gives it back to the owner
     * (a CAS onto the free list: release; the owner's {@link #takeFreeBatches} acquires). A worker's own batch stays
     * with its worker, and one made beyond the pool's bound is left to the garbage collector.
     */
    void giveBack(HandOffBatch b) {
        if (b.workerOwned || !b.pooled) {
            return;
        }
        TimingWheel.Node[] items = b.items;
        for (int i = 0, n = b.count; i < n; i++) {
            items[i] = null; // keeps no run or handed-back timer (and its task) reachable
        }
        b.count = 0;
        for (;;) {
            HandOffBatch top = freeBatches;
            b.freeNext = top;
            if (FREE.compareAndSet(this, top, b)) {
                return;
            }
        }
    }

    /** The owner: takes every recycled batch at once (getAndSet: acquire), as a list through {@code freeNext}. */
    HandOffBatch takeFreeBatches() {
        return freeBatches == null ? null : (HandOffBatch) FREE.getAndSet(this, null);
    }

    /**
     * Nodes handed out so far (a batch counts once, when it is taken out): the owner's watchdog reads it to see the
     * queue move. Written opaque by the consumer holding the turn, read opaque: a count for a hint, ordering nothing.
     */
    long taken() {
        return (long) TAKEN.getOpaque(this);
    }

    /**
     * The owner's watchdog: whether a batch may be held with timers left (set by a taker when it arms one; cleared
     * by the watchdog when its look at the holders finds none).
     */
    boolean heldHint() {
        return heldHint;
    }

    /** A thief announces its steal (before the steal's CAS; see {@link HeldBatches#stealFrom}). */
    void announceSteal() {
        STEALING.getAndAdd(this, 1);
    }

    /** A thief's steal is over: what it stole is published as its batch, or it stole nothing. */
    void endSteal() {
        STEALING.getAndAdd(this, -1);
    }

    /**
     * Waits until no steal is between its announcement and its publication (a few instructions, unless a thief is
     * descheduled there: then it yields): the hand-back and an exiting worker, before they look at the holders.
     */
    void awaitSteals() {
        for (int tries = 0; stealing != 0; tries++) {
            if ((tries & 63) == 63) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** The owner's watchdog, before it looks at the holders. */
    void clearHeldHint() {
        heldHint = false;
    }

    /** The owner's watchdog, when its look found a batch held with timers left. */
    void setHeldHint() {
        heldHint = true;
    }
}

/** The producers' line. */
abstract class HandOffQueueTailField extends HandOffQueuePad0 {
    static final VarHandle TAIL;
    static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(HandOffQueueTailField.class, "tail", TimingWheel.Node.class);
            NEXT = lookup.findVarHandle(TimingWheel.Node.class, "next", TimingWheel.Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The stub: never handed out; in the queue when it is empty. Final. */
    final TimingWheel.Node stub;
    /** The last node pushed. getAndSet by producers (and by a consumer pushing the stub); lv by isEmpty. */
    volatile TimingWheel.Node tail;
    /**
     * Fills the 4 bytes after {@link #tail}: left empty, the JVM packed the consumers' {@code takeLock} there, on the
     * producers' line (PoolOwnerSideLayoutTest checks the queue's layout too).
     */
    int tailGap;

    HandOffQueueTailField(TimingWheel.Node stub) {
        this.stub = stub;
        this.tail = stub;
    }
}

abstract class HandOffQueuePad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p10, p11, p12, p13, p14, p15, p16, p17;
}

abstract class HandOffQueuePad1 extends HandOffQueueTailField {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p10, p11, p12, p13, p14, p15, p16, p17;

    HandOffQueuePad1(TimingWheel.Node stub) {
        super(stub);
    }
}

/** The consumers' line. */
abstract class HandOffQueueConsumerFields extends HandOffQueuePad1 {
    static final VarHandle TAKE_LOCK;
    static final VarHandle HEAD;
    static final VarHandle TAKEN;
    static final VarHandle FREE;
    static final VarHandle STEALING;

    static {
        try {
            TAKE_LOCK = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "takeLock", int.class);
            HEAD = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "head", TimingWheel.Node.class);
            TAKEN = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "taken", long.class);
            FREE = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "freeBatches",
                    HandOffBatch.class);
            STEALING = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "stealing", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The next node to hand out, or the stub. Written by the consumer holding the turn, by a release store (HEAD):
     * the next consumer acquires it through the turn's CAS, and the lock-free readers
     * ({@link HandOffQueue#isEmpty}, the owner's watchdog) need only see it eventually, since no handshake orders a
     * later load of the consumer against this store (the park handshake's pair is the idle stack's atomic and the
     * producers' swap of {@code tail}). A volatile store here was a full fence per take; without it the miss on the
     * taken timer's second line (its state or task, for most 48-byte timers) may overlap the miss on its link.
     * (Measured only together with the workers' own end counts, in the expiry shot's medians; the profile did not
     * resolve this store's share.) Read (volatile) by isEmpty.
     */
    volatile TimingWheel.Node head;
    /** 1 while a consumer holds the turn. cas 0 -&gt; 1 to take it (acquire), release store of 0 to give it back. */
    volatile int takeLock;
    /** Nodes handed out (a batch counts once): see {@link HandOffQueue#taken()}. Opaque stores under the turn. */
    long taken;
    /**
     * Thieves between their announcement and the publication of what they stole (see
     * {@link HeldBatches#stealFrom}): getAndAdd +1 before a steal's CAS, -1 after its batch is published; read by the
     * hand-back and a worker about to exit, which wait for it to be 0 before they look at the holders. Written once
     * or twice per steal, never per timer.
     */
    volatile int stealing;
    /**
     * Set (volatile, only if clear: at most a write per batch taken) by a consumer that arms a batch or publishes a
     * stolen half; read and
     * cleared by the owner's watchdog, which then looks at the holders. See {@link HandOffQueue#heldHint()}.
     */
    volatile boolean heldHint;
    /**
     * Emptied batches given back to the owner: a stack through {@code freeNext}. cas by the consumer that emptied one
     * (push), getAndSet to null by the owner (takes them all); written once per batch of timers, not per timer.
     */
    volatile HandOffBatch freeBatches;

    HandOffQueueConsumerFields(TimingWheel.Node stub) {
        super(stub);
        this.head = stub;
    }
}

/**
 * After the consumers' line, in a class of its own: padding declared beside {@code head} and {@code takeLock} was
 * laid out before them, which left them at the object's end, next to whatever object follows it.
 */
abstract class HandOffQueuePad2 extends HandOffQueueConsumerFields {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p10, p11, p12, p13, p14, p15, p16, p17;

    HandOffQueuePad2(TimingWheel.Node stub) {
        super(stub);
    }
}

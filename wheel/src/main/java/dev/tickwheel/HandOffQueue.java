package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The pool's queue of timers handed off to run: FIFO, many producers, consumers one at a time. Its nodes are timers
 * (a task due now, or a step's lone due timer), linked through the timers themselves (their wheel node's
 * {@code next} field, which is free while a timer is handed off), and {@link HandOffBatch}es: arrays of up to 64 of
 * a step's due timers, which the owner fills and reuses, handed out one timer at a time. A hand-off allocates nothing
 * in the steady state, and a step's whole chain costs what one timer costs.
 *
 * <h2>Why not a JCTools queue</h2>
 * JCTools' queues are arrays of references: handing off a batch of k timers stores k slots (and, in its MPMC
 * queues, claims k indexes), and every consumer claims its element with an atomic on an index the producers' lines
 * sit beside. Here the owner stores a step's due timers into batches it owns (plain stores into lines no other
 * thread writes until the push) and publishes the step's chain of batches with one atomic swap of {@link #tail} and
 * one release store: O(1) shared writes per step, whatever its size. JCTools' own linked queues allocate a node per
 * element.
 *
 * <h2>Why batches, not only a chain through the timers</h2>
 * A consumer's first touch of a handed-off timer waits for the timer's line to come from the owner's core. In a chain
 * through the timers each timer's address is read from the one before, so those waits came one per take, each
 * behind the take's CAS (a full fence). In a batch the addresses sit side by side: the consumer that claims the
 * first of each group of {@link #TOUCH_AHEAD} loads the other seven's state words together and their waits overlap
 * ({@link #touchAhead}; only when it also took the timer before, so that on many cores one worker does not pull in
 * lines that others then take). A batch's timers are claimed in order, one per take, so a slow or blocked task holds
 * only the timer its worker took: the rest of its batch stays at the queue's head for the next consumer.
 *
 * <h2>The algorithm</h2>
 * Dmitry Vyukov's intrusive MPSC queue, with a stub node: a producer clears the last node's link, swaps
 * {@link #tail} to it (getAndSet), then stores the old tail's {@code next} (release). The consumer follows
 * {@code next} from {@link #head}; when it would take the last node it first pushes the stub behind it, so the queue
 * never holds a reference to a node it has handed out (a periodic timer goes back into the wheel after its run, which
 * rewrites {@code next}; an emptied batch goes back to the owner, which refills it). A batch leaves the queue only
 * when its last timer is claimed, by the consumer that claims it, which only then gives the batch back (jcstress:
 * BatchRecycleVsRefill; BrokenBatchRecycleVsRefill gives it back first, and loses timers). Between a producer's
 * swap and its link the queue is briefly cut: {@link #poll} answers {@link #RETRY}, never "empty", while that is so.
 *
 * <p>Consumers take turns through {@link #takeLock} (a CAS to acquire, a release store to let go), which is what
 * makes the single-consumer algorithm safe for the pool's workers and its hand-back: each consumer's plain accesses
 * to {@code head} and the links happen-before the next one's. The turn costs little while one consumer takes; two
 * taking at once make it a spin lock, each take moving the turn's line between their cores (on 2 vCPUs: 12-15 ns a
 * take with one consumer, 91-131 ns with two; session 18's {@code BareTake}). The pool's awake cap keeps one worker
 * on the owner's batches on two cores; on more cores its recruits contend here (README, the many-core cost model).
 *
 * <h2>Emptiness, for the wake-up handshake</h2>
 * {@link #isEmpty()} loads {@link #head} and then {@link #tail} (both volatile): empty when both are the stub. It
 * can answer "empty" while nodes are queued: between its two loads a consumer may move {@code head} off the stub,
 * take the last node and push the stub behind it while a producer's swap is not yet linked. It is safe for the
 * wake-up handshake because that consumer is awake and holds on: every consumer that moves {@code head} off the
 * stub keeps polling (RETRY, never giving up) until it hands a timer out (the first claim of a batch moves
 * {@code head} off the stub onto the batch, as any node's take does; the claims after it, up to its last, move neither
 * {@code head} nor {@code tail}, so a batch counts here as one node, taken at its last claim), and takes what
 * follows; and a push that
 * {@code isEmpty} misses with no such consumer came after its tail load. A worker therefore announces that it parks
 * (an atomic on the idle stack), then calls {@code isEmpty}; a producer swaps the tail, then reads the idle stack:
 * one of the two sees the other, or an awake consumer takes the push (jcstress: HandOffVsPark).
 *
 * <p>Fields are padded apart: {@link #tail} is written by the producers, {@link #head}, {@link #takeLock} and the
 * count of timers handed out by the consumers (who also push emptied batches onto the free list, once per batch,
 * which the owner empties in one getAndSet when it runs out).
 */
final class HandOffQueue extends HandOffQueuePad2 {

    /** {@link #poll}'s answer while another consumer holds the turn or a producer is between its swap and link. */
    static final TimingWheel.Node RETRY = new TimingWheel.Node();

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

    /**
     * Any thread: takes the oldest timer (a single one, or a batch's next) if this thread gets the consumers' turn
     * at once.
     *
     * @return the timer; null if the queue is empty; {@link #RETRY} if another consumer holds the turn or a producer
     *         is between its swap and its link (the caller tries again: something may be there)
     */
    TimingWheel.Node poll() {
        if (takeLock != 0 || !TAKE_LOCK.compareAndSet(this, 0, 1)) {
            return RETRY;
        }
        try {
            return pollLocked(false);
        } finally {
            TAKE_LOCK.setRelease(this, 0);
        }
    }

    /**
     * Takes the oldest timer, waiting out another consumer's turn and a producer's cut: for the hand-back and the
     * owner's failure, which must strand nothing.
     *
     * @return the node, or null once the queue is empty
     */
    TimingWheel.Node pollWaiting() {
        for (int tries = 0; ; tries++) {
            TimingWheel.Node n = poll();
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
        return pollLocked(false);
    }

    /**
     * jcstress only ({@code BrokenBatchRecycleVsRefill}): under the turn, but an emptied batch goes back to the owner
     * before its node leaves the queue (and its take's RETRY is ignored), to show why {@link #pollBatch} takes the node
     * out first. Never called by the library.
     */
    TimingWheel.Node pollRecyclingFirst() {
        if (takeLock != 0 || !TAKE_LOCK.compareAndSet(this, 0, 1)) {
            return RETRY;
        }
        try {
            return pollLocked(true);
        } finally {
            TAKE_LOCK.setRelease(this, 0);
        }
    }

    /**
     * Vyukov's pop, under the consumers' turn, handing out a batch's timers one at a time: a batch at the head stays
     * there until its last timer is claimed, and only then is its node taken out, as a single timer's is (so
     * {@link #isEmpty} reads non-empty while any of its timers is left).
     */
    private TimingWheel.Node pollLocked(boolean recycleFirst) {
        TimingWheel.Node h = head;
        if (h == stub) {
            TimingWheel.Node n = (TimingWheel.Node) NEXT.getAcquire(h);
            if (n == null) {
                return tail == stub ? null : RETRY; // empty, or a push behind the stub not yet linked
            }
            HEAD.setRelease(this, n); // off the stub: isEmpty now reads non-empty until the last node is taken
            stub.next = null; // its link was seen; nobody writes it until the stub is pushed again (which clears it)
            h = n;
        }
        if (h instanceof HandOffBatch) {
            return pollBatch((HandOffBatch) h, recycleFirst);
        }
        TimingWheel.Node t = takeNode(h);
        if (t != RETRY) {
            TAKEN.setOpaque(this, taken + 1);
        }
        return t;
    }

    /**
     * Under the turn, with the batch {@code b} at the head: its next timer. Out of {@link #pollLocked}, so that the
     * path of a single timer (a task due now, an isolated fire) stays as small as it was for the compiler.
     */
    private TimingWheel.Node pollBatch(HandOffBatch b, boolean recycleFirst) {
        TimingWheel.Node h = b;
        int j = b.claimed;
        if (j + 1 < b.count) {
            return claim(b, j); // more left: the batch stays at the head
        }
        if (recycleFirst) {
            TimingWheel.Node last = claim(b, j); // BROKEN (jcstress only): back to the owner while still queued
            recycle(b);
            takeNode(h);
            return last;
        }
        if (takeNode(h) == RETRY) {
            return RETRY; // its last timer is claimed only once the node can leave (nothing claimed yet)
        }
        TimingWheel.Node last = claim(b, j);
        recycle(b); // after the take: the queue holds no reference to it, and no consumer will read it again
        return last;
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

    /** Under the turn: hands out the batch's timer {@code j} and clears its slot. */
    private TimingWheel.Node claim(HandOffBatch b, int j) {
        TimingWheel.Node t = b.items[j];
        b.items[j] = null;
        b.claimed = j + 1;
        TAKEN.setOpaque(this, taken + 1);
        Thread me = Thread.currentThread();
        if ((j & (TOUCH_AHEAD - 1)) == 0 && (j == 0 || b.lastTaker == me)) {
            touchAhead(b, j + 1);
        }
        b.lastTaker = me;
        return t;
    }

    /**
     * Loads the state words of the batch's timers {@code from} .. the end of the group, one after another with
     * nothing between them: their addresses come from the array, not from each other, so the waits for their lines
     * from the owner's core overlap instead of coming one per take (each take's CAS on the turn, a full fence, used
     * to wait for the one miss before it). Volatile loads, which the compiler keeps; summed into a plain field only
     * so that no load is dead.
     */
    private void touchAhead(HandOffBatch b, int from) {
        int end = Math.min(from + TOUCH_AHEAD - 1, b.count);
        int sum = 0;
        for (int k = from; k < end; k++) {
            TimingWheel.Node t = b.items[k];
            if (t instanceof ScheduledTimer) {
                sum += ((ScheduledTimer<?>) t).phase();
            }
        }
        touched = sum;
    }

    /**
     * The consumer that took an emptied batch's node out: resets it and, if it is one of the pooled ones, gives it
     * back to the owner (a CAS onto the free list: release; the owner's {@link #takeFreeBatches} acquires).
     */
    void recycle(HandOffBatch b) {
        b.count = 0;
        b.claimed = 0;
        b.lastTaker = null;
        if (!b.pooled) {
            return; // made beyond the pool's bound during a burst: left to the garbage collector
        }
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
     * Timers handed out so far (a batch's count once per timer claimed): the owner's watchdog reads it to see the
     * queue move, where the head stays the same batch for many takes. Written opaque by the consumer holding the turn,
     * read opaque: a count for a hint, ordering nothing.
     */
    long taken() {
        return (long) TAKEN.getOpaque(this);
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

    static {
        try {
            TAKE_LOCK = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "takeLock", int.class);
            HEAD = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "head", TimingWheel.Node.class);
            TAKEN = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "taken", long.class);
            FREE = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "freeBatches",
                    HandOffBatch.class);
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
    /** Nodes and batch timers handed out: see {@link HandOffQueue#taken()}. Opaque stores under the turn. */
    long taken;
    /** {@link HandOffQueue#touchAhead}'s sum, so that its loads are used; never read. Plain, under the turn. */
    int touched;
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

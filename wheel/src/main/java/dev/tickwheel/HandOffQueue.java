package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The pool's queue of timers handed off to run: FIFO, many producers, consumers one at a time, linked through the
 * timers themselves (their wheel node's {@code next} field, which is free while a timer is handed off), so a
 * hand-off allocates nothing and a whole batch costs what one timer costs.
 *
 * <h2>Why not a JCTools queue</h2>
 * JCTools' queues are arrays of references: handing off a batch of k timers stores k slots (and, in its MPMC
 * queues, claims k indexes), and every consumer claims its element with an atomic on an index the producers' lines
 * sit beside. Linked through the timers, the owner chains a step's due timers with plain stores into the timers
 * themselves (lines it has just written anyway) and publishes the chain with one atomic swap of {@link #tail} and
 * one release store: O(1) shared writes per batch, whatever its size. JCTools' own linked queues allocate a node
 * per element; none links intrusively.
 *
 * <h2>The algorithm</h2>
 * Dmitry Vyukov's intrusive MPSC queue, with a stub node: a producer clears the last node's link, swaps
 * {@link #tail} to it (getAndSet), then stores the old tail's {@code next} (release). The consumer follows
 * {@code next} from {@link #head}; when it would take the last node it first pushes the stub behind it, so the queue
 * never holds a reference to a node it has handed out (a periodic timer goes back into the wheel after its run, which
 * rewrites {@code next}). Between a producer's swap and its link the queue is briefly cut: {@link #poll} answers
 * {@link #RETRY}, never "empty", while that is so.
 *
 * <p>Consumers take turns through {@link #takeLock} (a CAS to acquire, a release store to let go), which is what
 * makes the single-consumer algorithm safe for the pool's workers and its hand-back: each consumer's plain accesses
 * to {@code head} and the links happen-before the next one's.
 *
 * <h2>Emptiness, for the wake-up handshake</h2>
 * {@link #isEmpty()} loads {@link #head} and then {@link #tail} (both volatile): empty when both are the stub. It
 * can answer "empty" while nodes are queued: between its two loads a consumer may move {@code head} off the stub,
 * take the last node and push the stub behind it while a producer's swap is not yet linked. It is safe for the
 * wake-up handshake because that consumer is awake and holds on: every consumer that moves {@code head} off the
 * stub keeps polling (RETRY, never giving up) until it hands a node out, and takes what follows; and a push that
 * {@code isEmpty} misses with no such consumer came after its tail load. A worker therefore announces that it parks
 * (an atomic on the idle stack), then calls {@code isEmpty}; a producer swaps the tail, then reads the idle stack:
 * one of the two sees the other, or an awake consumer takes the push (jcstress: HandOffVsPark).
 *
 * <p>Fields are padded apart: {@link #tail} is written by the producers, {@link #head} and {@link #takeLock} by the
 * consumers.
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
     * Any thread: takes the oldest node if this thread gets the consumers' turn at once.
     *
     * @return the node; null if the queue is empty; {@link #RETRY} if another consumer holds the turn or a producer
     *         is between its swap and its link (the caller tries again: something may be there)
     */
    TimingWheel.Node poll() {
        if (takeLock != 0 || !TAKE_LOCK.compareAndSet(this, 0, 1)) {
            return RETRY;
        }
        try {
            return pollLocked();
        } finally {
            TAKE_LOCK.setRelease(this, 0);
        }
    }

    /**
     * Takes the oldest node, waiting out another consumer's turn and a producer's cut: for the hand-back and the
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
        return pollLocked();
    }

    /** Vyukov's pop, under the consumers' turn. */
    private TimingWheel.Node pollLocked() {
        TimingWheel.Node h = head;
        TimingWheel.Node n = (TimingWheel.Node) NEXT.getAcquire(h);
        if (h == stub) {
            if (n == null) {
                return tail == stub ? null : RETRY; // empty, or a push behind the stub not yet linked
            }
            HEAD.setRelease(this, n); // off the stub: isEmpty now reads non-empty until the last node is taken
            stub.next = null; // its link was seen; nobody writes it until the stub is pushed again (which clears it)
            h = n;
            n = (TimingWheel.Node) NEXT.getAcquire(h);
        }
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

    static {
        try {
            TAKE_LOCK = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "takeLock", int.class);
            HEAD = MethodHandles.lookup().findVarHandle(HandOffQueueConsumerFields.class, "head", TimingWheel.Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The next node to hand out, or the stub. Written by the consumer holding the turn, by a release store (HEAD):
     * the next consumer acquires it through the turn's CAS, and the lock-free readers ({@link #isEmpty}, the owner's
     * watchdog) need only see it eventually, since no handshake orders a later load of the consumer against this
     * store (the park handshake's pair is the idle stack's atomic and the producers' swap of {@code tail}). A
     * volatile store here was a full fence per take; without it the miss on the taken timer's second line (its state
     * or task, for most 48-byte timers) may overlap the miss on its link. (Measured only together with the workers'
     * own end counts, in the expiry shot's medians; the profile did not resolve this store's share.) Read (volatile)
     * by isEmpty.
     */
    volatile TimingWheel.Node head;
    /** 1 while a consumer holds the turn. cas 0 -&gt; 1 to take it (acquire), release store of 0 to give it back. */
    volatile int takeLock;

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

package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A command queue's last resort that allocates nothing: commands chained through a field of their own timers, for
 * the commands whose timer has that field free. Many producers, one consumer (the owner), FIFO: Dmitry Vyukov's
 * intrusive MPSC queue, with a stub node that lets the last timer leave.
 *
 * <p>Why: a command that finds its queue's rings full goes into JCTools' linked chunks, about 4 bytes a command and a
 * new chunk per 1,024. A producer that outruns the owner for good (two producers at full speed against a wheel of a
 * million timers) or for a moment (the owner descheduled for a few milliseconds beside busy processes) then allocated
 * up to 8 bytes a schedule + cancel beyond the 48-byte timer. Chained through the timers, a backlog of any depth costs
 * no memory beyond the timers themselves. The price is the owner's walk (each timer's address is in the one before,
 * so its misses come one after another) and a line moved between cores per push: which commands pay it is
 * {@code CommandQueue#spillLending}'s policy.
 *
 * <p>Which field, and why it is free (each subclass says):
 * <ul>
 *   <li>{@link ThroughNext}, the start queue's: the node's {@code next}, which the wheel uses only once the owner links
 *   the timer, for a timer's first start only. Such a timer carries {@link TimerState#IN_START_CHAIN} from its push
 *   until the owner takes it, so that a move command that overtakes the start (in a ring, or the overflow) leaves the
 *   timer alone (linking it would overwrite its link here): the start then makes the move.</li>
 *   <li>{@link ThroughTask}, the cancel queue's: {@code taskOrOutcome}, which a cancel (or a revoke) before any run
 *   nulled, and which no thread reads as an outcome of a cancelled timer (a cancelAndAwait reads it only for a
 *   {@code Thread}).</li>
 * </ul>
 *
 * <h2>Concurrency</h2>
 * A push claims its place with an atomic add on {@link #pushes} (so that the owner's Dekker handshake, which compares
 * the indexes, counts it as in flight from then on: see {@link CommandQueue#isEmpty()}), swaps itself in as the
 * {@link #tail} (getAndSet), then links the timer it replaced to itself (a release store of that timer's field). The
 * owner follows the links from {@link #head} (acquire loads). A timer is handed out only once its own link is set, so
 * that nobody writes its field after the owner has it; the last timer leaves by putting the stub behind it (the owner's
 * own push). A producer between its swap and its link hides the timers after it until it links: the owner's poll then
 * returns null while the indexes say a command is in flight, as for a ring's claimed index whose element is not yet
 * stored. Costs per spilled command: two atomic read-modify-writes on this object's producer line, one release store
 * on the previous timer (a line another producer or the owner wrote), and no allocation; a start adds an atomic or on
 * its own timer's state word (its mark), and the owner an atomic and when it takes it.
 *
 * <p>Threading: {@link #push} from any thread, given the field is free; {@link #poll} from the owner only (or the one
 * thread that stands in for it); the index reads from any thread.
 */
abstract class TimerChain extends TimerChainConsumerFields {

    /** The stub: where the chain starts, and what the owner puts behind the last timer so that it can leave. */
    private final TimerState<?> stub;

    TimerChain() {
        this.stub = new Stub();
        this.head = stub;
        TAIL.set(this, stub); // published with the queue (final fields of its holder), as the next store
        OPEN.set(this, true);
    }

    /** @return the timer after {@code t} in the chain, or null (acquire) */
    abstract TimerState<?> linkOf(TimerState<?> t);

    /** Links {@code next} behind {@code t} (release: publishes what the pusher of {@code next} wrote before). */
    abstract void link(TimerState<?> t, TimerState<?> next);

    /** Gives the field back, empty (plain: the taker owns the timer's field from here). */
    abstract void unlink(TimerState<?> t);

    /** A push is about to use the field of a timer not yet published (plain). */
    void beforePush(TimerState<?> t) {
        // nothing by default
    }

    /** The owner took {@code t}, whose field is empty again. */
    void afterTake(TimerState<?> t) {
        // nothing by default
    }

    /** Any thread, given that nobody else uses the chain's field of {@code t} until the owner takes it. */
    final void push(TimerState<?> t) {
        beforePush(t);
        unlink(t); // plain: published by the release store that links it
        PUSHES.getAndAdd(this, 1L); // the claim, before the swap: the owner counts the command in flight from here
        TimerState<?> prev = (TimerState<?>) TAIL.getAndSet(this, t);
        link(prev, t);
    }

    /**
     * Owner: the first timer whose link is set, or null if there is none (a push may be in flight: see
     * {@link #isEmpty()}).
     */
    final TimerState<?> poll() {
        TimerState<?> h = head;
        TimerState<?> n = linkOf(h);
        if (h == stub) {
            if (n == null) {
                return null;
            }
            unlink(stub); // its link is set, so nobody writes it again: keep no taken timer reachable from it
            head = n;
            h = n;
            n = linkOf(n);
        }
        if (n != null) {
            head = n;
            return took(h);
        }
        if (h != TAIL.getVolatile(this)) {
            return null; // a push after h has swapped itself in and not yet linked h to it
        }
        // h is the last timer: the stub goes behind it, so that h can leave while the chain stays non-empty.
        unlink(stub);
        TimerState<?> prev = (TimerState<?>) TAIL.getAndSet(this, stub);
        link(prev, stub);
        n = linkOf(h); // the stub, or a timer pushed between the read of the tail and the swap
        if (n != null) {
            head = n;
            return took(h);
        }
        return null;
    }

    private TimerState<?> took(TimerState<?> t) {
        unlink(t); // nobody writes its link once it is set: the field is the owner's now
        afterTake(t);
        TAKEN.setRelease(this, (long) TAKEN.get(this) + 1); // so: read by other threads' index reads
        return t;
    }

    /** Any thread: whether every push claimed so far was taken (the taken count first, then the claims: lv both). */
    final boolean isEmpty() {
        long c = (long) TAKEN.getVolatile(this);
        return c == (long) PUSHES.getVolatile(this);
    }

    /**
     * Any thread: whether commands past the rings may come here (else they go into the overflow's chunks): a policy
     * hint, see {@code CommandQueue#spillLending} (opaque).
     */
    final boolean isOpen() {
        return (boolean) OPEN.getOpaque(this);
    }

    /** Opens or closes the chain to commands past the rings (opaque; written only when it changes). */
    final void open(boolean open) {
        if (isOpen() != open) {
            OPEN.setOpaque(this, open);
        }
    }

    /** Any thread: pushes claimed so far (lv). */
    final long pushes() {
        return (long) PUSHES.getVolatile(this);
    }

    /** Any thread: timers the owner took so far (lv). */
    final long taken() {
        return (long) TAKEN.getVolatile(this);
    }

    /** The start queue's chain, through {@code TimingWheel.Node.next} (see the class comment). */
    static final class ThroughNext extends TimerChain {
        private static final VarHandle NEXT;

        static {
            try {
                NEXT = MethodHandles.lookup().findVarHandle(TimingWheel.Node.class, "next", TimingWheel.Node.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @Override
        TimerState<?> linkOf(TimerState<?> t) {
            return (TimerState<?>) (TimingWheel.Node) NEXT.getAcquire((TimingWheel.Node) t);
        }

        @Override
        void link(TimerState<?> t, TimerState<?> next) {
            NEXT.setRelease((TimingWheel.Node) t, (TimingWheel.Node) next);
        }

        @Override
        void unlink(TimerState<?> t) {
            NEXT.set((TimingWheel.Node) t, (TimingWheel.Node) null);
        }

        @Override
        void beforePush(TimerState<?> t) {
            t.markInStartChain(); // plain, before the push publishes the timer
        }

        @Override
        void afterTake(TimerState<?> t) {
            t.clearInStartChain(); // an atomic and: reschedules and cancels CAS the same word meanwhile
        }
    }

    /** The cancel queue's chain, through {@code TimerState.taskOrOutcome} (see the class comment). */
    static final class ThroughTask extends TimerChain {
        @Override
        TimerState<?> linkOf(TimerState<?> t) {
            return (TimerState<?>) (Object) TimerState.TASK_OR_OUTCOME.getAcquire((TimerState<?>) t);
        }

        @Override
        void link(TimerState<?> t, TimerState<?> next) {
            TimerState.TASK_OR_OUTCOME.setRelease((TimerState<?>) t, (Object) next);
        }

        @Override
        void unlink(TimerState<?> t) {
            TimerState.TASK_OR_OUTCOME.set((TimerState<?>) t, (Object) null);
        }
    }

    /** The stub: never handed out, never run; a state of its own so that its fields exist. */
    private static final class Stub extends TimerState<Void> {
        Stub() {
            super(null, 0);
        }

        @Override
        boolean runInProgress() {
            return false;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return false;
        }
    }
}

/** Padding before the producers' line. */
abstract class TimerChainPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

/** The producers' fields: written by every push. */
abstract class TimerChainProducerFields extends TimerChainPad0 {
    static final VarHandle PUSHES;
    static final VarHandle TAIL;
    static final VarHandle OPEN;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PUSHES = lookup.findVarHandle(TimerChainProducerFields.class, "pushes", long.class);
            TAIL = lookup.findVarHandle(TimerChainProducerFields.class, "tail", TimerState.class);
            OPEN = lookup.findVarHandle(TimerChainProducerFields.class, "open", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Pushes claimed. getAndAdd by producers (their claim); volatile loads by the index reads. */
    @SuppressWarnings("unused") // accessed through PUSHES
    private volatile long pushes;
    /** The last timer pushed, or the stub. getAndSet by producers and by the owner (the stub); volatile loads. */
    @SuppressWarnings("unused") // accessed through TAIL
    private volatile TimerState<?> tail;
    /**
     * Whether commands past the rings may come here: true from construction, or set by the owner (see
     * CommandQueue#spillLending); read by spilling producers (opaque both: a policy hint; nothing depends on it for
     * correctness, since the owner drains the chain whatever it says).
     */
    @SuppressWarnings("unused") // accessed through OPEN
    private boolean open;
}

/** Padding between the producers' line and the owner's. */
abstract class TimerChainPad1 extends TimerChainProducerFields {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

/** The owner's fields: written by its polls. */
abstract class TimerChainConsumerFields extends TimerChainPad1 {
    static final VarHandle TAKEN;

    static {
        try {
            TAKEN = MethodHandles.lookup().findVarHandle(TimerChainConsumerFields.class, "taken", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The chain's first node (the stub, or a timer not yet handed out). Owner only (plain). */
    TimerState<?> head;
    /** Timers handed out. Written by the owner (release store, after its plain read); volatile loads by any thread. */
    volatile long taken;
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

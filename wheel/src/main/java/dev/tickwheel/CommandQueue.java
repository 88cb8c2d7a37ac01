package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.varhandle.MpscUnboundedVarHandleArrayQueue;
import org.jctools.queues.varhandle.MpscVarHandleArrayQueue;

/**
 * One of the two command queues (starts, cancels): many producers, one consumer (the owner), unbounded, and
 * allocation-free once it has grown to its usual backlog, built from JCTools' VarHandle queues (no
 * {@code sun.misc.Unsafe}).
 *
 * <p>Commands go into a fixed ring ({@link MpscVarHandleArrayQueue}: one CAS on its producer index per offer, no
 * allocation), allocated up front. A command that finds that ring full (the owner is behind by a whole ring) goes
 * into the next of a few more rings, which are allocated the first time a backlog reaches them and then kept for the
 * timer's life, so that the next backlog of that size allocates nothing: each doubles the room of the ones before it,
 * up to {@code maxRoom} commands in all (by default there is no spare ring). A command that finds every ring full goes
 * into the {@link TimerChain} if its timer can lend the chain's field ({@link #offerLending}: a cancel before any run
 * always; a new timer's start while the cancel queue's chain is in use, see {@link #spillLending}), which allocates
 * nothing however deep the backlog; any other (a move, a periodic timer's next period, an unlink after a run, a start
 * in a burst of starts alone) into the overflow
 * ({@link MpscUnboundedVarHandleArrayQueue}, linked chunks of {@link CommandPort#CHUNK}: a producer that finds the
 * current chunk full of commands the owner has not taken links a new one, garbage once drained). Why not one
 * pooled-chunk queue: JCTools' VarHandle family ({@code jctools-core-jdk11}) has none like the
 * {@code MpscUnboundedXaddArrayQueue} of its {@code Unsafe} family, and with its linked queue alone every backlog of
 * a chunk allocates one, about 4 bytes a command, 8 a schedule + cancel, past a timer's 48-byte budget.
 *
 * <p>Costs: an offer the first ring takes is one ring offer, as before the spare rings existed. While the first ring
 * is full, an offer first fails on it (three loads of its indexes, no write), then tries the spare ring the last
 * successful spill went to ({@link #spillHint}), and the spare rings after it. The hint keeps a deep backlog from
 * probing every full ring on every offer: once they are all full, spills go straight to the chain or the overflow
 * until the owner has emptied the first spare ring.
 *
 * <p>Order: each ring, the chain and the overflow is FIFO, but a command in a later place may be taken before or
 * after one in an earlier place. The owner's handling of commands does not depend on their order (a timer's start and
 * cancel already travel in different queues; a move command that overtakes its timer's start makes the start stale,
 * or, while the start waits in the chain, leaves the move to it: see {@code OwnerLoop.start}). A drain that runs out
 * of its limit starts the next drain at the ring after the one it stopped in, so that under a sustained backlog no
 * ring waits behind the first for good.
 *
 * <p>Indexes: {@link #producerIndex()} and {@link #isEmpty()} read every ring's slot in {@link #rings} (volatile
 * loads) and then each present ring's producer index, and the overflow's (volatile loads). Each offer claims its
 * index with an atomic RMW before it stores its element (a release), and a spare ring is installed with a CAS into
 * its slot before any offer into it. An offer that grows the overflow by a chunk claims with a CAS that makes the
 * overflow's raw producer index odd, and only after linking the chunk and storing its element publishes the next even
 * index (a release store): this class compares the raw indexes, so that odd claim counts as in flight too. (JCTools'
 * own {@code isEmpty} halves the indexes first and reads that claim as empty, on purpose, so that a producer that
 * runs out of memory mid-resize and rolls its claim back is never seen; here a rolled-back claim only keeps the owner
 * awake for a yield.) The owner's Dekker handshake in {@link CommandPort} relies on exactly that: a command whose
 * index is claimed counts as in flight even before its element is visible, and a ring installed after the owner read
 * its slot as empty was installed after the owner published its plan, so its producer reads that plan when it
 * re-checks after the offer. The chain's push claims its place by an atomic add on its push count before it links
 * anything, and {@link #isEmpty()} compares that count with the owner's (see {@link TimerChain}). Every command is in
 * exactly one ring, the chain or the overflow, so a sum of their producer indexes read after the slots counts at least
 * every offer that completed before the read began.
 *
 * <p>Threading: {@link #offer} from any thread; {@link #drain} and {@link #poll} from the owner only (or the one thread
 * that stands in for it, see {@link OwnerLoop}); the index reads from any thread.
 */
final class CommandQueue<E> {

    private static final VarHandle RINGS;
    private static final VarHandle SPILL_HINT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RINGS = MethodHandles.arrayElementVarHandle(MpscVarHandleArrayQueue[].class);
            SPILL_HINT = lookup.findVarHandle(CommandQueue.class, "spillHint", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The first ring, allocated up front; {@code rings[0]}, kept in a final field for the offer's fast path. */
    private final MpscVarHandleArrayQueue<E> first;
    /**
     * The rings: slot 0 is {@link #first}; slot k (k of at least 1) is null until a producer that found the rings
     * before it full installs it (CAS from null, volatile), then it stays. Slot k's ring holds {@code first}'s
     * capacity times 2^(k - 1), so the rings up to k hold {@code first}'s capacity times 2^k in all. Installed in order:
     * a producer only reaches slot k through slot k - 1 present and full, so the present slots are a prefix.
     */
    private final MpscVarHandleArrayQueue<E>[] rings;
    /** Where commands go while every ring is full: JCTools MPSC, unbounded (linked chunks). Final. */
    private final MpscUnboundedVarHandleArrayQueue<E> overflow;
    /**
     * Where a command whose timer lends its link field goes while every ring is full, instead of the overflow
     * ({@link #offerLending}): chained through the timers, no allocation. Null for a queue without one (tests of
     * the overflow alone). Final.
     */
    private final TimerChain chain;
    /**
     * The cancel queue whose flow opens {@link #chain} (the default start queue's; see {@link #spillLending}), or null:
     * the chain stays open. Final. A spilling producer reads its first ring's two indexes (volatile loads in JCTools):
     * a policy hint like the chain's flag, so a stale read only sends a start to the chunks instead of the chain or
     * back; every command still lands in exactly one place.
     */
    private final CommandQueue<?> followedCancels;
    /**
     * The chain the owner's side (drain, poll, the index reads) looks at: {@link #chain}, but for
     * {@link Flaw#BLIND_TO_CHAIN}. Final.
     */
    private final TimerChain ownerChain;
    /**
     * The spare ring (1 or more) the last spill went into, where the next spill starts probing; {@code rings.length}
     * once a spill found them all full (spills then go straight to the overflow). Opaque loads and stores: a hint
     * only, racing producers may overwrite each other's; a stale one only costs probes or sends a command to a later
     * ring or the overflow (each command still lands in exactly one place). The owner lowers it back to 1 when a
     * drain finds ring 1 empty, so that a backlog that has shrunk spills into the earliest spare ring again.
     */
    @SuppressWarnings("unused") // accessed through SPILL_HINT
    private int spillHint = 1;
    /**
     * Test seam (fault injection): runs before a spare ring is allocated, so that a test can throw the
     * OutOfMemoryError that allocation may throw. Null in the library. Plain: a test sets it before any offer.
     */
    Runnable beforeRingAllocation;
    /** Owner only (plain): the ring (or {@code ownerRings}: the overflow) the next drain starts at. */
    private int drainFrom;
    /**
     * How many rings the owner's side (drain, poll, and the index reads of the handshake) looks at: all of them, but
     * for {@link Flaw#BLIND_TO_SPARES}. Final.
     */
    private final int ownerRings;
    /** The deliberate flaw, for jcstress's broken variants ({@link Flaw#NONE} in the library). Final. */
    final Flaw flaw;
    /** Whether {@link #isEmpty()} asks JCTools' overflow itself: only for {@link Flaw#EMPTY_MID_RESIZE}. Final. */
    private final boolean halvedOverflowIndexes;

    /**
     * Deliberate flaws, for jcstress's broken variants only (each shows that its test sees the bug it names); the
     * library always builds {@link #NONE}.
     */
    enum Flaw {
        NONE,
        /** The owner's side looks at the first ring alone (and the overflow), as before the spare rings existed. */
        BLIND_TO_SPARES,
        /** {@link #isEmpty()} asks JCTools' overflow, which reads a producer's resize claim (odd index) as empty. */
        EMPTY_MID_RESIZE,
        /** The owner's side looks past the timer chain: it neither drains it nor counts its claims. */
        BLIND_TO_CHAIN,
        /** The owner moves a timer on a move command even while its start waits in the start chain. */
        MOVE_OVERTAKES_CHAIN
    }

    /** A queue whose whole room is {@code capacity}: one ring, no spare, no chain. */
    CommandQueue(int capacity) {
        this(capacity, capacity, CommandPort.CHUNK, null, null, Flaw.NONE);
    }

    CommandQueue(int firstCapacity, int maxRoom) {
        this(firstCapacity, maxRoom, CommandPort.CHUNK, null, null, Flaw.NONE);
    }

    /**
     * @param firstCapacity the first ring's capacity, a power of two of at least 2, allocated now
     * @param maxRoom the most commands the rings may hold in all, a power of two of at least {@code firstCapacity}:
     *                the spare rings that make up the difference are allocated when a backlog first reaches them
     * @param overflowChunk the overflow's chunk, a power of two of at least 2 ({@link CommandPort#CHUNK}; smaller only
     *                      in tests that hold the overflow at a chunk's end)
     * @param chain where {@link #offerLending} goes once the rings are full, or null (it then goes to the overflow)
     * @param followedCancels the cancel queue whose flow opens {@code chain} (the default start queue's), or null: it
     *                        stays open
     * @param flaw {@link Flaw#NONE}; another only for jcstress's deliberately broken variants
     */
    @SuppressWarnings("unchecked")
    CommandQueue(int firstCapacity, int maxRoom, int overflowChunk, TimerChain chain, CommandQueue<?> followedCancels,
                 Flaw flaw) {
        if (Integer.bitCount(firstCapacity) != 1 || firstCapacity < 2) {
            throw new IllegalArgumentException("the first ring's capacity " + firstCapacity
                    + " is not a power of two of at least 2");
        }
        if (Integer.bitCount(maxRoom) != 1 || maxRoom < firstCapacity) {
            throw new IllegalArgumentException("the rings' room " + maxRoom + " is not a power of two of at least "
                    + firstCapacity);
        }
        if (Integer.bitCount(overflowChunk) != 1 || overflowChunk < 2) {
            throw new IllegalArgumentException("the overflow's chunk " + overflowChunk
                    + " is not a power of two of at least 2");
        }
        int count = 1 + Integer.numberOfTrailingZeros(maxRoom / firstCapacity);
        this.rings = (MpscVarHandleArrayQueue<E>[]) new MpscVarHandleArrayQueue[count];
        this.first = new MpscVarHandleArrayQueue<>(firstCapacity);
        this.rings[0] = first; // published with the queue (final field rings)
        this.overflow = new MpscUnboundedVarHandleArrayQueue<>(overflowChunk);
        this.chain = chain;
        this.followedCancels = followedCancels;
        if (chain != null && followedCancels != null) {
            chain.open(false); // until cancels flow
        }
        this.ownerChain = flaw == Flaw.BLIND_TO_CHAIN ? null : chain;
        this.flaw = flaw;
        this.ownerRings = flaw == Flaw.BLIND_TO_SPARES ? 1 : count;
        this.halvedOverflowIndexes = flaw == Flaw.EMPTY_MID_RESIZE;
    }

    /** Any thread: queues a command; never fails but for an OutOfMemoryError allocating a spare ring or a chunk. */
    void offer(E e) {
        if (!first.offer(e)) {
            spill(e, false);
        }
    }

    /**
     * Any thread: queues a command whose timer lends this queue's chain the chain's link field (see
     * {@link TimerChain}): the caller guarantees that nobody else uses that field until the owner takes the command.
     * Past the rings it goes into the chain, which allocates nothing; without a chain, into the overflow.
     */
    void offerLending(E e) {
        if (!first.offer(e)) {
            spill(e, true);
        }
    }

    /**
     * The first ring is full: the spare rings from the hint on, then the overflow. A spill that finds every spare ring
     * full sets the hint past them, so that while they stay full the next spills go straight to the overflow.
     */
    private void spill(E e, boolean lends) {
        MpscVarHandleArrayQueue<E>[] rs = rings;
        int from = (int) SPILL_HINT.getOpaque(this);
        for (int k = from; k < rs.length; k++) {
            MpscVarHandleArrayQueue<E> r = ring(k);
            if (r.offer(e)) {
                if (k != from) {
                    SPILL_HINT.setOpaque(this, k);
                }
                return;
            }
        }
        if (from < rs.length) {
            SPILL_HINT.setOpaque(this, rs.length);
        }
        if (lends && chain != null) {
            spillLending((TimerState<?>) e);
        } else {
            overflow.offer(e);
        }
    }

    /**
     * Past the rings, a command that lends its timer's field: into the chain while cancels flow, else into the
     * overflow. For the default start queue, cancels flow while the owner has taken some within the last reap period
     * (the chain's flag, {@link #openChainIf}), or while commands wait in the cancel queue's first ring now (its two
     * indexes: a producer that spills during an owner's stall sees its own load's cancels there, though the owner's
     * flag may have closed for want of them during the stall). In a burst of starts alone nobody writes those two
     * lines, so the look reads lines the producer's cache holds.
     *
     * <p>Why the default start queue's chain is open only while cancels flow: the
     * chain allocates nothing but makes the owner's walk one cache miss after another (each link is in the timer
     * before), and a push moves a line between cores where an array's slots share one per 16 commands. A burst of
     * starts alone (a mass expiry) overruns the ring by hundreds of thousands of commands, which the owner absorbs
     * within the burst; there the overflow's garbage chunks cost less than the chain's misses (session 35: the
     * one-producer expiry shot 16% slower with every spilled start chained; session 36: with two producers 18% slower,
     * as each push's link lands in the timer the other producer pushed). Starts and cancels flowing together are
     * the steady load a server puts on the timer (most timers are cancelled before they fire), where a backlog lasts as
     * long as the owner is behind: there both queues chain, and neither allocates. The cancel queue's chain is always
     * open.
     */
    private void spillLending(TimerState<?> t) {
        if (chain.isOpen() || (followedCancels != null && !followedCancels.first.isEmpty())) {
            chain.push(t);
        } else {
            @SuppressWarnings("unchecked")
            E e = (E) t;
            overflow.offer(e);
        }
    }

    /**
     * Owner, after each step's drain of the cancel queue: opens this queue's chain while cancels flow (the owner took
     * some within the last reap period, see {@code OwnerLoop#step}), else closes it; nothing for a queue whose chain
     * does not follow the cancels (a write only when it changes).
     */
    void openChainIf(boolean cancelsFlow) {
        if (followedCancels != null) {
            chain.open(cancelsFlow);
        }
    }

    /** Spare ring k, installed now if it is not yet (whoever wins the CAS, every caller gets the same ring). */
    @SuppressWarnings("unchecked")
    private MpscVarHandleArrayQueue<E> ring(int k) {
        MpscVarHandleArrayQueue<E> r = (MpscVarHandleArrayQueue<E>) RINGS.getVolatile(rings, k);
        if (r == null) {
            Runnable hook = beforeRingAllocation;
            if (hook != null) {
                hook.run();
            }
            MpscVarHandleArrayQueue<E> made = new MpscVarHandleArrayQueue<>(first.capacity() << (k - 1));
            MpscVarHandleArrayQueue<E> witness =
                    (MpscVarHandleArrayQueue<E>) RINGS.compareAndExchange(rings, k, null, made);
            r = witness == null ? made : witness;
        }
        return r;
    }

    /** Any thread: ring k if it is installed (volatile load), else null. */
    @SuppressWarnings("unchecked")
    private MpscVarHandleArrayQueue<E> installed(int k) {
        return (MpscVarHandleArrayQueue<E>) RINGS.getVolatile(rings, k);
    }

    /**
     * Owner: hands up to {@code limit} commands to {@code c}, ring by ring, then the overflow's, then the chain's,
     * starting where the last drain that ran out of its limit stopped. Stops early in a ring at a command whose index
     * is claimed and whose element is not yet stored (see {@link #isEmpty()}), and in the chain at a push between its
     * swap and its link, and goes on to the next.
     *
     * @return how many were handed over
     */
    @SuppressWarnings("unchecked")
    int drain(MessagePassingQueue.Consumer<E> c, int limit) {
        int last = ownerRings; // the overflow's place; the chain's is after it
        int places = last + 2;
        int n = 0;
        int at = drainFrom;
        for (int i = 0; i < places; i++, at = at + 1 == places ? 0 : at + 1) {
            int want = limit - n;
            int got;
            if (at == last) {
                got = overflow.drain(c, want);
            } else if (at == last + 1) {
                got = 0;
                TimerChain ch = ownerChain;
                if (ch != null) {
                    for (TimerState<?> t; got < want && (t = ch.poll()) != null; got++) {
                        c.accept((E) t);
                    }
                }
            } else {
                MpscVarHandleArrayQueue<E> r = installed(at);
                if (r == null) {
                    at = last - 1; // the present rings are a prefix: on to the overflow
                    continue;
                }
                got = r.drain(c, want);
                if (at == 1 && got < want) {
                    lowerSpillHint();
                }
            }
            n += got;
            if (n == limit) {
                drainFrom = at + 1 == places ? 0 : at + 1;
                return n;
            }
        }
        drainFrom = 0;
        return n;
    }

    /** Owner: ring 1 ran dry, so the next spill should start there again (opaque; only if it is not already). */
    private void lowerSpillHint() {
        if ((int) SPILL_HINT.getOpaque(this) != 1) {
            SPILL_HINT.setOpaque(this, 1);
        }
    }

    /**
     * Owner: the next command, or null if none has its index claimed; waits out a producer between its index claim
     * and its element store (unlike {@link #drain}), so a loop of polls strands nothing. The rings' poll waits by
     * itself; JCTools' overflow poll returns null while a producer links a new chunk (it reads the odd claim as
     * empty, as its isEmpty does), so this spins until the claim is published (or rolled back, on an
     * OutOfMemoryError) and polls again.
     */
    @SuppressWarnings("unchecked")
    E poll() {
        for (int k = 0; k < ownerRings; k++) {
            MpscVarHandleArrayQueue<E> r = installed(k);
            if (r == null) {
                break;
            }
            E e = r.poll();
            if (e != null) {
                return e;
            }
        }
        E e = overflow.poll();
        while (e == null && !overflowEmpty(overflow.lvConsumerIndex(), overflow.lvProducerIndex())) {
            Thread.onSpinWait(); // a resize claim: the element is linked and the index published within the offer
            e = overflow.poll();
        }
        TimerChain ch = ownerChain;
        if (e == null && ch != null) {
            e = (E) ch.poll();
            while (e == null && !ch.isEmpty()) {
                Thread.onSpinWait(); // a push between its claim and its link: it links within the offer
                e = (E) ch.poll();
            }
        }
        return e;
    }

    /**
     * Any thread: whether no command has its index claimed and not yet taken: the ring slots (volatile loads), then
     * each present ring's indexes, then the overflow's raw indexes (volatile loads, the consumer's first), whose
     * odd producer index while a producer links a new chunk counts as a claim (see the class comment).
     */
    boolean isEmpty() {
        for (int k = 0; k < ownerRings; k++) {
            MpscVarHandleArrayQueue<E> r = installed(k);
            if (r == null) {
                break;
            }
            if (!r.isEmpty()) {
                return false;
            }
        }
        if (ownerChain != null && !ownerChain.isEmpty()) {
            return false;
        }
        if (halvedOverflowIndexes) {
            return overflow.isEmpty(); // the broken variant: (c - p) / 2 == 0, true for p = c + 1
        }
        long c = overflow.lvConsumerIndex();
        return overflowEmpty(c, overflow.lvProducerIndex());
    }

    /**
     * Whether the overflow holds no claim, from its raw indexes (consumer read first): JCTools adds 2 a command to
     * each, and a producer linking a new chunk holds the producer index at an odd value (its claim) until it
     * publishes the next even one, so only equal indexes mean empty.
     */
    static boolean overflowEmpty(long consumerIndex, long producerIndex) {
        return consumerIndex == producerIndex;
    }

    /** Any thread: commands ever offered (index claims), at least every offer completed before the call. */
    long producerIndex() {
        long sum = first.currentProducerIndex();
        for (int k = 1; k < ownerRings; k++) {
            MpscVarHandleArrayQueue<E> r = installed(k);
            if (r == null) {
                break;
            }
            sum += r.currentProducerIndex();
        }
        return sum + overflowClaims() + (ownerChain == null ? 0 : ownerChain.pushes());
    }

    /** Any thread: the overflow's claimed commands: its raw producer index halved, rounding a resize claim up. */
    private long overflowClaims() {
        long p = overflow.lvProducerIndex();
        return (p + 1) >> 1;
    }

    /** Owner (or a reader that tolerates staleness): commands taken so far. */
    long consumerIndex() {
        long sum = first.currentConsumerIndex();
        for (int k = 1; k < ownerRings; k++) {
            MpscVarHandleArrayQueue<E> r = installed(k);
            if (r == null) {
                break;
            }
            sum += r.currentConsumerIndex();
        }
        return sum + overflow.currentConsumerIndex() + (ownerChain == null ? 0 : ownerChain.taken());
    }

    /**
     * Test seam: the first ring's fill, which claims the indexes first and then stores what the supplier returns, so
     * a test can hold a producer between its index claim and its element store.
     */
    int fill(MessagePassingQueue.Supplier<E> s, int limit) {
        return first.fill(s, limit);
    }

    /** @return the first ring's capacity */
    int capacity() {
        return first.capacity();
    }

    /** Any thread: how many commands the installed rings hold at most (volatile loads of the slots). */
    long room() {
        long sum = 0;
        for (int k = 0; k < rings.length; k++) {
            MpscVarHandleArrayQueue<E> r = installed(k);
            if (r == null) {
                break;
            }
            sum += r.capacity();
        }
        return sum;
    }

    /**
     * Any thread: commands that went past the rings since creation, into the overflow or the chain (their producer
     * indexes, volatile loads).
     */
    long spills() {
        return overflowClaims() + chainPushes();
    }

    /** Any thread: commands that went into the chain since creation (0 without one). */
    long chainPushes() {
        return chain == null ? 0 : chain.pushes();
    }

    /** @return how many rings are installed (1 up to the most the room allows), for tests and metrics */
    int installedRings() {
        int n = 0;
        while (n < rings.length && installed(n) != null) {
            n++;
        }
        return n;
    }

    /** @return the most rings this queue may install */
    int maxRings() {
        return rings.length;
    }
}

package dev.tickwheel;

import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.varhandle.MpscUnboundedVarHandleArrayQueue;
import org.jctools.queues.varhandle.MpscVarHandleArrayQueue;

/**
 * One of the two command queues (starts, cancels): many producers, one consumer (the owner), unbounded, and
 * allocation-free in the steady state, built from two of JCTools' VarHandle queues (no {@code sun.misc.Unsafe}).
 *
 * <p>Commands go into a fixed ring ({@link MpscVarHandleArrayQueue}: one CAS on its producer index per offer, no
 * allocation); a command that finds the ring full (the owner is behind by a whole ring) goes into an overflow
 * ({@link MpscUnboundedVarHandleArrayQueue}, linked chunks of {@link CommandPort#CHUNK}, which allocates a chunk per
 * chunk of overflowing commands). Why two: JCTools' VarHandle family ({@code jctools-core-jdk11}) has no pooled-chunk
 * queue like the {@code MpscUnboundedXaddArrayQueue} of its {@code Unsafe} family, and its linked queues allocate a
 * chunk every {@code CHUNK} offers even when the owner keeps up: 4 bytes a command, 8 a schedule + cancel, which
 * would take a timer past its 48-byte budget. The ring keeps the common case at zero.
 *
 * <p>Order: each of the two queues is FIFO, but a command in the overflow may be taken after a later one in the
 * ring. The owner's handling of commands does not depend on their order (a timer's start and cancel already travel
 * in different queues; a move command that overtakes its timer's start makes the start stale, see
 * {@code OwnerLoop.start}).
 *
 * <p>Indexes: {@link #producerIndex()} and {@link #isEmpty()} read both queues' producer indexes (volatile loads),
 * which each offer claims with an atomic RMW before it stores its element (a release). The owner's Dekker handshake
 * in {@link CommandPort} relies on exactly that: a command whose index is claimed counts as in flight even before
 * its element is visible. Every command is in exactly one of the two, so a sum read ring first counts at least every
 * offer that completed before the read began.
 *
 * <p>Threading: {@link #offer} from any thread; {@link #drain} and {@link #poll} from the owner only (or the one thread
 * that stands in for it, see {@link OwnerLoop}); the index reads from any thread.
 */
final class CommandQueue<E> {

    /** The ring: JCTools MPSC, bounded. Final. */
    private final MpscVarHandleArrayQueue<E> ring;
    /** Where commands go while the ring is full: JCTools MPSC, unbounded (linked chunks). Final. */
    private final MpscUnboundedVarHandleArrayQueue<E> overflow;

    /** @param capacity the ring's capacity, a power of two of at least 2 */
    CommandQueue(int capacity) {
        this.ring = new MpscVarHandleArrayQueue<>(capacity);
        this.overflow = new MpscUnboundedVarHandleArrayQueue<>(CommandPort.CHUNK);
    }

    /** Any thread: queues a command; never fails. */
    void offer(E e) {
        if (!ring.offer(e)) {
            overflow.offer(e);
        }
    }

    /**
     * Owner: hands up to {@code limit} commands to {@code c}, the ring's first. Stops early at a command whose index
     * is claimed and whose element is not yet stored (see {@link #isEmpty()}).
     *
     * @return how many were handed over
     */
    int drain(MessagePassingQueue.Consumer<E> c, int limit) {
        int n = ring.drain(c, limit);
        if (n < limit) {
            n += overflow.drain(c, limit - n);
        }
        return n;
    }

    /**
     * Owner: the next command, or null if none has its index claimed; waits out a producer between its index claim
     * and its element store (unlike {@link #drain}), so a loop of polls strands nothing.
     */
    E poll() {
        E e = ring.poll();
        return e != null ? e : overflow.poll();
    }

    /** Any thread: whether no command has its index claimed and not yet taken (volatile loads of both indexes). */
    boolean isEmpty() {
        return ring.isEmpty() && overflow.isEmpty();
    }

    /** Any thread: commands ever offered (index claims), at least every offer completed before the call. */
    long producerIndex() {
        long r = ring.currentProducerIndex();
        return r + overflow.currentProducerIndex();
    }

    /** Owner (or a reader that tolerates staleness): commands taken so far. */
    long consumerIndex() {
        return ring.currentConsumerIndex() + overflow.currentConsumerIndex();
    }

    /**
     * Test seam: the ring's fill, which claims the indexes first and then stores what the supplier returns, so a test
     * can hold a producer between its index claim and its element store.
     */
    int fill(MessagePassingQueue.Supplier<E> s, int limit) {
        return ring.fill(s, limit);
    }

    /** @return the ring's capacity */
    int capacity() {
        return ring.capacity();
    }
}

package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The command queue's parts (issue 22, and issue 23's spare rings): a JCTools VarHandle ring, spare rings installed when
 * a backlog first reaches them and kept, and, once every ring is full, a linked overflow. Every command offered is
 * taken exactly once, the indexes the owner's handshake reads count every part, and emptiness covers every part.
 */
class CommandQueueTest {

    @Test
    void commandsBeyondTheRingGoToTheOverflowAndAreAllTakenOnce() {
        CommandQueue<Integer> q = new CommandQueue<>(16);
        assertTrue(q.isEmpty());
        int n = 10_000; // the ring holds 16: the rest spills, across several overflow chunks
        for (int i = 0; i < n; i++) {
            q.offer(i);
        }
        assertFalse(q.isEmpty());
        assertEquals(n, q.producerIndex(), "every offer counted, ring and overflow");
        BitSet seen = new BitSet(n);
        List<Integer> order = new ArrayList<>();
        int drained = q.drain(e -> {
            assertFalse(seen.get(e), "taken twice: " + e);
            seen.set(e);
            order.add(e);
        }, 100);
        assertEquals(100, drained, "a drain is bounded");
        for (Integer e; (e = q.poll()) != null; ) {
            assertFalse(seen.get(e), "taken twice: " + e);
            seen.set(e);
            order.add(e);
        }
        assertEquals(n, seen.cardinality(), "every command taken");
        assertTrue(q.isEmpty());
        assertEquals(n, q.consumerIndex());
        for (int i = 0; i < 16; i++) {
            assertEquals(i, order.get(i), "the ring's commands first, in order");
        }
        for (int i = 16; i < n; i++) {
            assertEquals(i, order.get(i), "then the overflow's, in order");
        }
        assertNull(q.poll());
    }

    @Test
    void manyProducersAgainstOneConsumerLoseNothingThroughASmallRing() throws Exception {
        manyProducersAgainstOneConsumerLoseNothing(new CommandQueue<>(64), 1_000);
    }

    @Test
    void aBacklogFillsTheSpareRingsInOrderThenTheOverflowAndTheRingsAreKept() {
        CommandQueue<Integer> q = new CommandQueue<>(16, 64); // rings of 16, 16 and 32: 64 in all
        assertEquals(3, q.maxRings());
        assertEquals(1, q.installedRings(), "only the first ring up front");
        assertEquals(16, q.room());
        int n = 100; // 64 in the rings, 36 in the overflow
        for (int i = 0; i < n; i++) {
            q.offer(i);
            assertEquals(i + 1, q.producerIndex(), "every offer counted, wherever it went");
        }
        assertEquals(3, q.installedRings());
        assertEquals(64, q.room());
        assertEquals(36, q.spills(), "only what found every ring full");
        List<Integer> order = new ArrayList<>();
        assertEquals(n, q.drain(order::add, 1_000));
        assertTrue(q.isEmpty());
        assertEquals(n, q.consumerIndex());
        for (int i = 0; i < n; i++) {
            assertEquals(i, order.get(i), "the first ring's, then each spare ring's, then the overflow's, in order");
        }
        for (int i = 0; i < 64; i++) { // the same backlog again: the kept rings take it, no ring is added
            q.offer(i);
        }
        assertEquals(3, q.installedRings());
        assertEquals(36, q.spills(), "the kept rings took the second backlog");
        assertEquals(n + 64, q.producerIndex());
        assertFalse(q.isEmpty());
        int taken = 0;
        for (Integer e; (e = q.poll()) != null; ) {
            assertEquals(taken++, e, "polls walk the rings in order");
        }
        assertEquals(64, taken);
        assertTrue(q.isEmpty());
    }

    @Test
    void aCommandInTheLastSpareRingAloneKeepsTheQueueNonEmpty() {
        CommandQueue<Integer> q = new CommandQueue<>(2, 8); // rings of 2, 2 and 4
        for (int i = 0; i < 8; i++) {
            q.offer(i);
        }
        List<Integer> taken = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            taken.add(q.poll());
        }
        assertFalse(q.isEmpty(), "the last ring still holds one command");
        assertEquals(7, q.consumerIndex());
        assertEquals(7, q.poll());
        assertTrue(q.isEmpty());
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), taken);
    }

    @Test
    void aDrainThatRunsOutOfItsLimitStartsTheNextAtTheRingAfter() {
        CommandQueue<Integer> q = new CommandQueue<>(4, 8); // rings of 4 and 4
        for (int i = 0; i < 8; i++) {
            q.offer(i); // 0-3 in the first ring, 4-7 in the spare
        }
        List<Integer> order = new ArrayList<>();
        assertEquals(2, q.drain(order::add, 2), "stops in the first ring");
        for (int i = 8; i < 10; i++) {
            q.offer(i); // refills the first ring: a producer that keeps it full must not starve the spare
        }
        assertEquals(3, q.drain(order::add, 3), "starts at the spare ring");
        assertEquals(List.of(0, 1, 4, 5, 6), order);
        assertEquals(5, q.drain(order::add, 100), "then the rest: round from the ring after the spare, to it");
        assertEquals(List.of(0, 1, 4, 5, 6, 2, 3, 8, 9, 7), order);
        assertTrue(q.isEmpty());
    }

    @Test
    void theSpillHintFollowsTheBacklogDownWhenTheFirstSpareRingEmpties() {
        CommandQueue<Integer> q = new CommandQueue<>(2, 16); // rings of 2, 2, 4 and 8
        for (int i = 0; i < 16; i++) {
            q.offer(i); // the hint is at the last spare ring now
        }
        assertEquals(16, q.drain(e -> { }, 100)); // every ring drained: ring 1 found dry, the hint back at 1
        for (int i = 0; i < 4; i++) {
            q.offer(i); // two in the first ring, two in the first spare ring (not the last one)
        }
        List<Integer> order = new ArrayList<>();
        assertEquals(2, q.drain(order::add, 2));
        assertEquals(List.of(0, 1), order);
        assertEquals(1, q.drain(order::add, 1));
        assertEquals(2, order.get(2), "the next one comes from ring 1: the spill went there, not to ring 3");
    }

    @Test
    void onceEverySpareRingIsFullSpillsGoStraightToTheOverflowUntilTheFirstSpareRingRunsDry() {
        CommandQueue<Integer> q = new CommandQueue<>(2, 4); // rings of 2 and 2
        for (int i = 0; i < 6; i++) {
            q.offer(i); // 0-1 in the first ring, 2-3 in the spare, 4-5 in the overflow
        }
        assertEquals(2, q.spills());
        List<Integer> order = new ArrayList<>();
        assertEquals(3, q.drain(order::add, 3)); // 0, 1, then 2: the spare ring has room again, but is not dry
        q.offer(6);
        q.offer(7); // the first ring again
        q.offer(8); // the first ring full: the hint says every spare ring was full, so the overflow, not a probe
        assertEquals(3, q.spills());
        assertEquals(6, q.drain(order::add, 100)); // the spare ring runs dry: the hint goes back to it
        assertEquals(List.of(0, 1, 2, 4, 5, 8, 6, 7, 3), order);
        for (int i = 9; i < 13; i++) {
            q.offer(i); // two in the first ring, two in the spare one
        }
        assertEquals(3, q.spills(), "the spare ring is used again");
        assertEquals(4, q.drain(e -> { }, 100));
        assertTrue(q.isEmpty());
    }

    @Test
    void rejectsRoomThatIsNotAPowerOfTwoOrLessThanTheFirstRing() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new CommandQueue<Integer>(16, 48));
        assertTrue(e.getMessage().contains("48"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new CommandQueue<Integer>(16, 8));
        assertTrue(e.getMessage().contains("8"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new CommandQueue<Integer>(12, 64));
        assertTrue(e.getMessage().contains("12"), e.getMessage());
    }

    @Test
    void aProducerLinkingANewOverflowChunkCountsAsAClaim() {
        // JCTools' raw indexes: 2 a command; a producer mid-resize holds the producer index odd (claimed, not
        // published). Its own isEmpty halves both first and reads (2, 3) as empty; the owner's handshake must not.
        assertTrue(CommandQueue.overflowEmpty(4, 4));
        assertFalse(CommandQueue.overflowEmpty(4, 5), "a resize claim after every command was taken");
        assertFalse(CommandQueue.overflowEmpty(4, 6));
        assertFalse(CommandQueue.overflowEmpty(2, 5), "a resize claim behind a command not yet taken");
    }

    @Test
    void theOverflowsChunksOfTwoResizeOnEveryOfferAfterTheFirstAndCountEveryCommand() {
        CommandQueue<Integer> q = new CommandQueue<>(2, 2, 2, null, null, CommandQueue.Flaw.NONE);
        for (int i = 0; i < 10; i++) {
            q.offer(i); // 2 into the ring, then one a chunk: each later offer links a new chunk
        }
        assertEquals(10, q.producerIndex());
        assertEquals(8, q.spills());
        List<Integer> order = new ArrayList<>();
        assertEquals(10, q.drain(order::add, 100));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), order);
        assertTrue(q.isEmpty());
        assertEquals(10, q.consumerIndex());
    }

    @Test
    void rejectsAnOverflowChunkThatIsNotAPowerOfTwoOfAtLeastTwo() {
        for (int bad : new int[] {0, 1, 3, 24}) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> new CommandQueue<Integer>(2, 2, bad, null, null, CommandQueue.Flaw.NONE));
            assertTrue(e.getMessage().contains("overflow's chunk " + bad), e.getMessage());
        }
    }

    @Test
    void manyProducersAgainstOneConsumerLoseNothingThroughOverflowResizes() throws Exception {
        // One ring of 2 and chunks of 2: nearly every command goes through the overflow, most offers link a chunk.
        manyProducersAgainstOneConsumerLoseNothing(new CommandQueue<>(2, 2, 2, null, null, CommandQueue.Flaw.NONE), 100);
    }

    @Test
    void manyProducersAgainstOneConsumerLoseNothingThroughSpareRings() throws Exception {
        manyProducersAgainstOneConsumerLoseNothing(new CommandQueue<>(64, 1024), 100);
    }

    /** Four producers offer 50,000 commands each while this thread drains: each taken once, the indexes agree. */
    private static void manyProducersAgainstOneConsumerLoseNothing(CommandQueue<Integer> q, int drainLimit)
            throws Exception {
        int producers = 4;
        int each = 50_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = p * each;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (int i = 0; i < each; i++) {
                    q.offer(base + i);
                }
            }, "command-queue-producer-" + p);
            threads.add(t);
            t.start();
        }
        BitSet seen = new BitSet(producers * each);
        int[] taken = {0};
        go.countDown();
        while (taken[0] < producers * each) {
            q.drain(e -> {
                assertFalse(seen.get(e), "taken twice: " + e);
                seen.set(e);
                taken[0]++;
            }, drainLimit);
            if (q.isEmpty()) {
                Thread.onSpinWait();
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(producers * each, seen.cardinality());
        assertTrue(q.isEmpty());
        assertEquals(producers * each, q.producerIndex());
        assertEquals(producers * each, q.consumerIndex());
    }
}

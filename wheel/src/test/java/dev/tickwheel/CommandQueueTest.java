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
 * The command queue's two halves (issue 22): a JCTools VarHandle ring and, once it is full, a linked overflow. Every
 * command offered is taken exactly once, the indexes the owner's handshake reads count both halves, and emptiness
 * covers both.
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
        CommandQueue<Integer> q = new CommandQueue<>(64);
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
            }, 1_000);
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
    }
}

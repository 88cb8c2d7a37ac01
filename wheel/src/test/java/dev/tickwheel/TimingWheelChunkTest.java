package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The slots' chunks: a removed element leaves a hole that walks skip, a slot compacts itself in place when half of it
 * is holes, emptied slots give their chunks back to the wheel, and none of that changes what the wheel hands out or in
 * which order (key order, and insertion order among equal keys). The invariant checker runs after every phase: it
 * checks each slot's range, that every element knows its slot and index, that no entry outside a slot's range holds
 * anything, and that the free chunks are empty and within twice the wheel's high.
 */
class TimingWheelChunkTest {

    static final class E extends TimingWheel.Node {
        final int seq;

        E(int seq) {
            this.seq = seq;
        }
    }

    @Test
    void removalsLeaveHolesThatWalksSkip_andACompactionKeepsInsertionOrder() {
        TimingWheel<E> wheel = new TimingWheel<>();
        long key = 1L << 13; // level 2 of the default wheel: the slot cascades twice before it expires
        List<E> all = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            E e = new E(i);
            all.add(e);
            wheel.add(e, key);
        }
        List<E> kept = new ArrayList<>();
        for (E e : all) {
            if (e.seq < 300 || e.seq % 2 == 1) {
                assertTrue(wheel.remove(e)); // the first 300 and every even one after: holes at the front and inside
            } else {
                kept.add(e);
            }
        }
        wheel.checkInvariants();
        for (int i = 1000; i < 1500; i++) { // crossing chunk boundaries with 650 holes of 1000: compacts
            E e = new E(i);
            kept.add(e);
            wheel.add(e, key);
        }
        wheel.checkInvariants();
        assertEquals(kept.size(), wheel.size());
        List<E> out = new ArrayList<>();
        wheel.increaseMinAllowedKey(key + 1, out::add);
        assertEquals(kept, out, "insertion order among equal keys, through the holes, the compaction and two cascades");
        wheel.checkInvariants();
        assertTrue(wheel.isEmpty());
    }

    @Test
    void removingFromEitherEndOfASlot_movesItsRange_andTheLastRemovalEmptiesIt() {
        TimingWheel<E> wheel = new TimingWheel<>();
        List<E> all = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            E e = new E(i);
            all.add(e);
            wheel.add(e, 40); // level 0: one slot, one key
        }
        for (int i = 0; i < 100; i++) {
            assertTrue(wheel.remove(all.get(i % 2 == 0 ? i / 2 : 199 - i / 2)));
            wheel.checkInvariants();
        }
        assertEquals(50, wheel.minElement().seq, "the first element left");
        for (int i = 50; i < 150; i++) {
            assertTrue(wheel.remove(all.get(i)));
        }
        wheel.checkInvariants();
        assertTrue(wheel.isEmpty());
        assertEquals(Long.MAX_VALUE, wheel.minKeyOrNextEvent(8), "the emptied slot's bit is clear");
        assertFalse(wheel.remove(all.get(0)));
    }

    @Test
    void aHandlerAddingToTheSlotItExpires_compactsIt_andItsElementsAreHandedOutInOrderByTheSameCall() {
        TimingWheel<E> wheel = new TimingWheel<>();
        List<E> all = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            E e = new E(i);
            all.add(e);
            wheel.add(e, 30);
        }
        List<E> expected = new ArrayList<>();
        for (E e : all) {
            if (e.seq % 4 == 0) {
                expected.add(e);
            } else {
                wheel.remove(e); // 150 holes of 200
            }
        }
        List<E> added = new ArrayList<>();
        for (int i = 200; i < 300; i++) {
            added.add(new E(i));
        }
        expected.addAll(added);
        List<E> out = new ArrayList<>();
        wheel.increaseMinAllowedKey(31, e -> {
            out.add(e);
            if (out.size() == 1) {
                for (E a : added) {
                    wheel.add(a, 30); // the current key: its slot is the one being expired; the end crosses a chunk
                }
                wheel.checkInvariants();
            }
        });
        assertEquals(expected, out);
        wheel.checkInvariants();
    }

    @Test
    void aCascadeOfACrowdedSlotWithHoles_handsOutInKeyOrderThenInsertionOrder() {
        TimingWheel<E> wheel = new TimingWheel<>();
        SplittableRandom random = new SplittableRandom(23);
        List<E> kept = new ArrayList<>();
        List<E> all = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            E e = new E(i);
            all.add(e);
            wheel.add(e, (1L << 18) + random.nextInt(1 << 12)); // a few slots of level 2 and 3, many equal keys
        }
        for (E e : all) {
            if (random.nextInt(10) < 3) {
                wheel.remove(e);
            } else {
                kept.add(e);
            }
        }
        wheel.checkInvariants();
        kept.sort(Comparator.comparingLong(E::key).thenComparingInt(e -> e.seq));
        List<E> out = new ArrayList<>();
        long target = (1L << 18) + (1 << 12);
        for (long k = 1; k <= target; k += 97) { // many small advances: cascades and expiries interleave
            wheel.increaseMinAllowedKey(k, out::add);
        }
        wheel.increaseMinAllowedKey(target, out::add);
        assertEquals(kept, out);
        wheel.checkInvariants();
    }

    @Test
    void emptiedSlotsGiveTheirChunksBack_withinTwiceTheHigh_soAWarmWheelAllocatesNoArray() {
        TimingWheel<E> wheel = new TimingWheel<>();
        int n = 100_000;
        E[] nodes = new E[n];
        long[] keys = new long[n];
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < n; i++) {
            nodes[i] = new E(i);
            keys[i] = random.nextInt(100_000);
        }
        long base = fillAndDrain(wheel, nodes, keys, 0); // first load: the chunks are allocated
        assertEquals(n, wheel.peakSize());
        assertTrue(wheel.freeEntries() > 0, "the drained slots gave chunks back");
        assertTrue(wheel.freeEntries() <= 2L * n, wheel.freeEntries() + " free entries");
        wheel.checkInvariants();
        base = fillAndDrain(wheel, nodes, keys, base); // the same load again: its rows may still grow once
        long before = wheel.allocations();
        assertTrue(before > n / TimingWheel.CHUNK, "the first load allocated its chunks: " + before);
        fillAndDrain(wheel, nodes, keys, base);
        assertEquals(before, wheel.allocations(), "a load no higher than before allocates no array");
        wheel.checkInvariants();
    }

    /**
     * Adds every node at base + its key, then advances past them all and on to the next multiple of 2^18 (so that the
     * next round's keys fall into the same slots of the three lowest levels: the same load); returns that key.
     */
    private static long fillAndDrain(TimingWheel<E> wheel, E[] nodes, long[] keys, long base) {
        for (int i = 0; i < nodes.length; i++) {
            wheel.add(nodes[i], base + keys[i]);
        }
        int[] count = new int[1];
        for (long k = base + 1; k <= base + 100_001; k += 64) {
            wheel.increaseMinAllowedKey(k, e -> count[0]++);
        }
        wheel.increaseMinAllowedKey(base + 100_001, e -> count[0]++);
        assertEquals(nodes.length, count[0]);
        assertTrue(wheel.isEmpty());
        long next = (base + (1 << 18)) & -(1L << 18);
        wheel.increaseMinAllowedKey(next, e -> { });
        return next;
    }
}

package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The cascade's fetch hints (every stride-th node appended to a slot above level 0, read ahead before the re-linking
 * walk) must change nothing but timing: long lists whose hinted nodes were removed, re-added elsewhere or re-added to
 * the same slot still cascade every node exactly once, in key order, equal keys in insertion order; and a slot that
 * empties keeps no hint, so hints never keep a removed node reachable from the wheel.
 */
class TimingWheelFetchHintsTest {

    static final class E extends TimingWheel.Node {
        /** Insertion order of the last add: equal keys must come out in this order. */
        long seq;
    }

    @Test
    void longListsWithStaleHints_expireEveryNodeOnceInKeyThenInsertionOrder() {
        for (int[] bits : new int[][] {{4, 4, 4, 4, 4}, {9, 9, 6, 6, 6, 6, 6, 6}, {2, 3, 4, 5}}) {
            for (long seed = 1; seed <= 3; seed++) {
                run(bits, seed);
            }
        }
    }

    private static void run(int[] bits, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        TimingWheel<E> wheel = new TimingWheel<>(bits);
        int bottom = 1 << bits[0];
        long span = 64L << (bits[0] + bits[1]); // most keys above levels 0 and 1: two cascades or more
        long seq = 0;
        List<E> present = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            E e = new E();
            e.seq = seq++;
            // Few distinct keys per slot, so that equal keys are common.
            wheel.add(e, bottom + random.nextLong(span) / 7 * 7);
            present.add(e);
        }
        assertTrue(wheel.hintsHeld() > 0, "the lists are long enough for hints: the hinted cascade runs");
        wheel.checkInvariants();
        // Remove a third (hinted nodes among them), and add half of those back: at new keys or at their old ones
        // (the tail of their old slot).
        List<E> removed = new ArrayList<>();
        for (int i = present.size() - 1; i >= 0; i--) {
            if (random.nextInt(3) == 0) {
                E e = present.remove(i);
                assertTrue(wheel.remove(e));
                removed.add(e);
            }
        }
        for (E e : removed) {
            if (random.nextBoolean()) {
                long key = random.nextBoolean() ? e.key() : bottom + random.nextLong(span) / 7 * 7;
                e.seq = seq++;
                wheel.add(e, key);
                present.add(e);
            }
        }
        wheel.checkInvariants();
        List<E> out = new ArrayList<>();
        long to = 0;
        while (!wheel.isEmpty()) {
            to += 1 + random.nextLong(span / 50);
            wheel.increaseMinAllowedKey(to, out::add);
            wheel.checkInvariants();
        }
        String where = Arrays.toString(bits) + " seed " + seed;
        assertEquals(present.size(), out.size(), where + ": every node out once");
        for (int i = 1; i < out.size(); i++) {
            E a = out.get(i - 1);
            E b = out.get(i);
            assertTrue(a.key() < b.key() || (a.key() == b.key() && a.seq < b.seq),
                    where + ": out of order at " + i + ": key " + a.key() + " seq " + a.seq + " before key "
                            + b.key() + " seq " + b.seq);
        }
        assertEquals(present.size(), new HashSet<>(out).size(), where + ": no node twice");
        assertEquals(0, wheel.hintsHeld(), where + ": an empty wheel keeps no hint");
    }

    @Test
    void removingEveryNode_dropsEveryHint() {
        TimingWheel<E> wheel = new TimingWheel<>(9, 9, 6, 6, 6, 6, 6, 6);
        List<E> all = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            E e = new E();
            wheel.add(e, 1_000 + (i * 7919L) % 200_000_000L);
            all.add(e);
        }
        assertTrue(wheel.hintsHeld() > 0);
        for (E e : all) {
            wheel.remove(e);
        }
        wheel.checkInvariants();
        assertEquals(0, wheel.hintsHeld(), "removed nodes must not stay reachable through hints");
    }

    @Test
    void clear_dropsEveryHint() {
        TimingWheel<E> wheel = new TimingWheel<>(4, 4, 4, 4, 4);
        for (int i = 0; i < 5_000; i++) {
            wheel.add(new E(), 16 + (i * 31L) % 60_000);
        }
        assertTrue(wheel.hintsHeld() > 0);
        wheel.clear();
        wheel.checkInvariants();
        assertEquals(0, wheel.hintsHeld());
    }
}

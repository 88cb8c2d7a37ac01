package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Edge cases of {@link TimingWheel}: both ends of the allowed window at many alignments, keys and start keys
 * near {@code Long.MAX_VALUE}, argument validation, node ownership, bounded advance, re-entrancy from the handler
 * and insertion order among equal keys across cascades. All on virtual time.
 */
class TimingWheelEdgeTest {

    private static final long MAX = Long.MAX_VALUE;

    /**
     * Configurations of more than 32 levels (the constructor accepts up to 62): 62 levels of one bit, 40 levels of
     * one bit, 42 levels mixing two and one bits (62 bits), and a 4096-slot level under 50 one-bit levels.
     */
    private static final int[][] MANY_LEVELS = {
        levels(62, 1), levels(40, 1), concat(levels(20, 2), levels(22, 1)), concat(new int[] {12}, levels(50, 1)),
    };

    /**
     * Level configurations: single levels, tiny levels, uneven levels, the default, the widest, 62 bits, and the
     * configurations of more than 32 levels.
     */
    private static final int[][] CONFIGS = concat(new int[][] {
        {8}, {1}, {1, 1, 1}, {2, 3, 4}, TimingWheel.defaultLevelBits(), {12, 12, 12, 12, 12},
        {12, 12, 12, 12, 12, 2}, {1, 12, 1, 12, 12, 12, 12},
    }, MANY_LEVELS);

    static final class E extends TimingWheel.Node {
        final String name;

        E(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name + "@" + key();
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // Helpers

    private static int totalBits(int[] levelBits) {
        return Arrays.stream(levelBits).sum();
    }

    /** {@code count} levels of {@code bits} bits each. */
    private static int[] levels(int count, int bits) {
        int[] out = new int[count];
        Arrays.fill(out, bits);
        return out;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static int[][] concat(int[][] a, int[][] b) {
        int[][] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A short name for a configuration: runs of equal levels as {@code bits x count}. */
    private static String describe(int[] levelBits) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < levelBits.length; ) {
            int j = i;
            while (j < levelBits.length && levelBits[j] == levelBits[i]) {
                j++;
            }
            sb.append(sb.length() > 1 ? ", " : "").append(levelBits[i]);
            if (j - i > 1) {
                sb.append(" x ").append(j - i);
            }
            i = j;
        }
        return sb.append("} (").append(levelBits.length).append(" levels)").toString();
    }

    /** min(Long.MAX_VALUE, now + 2^B - 1): the least maxAllowedKey the class promises. */
    private static long guaranteedMax(long now, int totalBits) {
        long span = (1L << totalBits) - 1;
        return now > MAX - span ? MAX : now + span;
    }

    /** Advances to the key and returns what was handed out, in order. */
    private static List<E> advance(TimingWheel<E> wheel, long key) {
        List<E> out = new ArrayList<>();
        int n = wheel.increaseMinAllowedKey(key, out::add);
        assertEquals(out.size(), n, "returned count");
        wheel.checkInvariants();
        return out;
    }

    private static E add(TimingWheel<E> wheel, String name, long key) {
        E e = new E(name);
        wheel.add(e, key);
        return e;
    }

    private static List<String> names(List<E> elements) {
        List<String> out = new ArrayList<>();
        for (E e : elements) {
            out.add(e.name);
        }
        return out;
    }

    /** Start keys at many alignments: 0, 2^b - 1, 2^b, 2^b + 1 for every b, and Long.MAX_VALUE and just below. */
    private static long[] startKeys() {
        TreeSet<Long> keys = new TreeSet<>();
        keys.add(0L);
        for (int b = 0; b < 63; b++) {
            keys.add((1L << b) - 1);
            keys.add(1L << b);
            keys.add((1L << b) + 1);
        }
        keys.add(MAX - 1);
        keys.add(MAX);
        keys.add(0x5DEECE66DL * 12345L);
        return keys.stream().mapToLong(Long::longValue).toArray();
    }

    // -------------------------------------------------------------------------------------------------------------
    // The allowed window

    @Test
    void add_atMinAllowedKeyAndMaxAllowedKey_isAcceptedAndExpiresAtThatKey() {
        long[] starts = {0, 1, 12345, 1L << 40, (1L << 40) - 1, MAX - (1L << 30), MAX - 1000, MAX - 1};
        for (int[] bits : CONFIGS) {
            for (long start : starts) {
                String where = Arrays.toString(bits) + " start " + start;
                TimingWheel<E> wheel = new TimingWheel<>(start, bits);
                long max = wheel.maxAllowedKey();
                E atMin = add(wheel, "min", start);
                E atMax = add(wheel, "max", max);
                wheel.checkInvariants();
                assertEquals(2, wheel.size(), where);
                assertSame(atMin, wheel.minElement(), where);
                assertEquals(List.of(atMin), advance(wheel, start + 1), where);
                if (max < MAX) {
                    assertEquals(List.of(), advance(wheel, max), where + ": expired before its key");
                    assertEquals(List.of(atMax), advance(wheel, max + 1), where);
                } else {
                    assertEquals(List.of(), advance(wheel, MAX), where);
                    assertTrue(atMax.isInWheel(), where);
                }
            }
        }
    }

    @Test
    void add_onePastEitherEndOfTheWindow_throwsNamingKeyAndRangeAndLeavesWheelUnchanged() {
        long[] starts = {1, 64, 12345, (1L << 40) + 3, MAX - (1L << 50), MAX - 70, MAX};
        for (int[] bits : CONFIGS) {
            for (long start : starts) {
                String where = Arrays.toString(bits) + " start " + start;
                TimingWheel<E> wheel = new TimingWheel<>(start, bits);
                long min = wheel.minAllowedKey();
                long max = wheel.maxAllowedKey();
                E first = add(wheel, "first", min);
                add(wheel, "last", max);
                List<Long> illegal = new ArrayList<>(List.of(min - 1, -1L, Long.MIN_VALUE));
                if (max < MAX) {
                    illegal.add(max + 1);
                    illegal.add(MAX);
                }
                for (long key : illegal) {
                    E e = new E("illegal");
                    IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                            () -> wheel.add(e, key), where + " key " + key);
                    String m = x.getMessage();
                    assertTrue(m.contains(Long.toString(key)) && m.contains(Long.toString(min))
                            && m.contains(Long.toString(max)), where + ": message does not name key " + key
                            + " and range [" + min + ", " + max + "]: " + m);
                    assertFalse(e.isInWheel(), where);
                    assertFalse(wheel.contains(e), where);
                    assertEquals(2, wheel.size(), where);
                    assertSame(first, wheel.minElement(), where);
                    assertEquals(min, wheel.minAllowedKey(), where);
                    wheel.checkInvariants();
                }
            }
        }
    }

    @Test
    void maxAllowedKey_atManyAlignmentsOfMinAllowedKey_spansAtLeastTwoToTheTotalBits() {
        long[] starts = startKeys();
        for (int[] bits : CONFIGS) {
            int total = totalBits(bits);
            // Reached through the constructor.
            for (long start : starts) {
                TimingWheel<E> wheel = new TimingWheel<>(start, bits);
                checkWindow(wheel, total, Arrays.toString(bits) + " started at " + start);
            }
            // Reached by advancing one wheel, with an element at each end of the window every time.
            TimingWheel<E> wheel = new TimingWheel<>(bits);
            for (long start : starts) {
                if (start <= wheel.minAllowedKey()) {
                    continue;
                }
                List<E> out = advance(wheel, start);
                for (E e : out) {
                    assertTrue(e.key() < start, "handed out " + e + " advancing to " + start);
                }
                String where = Arrays.toString(bits) + " advanced to " + start;
                checkWindow(wheel, total, where);
                add(wheel, "low", start);
                add(wheel, "high", wheel.maxAllowedKey());
                long guaranteed = guaranteedMax(start, total);
                add(wheel, "guaranteed", guaranteed);
                wheel.checkInvariants();
                assertEquals(start, wheel.minKey(), where);
            }
        }
    }

    private static void checkWindow(TimingWheel<E> wheel, int total, String where) {
        long now = wheel.minAllowedKey();
        long max = wheel.maxAllowedKey();
        long guaranteed = guaranteedMax(now, total);
        assertTrue(max >= guaranteed, where + ": maxAllowedKey " + max + " < " + guaranteed);
        E atGuaranteed = add(wheel, "guaranteed", guaranteed);
        E atMax = add(wheel, "max", max);
        wheel.checkInvariants();
        assertTrue(wheel.remove(atGuaranteed) && wheel.remove(atMax), where);
    }

    @Test
    void add_keysNearLongMaxValue_expireInKeyOrderAndEqualKeysInInsertionOrder() {
        for (int[] bits : CONFIGS) {
            long start = MAX - 100_000;
            TimingWheel<E> wheel = new TimingWheel<>(start, bits);
            String where = Arrays.toString(bits);
            long max = wheel.maxAllowedKey();
            long[] keys = {MAX - 1, MAX - 2, MAX - 64, MAX - 65, MAX - 4097, MAX - 99_999, MAX - 1, start, MAX - 2};
            List<E> expected = new ArrayList<>();
            List<E> added = new ArrayList<>();
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] <= max) {
                    added.add(add(wheel, "e" + i, keys[i]));
                }
            }
            added.stream()
                    .sorted((a, b) -> Long.compare(a.key(), b.key()))
                    .forEachOrdered(expected::add);
            E atMax = max == MAX ? add(wheel, "atMax", MAX) : null;
            wheel.checkInvariants();
            assertEquals(names(expected), names(advance(wheel, MAX)), where);
            assertEquals(MAX, wheel.minAllowedKey(), where);
            if (atMax != null) {
                assertTrue(atMax.isInWheel(), where);
            }
        }
    }

    @Test
    void constructor_startKeyNearLongMaxValue_acceptsEveryKeyUpToLongMaxValue() {
        for (int[] bits : CONFIGS) {
            int total = totalBits(bits);
            for (long start : new long[] {MAX, MAX - 1, MAX - 63, MAX - 64, MAX - 4096, MAX - (1L << 40)}) {
                String where = Arrays.toString(bits) + " start " + start;
                TimingWheel<E> wheel = new TimingWheel<>(start, bits);
                assertEquals(start, wheel.minAllowedKey(), where);
                if (MAX - start <= (1L << total) - 1) {
                    assertEquals(MAX, wheel.maxAllowedKey(), where);
                }
                E last = wheel.maxAllowedKey() == MAX ? add(wheel, "last", MAX) : null;
                E first = add(wheel, "first", start);
                wheel.checkInvariants();
                List<E> out = advance(wheel, MAX);
                assertEquals(start < MAX ? List.of(first) : List.of(), out, where);
                if (last != null) {
                    assertTrue(last.isInWheel(), where);
                    assertEquals(MAX, wheel.minKey(), where);
                }
            }
        }
    }

    @Test
    void increaseMinAllowedKey_toLongMaxValue_keepsTheElementAtLongMaxValueSinceOnlyKeysBelowTheTargetExpire() {
        TimingWheel<E> wheel = new TimingWheel<>(MAX - 10, 6, 6);
        E below = add(wheel, "below", MAX - 1);
        E atMax = add(wheel, "atMax", MAX);
        assertEquals(List.of(below), advance(wheel, MAX));
        assertEquals(MAX, wheel.minAllowedKey());
        assertEquals(MAX, wheel.maxAllowedKey());
        assertTrue(atMax.isInWheel());
        assertSame(atMax, wheel.minElement());
        assertEquals(MAX, wheel.nextEventAtOrBefore(MAX));
        assertEquals(0, wheel.increaseMinAllowedKey(MAX, e -> fail("handed out " + e)));
        // The window is now the single key Long.MAX_VALUE.
        E another = add(wheel, "another", MAX);
        assertThrows(IllegalArgumentException.class, () -> wheel.add(new E("x"), MAX - 1));
        assertEquals(2, wheel.size());
        assertTrue(wheel.remove(atMax) && wheel.remove(another));
        wheel.checkInvariants();
    }

    // -------------------------------------------------------------------------------------------------------------
    // More than 32 levels (issue 15: the set of non-empty levels lived in an int, whose shifts wrap at 32)

    /**
     * Advances to the key and returns what was handed out, in order, without checking the invariants: the tests of
     * this section check the public queries first, so that a failure names what a caller would see.
     */
    private static List<E> advanceOnly(TimingWheel<E> wheel, long key) {
        List<E> out = new ArrayList<>();
        int n = wheel.increaseMinAllowedKey(key, out::add);
        assertEquals(out.size(), n, "returned count");
        return out;
    }

    /** Keys 2^b - 1, 2^b and 2^b + 1 for every b from 0 to 61, those up to max, ascending. */
    private static long[] keysAroundPowersOfTwo(long max) {
        TreeSet<Long> keys = new TreeSet<>();
        for (int b = 0; b <= 61; b++) {
            for (long key : new long[] {(1L << b) - 1, 1L << b, (1L << b) + 1}) {
                if (key <= max) {
                    keys.add(key);
                }
            }
        }
        return keys.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void constructor_moreThan32Levels_isAcceptedUpTo62LevelsOfOneBit() {
        for (int[] bits : MANY_LEVELS) {
            TimingWheel<E> wheel = new TimingWheel<>(bits);
            assertTrue(Arrays.equals(bits, wheel.levelBits()), describe(bits));
            assertTrue(wheel.maxAllowedKey() >= guaranteedMax(0, totalBits(bits)), describe(bits));
            wheel.checkInvariants();
        }
        assertEquals(62, new TimingWheel<E>(levels(62, 1)).levelBits().length);
    }

    @Test
    void minQueries_moreThan32Levels_oneElementAtEachPowerOfTwoUpTo2To61_areFoundAndExpireAtTheirKey() {
        for (int[] bits : MANY_LEVELS) {
            for (int b = 0; b <= 61; b++) {
                long key = 1L << b;
                TimingWheel<E> wheel = new TimingWheel<>(bits);
                if (key > wheel.maxAllowedKey()) {
                    break;
                }
                String where = describe(bits) + " element at 2^" + b;
                E e = add(wheel, "e", key);
                assertSame(e, wheel.minElement(), where);
                assertEquals(key, wheel.minKey(), where);
                long event = wheel.nextEventAtOrBefore(MAX);
                assertTrue(event > 0 && event <= key, where + ": next event " + event);
                // Follow it down the levels, event by event: nothing is handed out before its key.
                while (wheel.minAllowedKey() < key) {
                    long next = wheel.nextEventAtOrBefore(MAX);
                    assertTrue(next > wheel.minAllowedKey() && next <= key, where + ": next event " + next
                            + " at " + wheel.minAllowedKey());
                    assertEquals(List.of(), advanceOnly(wheel, next), where);
                    assertEquals(key, wheel.minKey(), where + " at " + wheel.minAllowedKey());
                    wheel.checkInvariants();
                }
                assertEquals(key, wheel.nextEventAtOrBefore(MAX), where);
                assertEquals(List.of(e), advanceOnly(wheel, key + 1), where);
                assertNull(wheel.minElement(), where);
                assertEquals(key + 1, wheel.nextEventAtOrBefore(key + 1), where);
                wheel.checkInvariants();
            }
        }
    }

    @Test
    void minQueries_moreThan32Levels_startJustBelowAPowerOfTwo_findTheElementAtThePowerAndTheOneAtTheWindowEnd() {
        for (int[] bits : MANY_LEVELS) {
            for (int b = 1; b <= 62; b++) {
                long start = (1L << b) - 1;
                TimingWheel<E> wheel = new TimingWheel<>(start, bits);
                String where = describe(bits) + " start 2^" + b + " - 1";
                long max = wheel.maxAllowedKey();
                E last = add(wheel, "last", max);
                assertSame(last, wheel.minElement(), where);
                assertEquals(max, wheel.minKey(), where);
                E atPower = max > start ? add(wheel, "atPower", start + 1) : null;
                if (atPower != null) {
                    assertSame(atPower, wheel.minElement(), where);
                    assertEquals(List.of(atPower), advanceOnly(wheel, start + 2), where);
                }
                assertSame(last, wheel.minElement(), where);
                assertEquals(max, wheel.minKey(), where);
                wheel.checkInvariants();
            }
        }
    }

    @Test
    void increaseMinAllowedKey_moreThan32Levels_elementsAroundEveryPowerOfTwo_expireOneAtATimeInKeyOrder() {
        for (int[] bits : MANY_LEVELS) {
            TimingWheel<E> wheel = new TimingWheel<>(bits);
            long[] keys = keysAroundPowersOfTwo(wheel.maxAllowedKey());
            // Added from the largest key down, so that no slot list happens to be in key order.
            for (int i = keys.length - 1; i >= 0; i--) {
                add(wheel, Long.toString(keys[i]), keys[i]);
            }
            for (long key : keys) {
                String where = describe(bits) + " key " + key;
                assertEquals(key, wheel.minKey(), where);
                assertEquals(Long.toString(key), wheel.minElement().name, where);
                assertEquals(List.of(), advanceOnly(wheel, key), where + ": handed out before its key");
                assertEquals(List.of(Long.toString(key)), names(advanceOnly(wheel, key + 1)), where);
                wheel.checkInvariants();
            }
            assertTrue(wheel.isEmpty(), describe(bits));
        }
    }

    @Test
    void increaseMinAllowedKey_moreThan32Levels_oneCallPastEveryPowerOfTwo_handsAllOutInKeyOrder() {
        for (int[] bits : MANY_LEVELS) {
            TimingWheel<E> wheel = new TimingWheel<>(bits);
            long[] keys = keysAroundPowersOfTwo(wheel.maxAllowedKey());
            List<String> expected = new ArrayList<>();
            for (int i = keys.length - 1; i >= 0; i--) {
                add(wheel, Long.toString(keys[i]), keys[i]);
            }
            for (long key : keys) {
                expected.add(Long.toString(key));
            }
            assertEquals(expected, names(advanceOnly(wheel, keys[keys.length - 1] + 1)), describe(bits));
            assertTrue(wheel.isEmpty(), describe(bits));
            wheel.checkInvariants();
        }
    }

    @Test
    void increaseMinAllowedKey_moreThan32Levels_hugeJumpOverASparseWheel_handsOutInKeyOrderAndKeepsTheLast() {
        for (int[] bits : MANY_LEVELS) {
            TimingWheel<E> wheel = new TimingWheel<>(12345L, bits);
            long max = wheel.maxAllowedKey();
            TreeSet<Long> keys = new TreeSet<>();
            for (long key : new long[] {12345, 12346, 1L << 20, (1L << 32) - 1, (1L << 32) + 7, (1L << 33) - 1,
                    (1L << 40) + 3, (1L << 50) + 5, (1L << 60) - 1, (1L << 61) + 99, max}) {
                if (key <= max) {
                    keys.add(key);
                }
            }
            List<String> expected = new ArrayList<>();
            for (long key : keys.descendingSet()) {
                add(wheel, Long.toString(key), key);
            }
            for (long key : keys.headSet(max)) {
                expected.add(Long.toString(key));
            }
            String where = describe(bits);
            long before = wheel.visits();
            long target = keys.lower(max) + 1;
            assertEquals(expected, names(advanceOnly(wheel, target)), where + " jump to " + target);
            long cost = wheel.visits() - before;
            assertTrue(cost <= 2L * keys.size() * bits.length, where + ": jump cost " + cost + " visits");
            assertEquals(1, wheel.size(), where);
            assertEquals(max, wheel.minKey(), where);
            assertEquals(Long.toString(max), wheel.minElement().name, where);
            wheel.checkInvariants();
            assertEquals(List.of(), advanceOnly(wheel, max), where);
            assertEquals(List.of(Long.toString(max)), names(advanceOnly(wheel, max + 1)), where);
        }
    }

    @Test
    void window_moreThan32LevelsReachingLongMaxValue_keysUpToMaxAllowedKeyExpireInOrderAndLongMaxValueStays() {
        for (int[] bits : MANY_LEVELS) {
            int total = totalBits(bits);
            long[] starts = {MAX - ((1L << total) - 1), MAX - (1L << (total - 1)), 1L << 62, 3L << 61,
                MAX - (1L << 33), MAX - (1L << 32) + 1, MAX - 1000, MAX - 1};
            for (long start : starts) {
                String where = describe(bits) + " start " + start;
                TimingWheel<E> wheel = new TimingWheel<>(start, bits);
                long max = wheel.maxAllowedKey();
                if (start >= MAX - ((1L << total) - 1)) {
                    assertEquals(MAX, max, where);
                }
                TreeSet<Long> keys = new TreeSet<>(List.of(start, max, max - 1));
                for (int b = 0; b <= 62; b++) {
                    if (start <= max - (1L << b)) {
                        keys.add(start + (1L << b));
                        keys.add(max - (1L << b));
                    }
                }
                keys.removeIf(k -> k < start);
                for (long key : keys.descendingSet()) {
                    add(wheel, Long.toString(key), key);
                }
                E again = add(wheel, "again", max);
                for (long key : keys.headSet(max)) {
                    assertEquals(key, wheel.minKey(), where);
                    assertEquals(List.of(), advanceOnly(wheel, key), where + ": handed out before " + key);
                    assertEquals(List.of(Long.toString(key)), names(advanceOnly(wheel, key + 1)), where);
                    wheel.checkInvariants();
                }
                assertEquals(max, wheel.minKey(), where);
                assertEquals(List.of(), advanceOnly(wheel, max), where);
                assertEquals(max, wheel.minAllowedKey(), where);
                if (max == MAX) {
                    // Only keys below the target expire: both elements at Long.MAX_VALUE stay, in insertion order.
                    assertEquals(2, wheel.size(), where);
                    assertEquals(Long.toString(MAX), wheel.minElement().name, where);
                    assertEquals(MAX, wheel.nextEventAtOrBefore(MAX), where);
                    assertTrue(again.isInWheel(), where);
                } else {
                    assertEquals(List.of(Long.toString(max), "again"), names(advanceOnly(wheel, max + 1)), where);
                }
                wheel.checkInvariants();
            }
        }
    }

    // -------------------------------------------------------------------------------------------------------------
    // Constructor validation

    @Test
    void constructor_emptyLevelBits_throwsIllegalArgument() {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> new TimingWheel<E>(new int[0]));
        assertTrue(x.getMessage().contains("empty"), x.getMessage());
    }

    @Test
    void constructor_levelOfZeroBits_throwsNamingTheValue() {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> new TimingWheel<E>(4, 0, 4));
        assertTrue(x.getMessage().contains("levelBits[1] = 0"), x.getMessage());
    }

    @Test
    void constructor_levelOfThirteenBits_throwsNamingTheValue() {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> new TimingWheel<E>(13));
        assertTrue(x.getMessage().contains("levelBits[0] = 13"), x.getMessage());
    }

    @Test
    void constructor_negativeLevelBits_throwsNamingTheValue() {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> new TimingWheel<E>(6, 6, -3));
        assertTrue(x.getMessage().contains("levelBits[2] = -3"), x.getMessage());
    }

    @Test
    void constructor_levelBitsSummingTo63_throwsNamingTheSum() {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> new TimingWheel<E>(12, 12, 12, 12, 12, 3));
        assertTrue(x.getMessage().contains("63"), x.getMessage());
        // 62 is the most a key can use, and is accepted.
        assertEquals(62, totalBits(new TimingWheel<E>(12, 12, 12, 12, 12, 2).levelBits()));
    }

    @Test
    void constructor_negativeStartKey_throwsNamingTheKey() {
        for (long start : new long[] {-1, Long.MIN_VALUE}) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                    () -> new TimingWheel<E>(start, 6, 6));
            assertTrue(x.getMessage().contains(Long.toString(start)), x.getMessage());
        }
    }

    @Test
    void constructor_nullLevelBits_throwsNullPointerNamingTheParameter() {
        NullPointerException x = assertThrows(NullPointerException.class, () -> new TimingWheel<E>((int[]) null));
        assertTrue(x.getMessage().contains("levelBits"), x.getMessage());
        x = assertThrows(NullPointerException.class, () -> new TimingWheel<E>(5L, (int[]) null));
        assertTrue(x.getMessage().contains("levelBits"), x.getMessage());
    }

    @Test
    void constructor_levelBits_areCopiedInAndOut() {
        int[] bits = {3, 4};
        TimingWheel<E> wheel = new TimingWheel<>(bits);
        bits[0] = 12;
        int[] out = wheel.levelBits();
        assertEquals(List.of(3, 4), List.of(out[0], out[1]));
        out[1] = 1;
        assertEquals(4, wheel.levelBits()[1]);
        assertEquals(List.of(6, 6, 6, 6, 6, 6, 6, 6),
                Arrays.stream(new TimingWheel<E>().levelBits()).boxed().toList());
    }

    // -------------------------------------------------------------------------------------------------------------
    // Node ownership

    @Test
    void remove_neverAddedNode_returnsFalse() {
        TimingWheel<E> wheel = new TimingWheel<>(4, 4);
        E present = add(wheel, "present", 7);
        E stranger = new E("stranger");
        assertFalse(wheel.remove(stranger));
        assertFalse(stranger.isInWheel());
        assertEquals(1, wheel.size());
        assertTrue(present.isInWheel());
        wheel.checkInvariants();
    }

    @Test
    void remove_nodeOfAnotherWheel_returnsFalseAndLeavesBothWheelsIntact() {
        TimingWheel<E> mine = new TimingWheel<>(4, 4);
        TimingWheel<E> other = new TimingWheel<>(4, 4);
        E a = add(mine, "a", 3);
        E b = add(other, "b", 3);
        E c = add(other, "c", 3);
        assertFalse(mine.remove(b));
        assertFalse(mine.contains(b));
        assertTrue(other.contains(b));
        assertEquals(1, mine.size());
        assertEquals(2, other.size());
        mine.checkInvariants();
        other.checkInvariants();
        assertEquals(List.of(a), advance(mine, 4));
        assertEquals(List.of(b, c), advance(other, 4));
    }

    @Test
    void add_nodeAlreadyInAWheel_throwsAndLeavesItWhereItIs() {
        TimingWheel<E> wheel = new TimingWheel<>(4, 4);
        TimingWheel<E> other = new TimingWheel<>(4, 4);
        E e = add(wheel, "e", 5);
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> wheel.add(e, 9));
        assertTrue(x.getMessage().contains("already"), x.getMessage());
        assertThrows(IllegalArgumentException.class, () -> other.add(e, 9));
        assertEquals(5, e.key());
        assertTrue(wheel.contains(e));
        assertFalse(other.contains(e));
        assertEquals(1, wheel.size());
        assertEquals(0, other.size());
        wheel.checkInvariants();
        other.checkInvariants();
    }

    @Test
    void add_nullNode_throwsNullPointer() {
        TimingWheel<E> wheel = new TimingWheel<>(4, 4);
        assertThrows(NullPointerException.class, () -> wheel.add(null, 1));
        assertEquals(0, wheel.size());
    }

    @Test
    void reschedule_nodeNotInThisWheel_throws() {
        TimingWheel<E> wheel = new TimingWheel<>(4, 4);
        TimingWheel<E> other = new TimingWheel<>(4, 4);
        E stranger = new E("stranger");
        E elsewhere = add(other, "elsewhere", 2);
        assertThrows(IllegalArgumentException.class, () -> wheel.reschedule(stranger, 3));
        assertThrows(IllegalArgumentException.class, () -> wheel.reschedule(elsewhere, 3));
        assertFalse(stranger.isInWheel());
        assertEquals(2, elsewhere.key());
        assertTrue(other.contains(elsewhere));
        assertEquals(0, wheel.size());
        other.checkInvariants();
    }

    @Test
    void reschedule_keyOutsideTheWindow_throwsAndLeavesTheNodeInPlace() {
        TimingWheel<E> wheel = new TimingWheel<>(10L, 4, 4);
        E e = add(wheel, "e", 20);
        E later = add(wheel, "later", 20);
        long max = wheel.maxAllowedKey();
        for (long key : new long[] {9, max + 1, -1}) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> wheel.reschedule(e, key));
            assertTrue(x.getMessage().contains(Long.toString(key)), x.getMessage());
            assertEquals(20, e.key());
            wheel.checkInvariants();
        }
        // Still first among equals: a failed reschedule does not move it to the back.
        assertEquals(List.of(e, later), advance(wheel, 21));
    }

    @Test
    void reschedule_toAnotherKey_movesTheNodeAndPutsItLastAmongEquals() {
        TimingWheel<E> wheel = new TimingWheel<>(3, 3, 3);
        E a = add(wheel, "a", 100);
        E b = add(wheel, "b", 300);
        E c = add(wheel, "c", 5);
        wheel.reschedule(b, 5);
        wheel.reschedule(a, 400);
        assertEquals(5, b.key());
        assertEquals(List.of(c, b), advance(wheel, 101));
        assertEquals(List.of(a), advance(wheel, 401));
    }

    // -------------------------------------------------------------------------------------------------------------
    // addInRange

    @Test
    void addInRange_invalidRanges_throwAndLeaveTheWheelUnchanged() {
        TimingWheel<E> wheel = new TimingWheel<>(100L, 4, 4);
        TimingWheel<E> other = new TimingWheel<>(4, 4);
        long max = wheel.maxAllowedKey();
        E e = add(wheel, "e", 150);
        E elsewhere = add(other, "elsewhere", 1);
        assertThrows(IllegalArgumentException.class, () -> wheel.addInRange(new E("x"), 120, 110));
        assertThrows(IllegalArgumentException.class, () -> wheel.addInRange(new E("x"), 0, 99));
        assertThrows(IllegalArgumentException.class, () -> wheel.addInRange(new E("x"), max + 1, MAX));
        assertThrows(IllegalArgumentException.class, () -> wheel.addInRange(e, max + 1, MAX));
        assertThrows(IllegalArgumentException.class, () -> wheel.addInRange(elsewhere, 100, 200));
        assertThrows(NullPointerException.class, () -> wheel.addInRange(null, 100, 200));
        assertEquals(1, wheel.size());
        assertEquals(150, e.key());
        assertTrue(other.contains(elsewhere));
        wheel.checkInvariants();
        other.checkInvariants();
    }

    @Test
    void addInRange_rangeReachingOutsideTheWindow_isClippedToIt() {
        TimingWheel<E> wheel = new TimingWheel<>(100L, 4, 4);
        long max = wheel.maxAllowedKey();
        long below = wheel.addInRange(new E("below"), 0, 100);
        assertEquals(100, below);
        long above = wheel.addInRange(new E("above"), max, MAX);
        assertEquals(max, above);
        long all = wheel.addInRange(new E("all"), 0, MAX);
        assertTrue(all >= 100 && all <= max, "chose " + all);
        wheel.checkInvariants();
    }

    @Test
    void addInRange_rangeHoldingSlotBoundaries_choosesTheLatestBoundaryOfTheHighestLevel() {
        TimingWheel<E> wheel = new TimingWheel<>(6, 6, 6);
        // [64, 100]: 64 starts a level-1 slot; 100 starts nothing. The level-1 boundary wins although it is earlier.
        assertEquals(64, wheel.addInRange(new E("a"), 64, 100));
        // [5000, 9000]: 8192 = 2 * 4096 starts a level-2 slot, the highest boundary in the range.
        assertEquals(8192, wheel.addInRange(new E("b"), 5000, 9000));
        // [130, 250]: no level-2 boundary; the latest level-1 boundary is 192.
        assertEquals(192, wheel.addInRange(new E("c"), 130, 250));
        // [10, 20]: no boundary above level 0: the latest key.
        assertEquals(20, wheel.addInRange(new E("d"), 10, 20));
        wheel.checkInvariants();
    }

    @Test
    void addInRange_nodeAlreadyInsideTheRange_staysPutAndKeepsItsPlaceAmongEquals() {
        TimingWheel<E> wheel = new TimingWheel<>(6, 6);
        E e = add(wheel, "e", 70);
        E later = add(wheel, "later", 70);
        assertEquals(70, wheel.addInRange(e, 60, 100));
        assertEquals(70, wheel.addInRange(e, 70, 70));
        assertEquals(2, wheel.size());
        assertEquals(List.of(e, later), advance(wheel, 71));
    }

    @Test
    void addInRange_nodeOutsideTheRange_isMovedIntoIt() {
        TimingWheel<E> wheel = new TimingWheel<>(6, 6);
        E e = add(wheel, "e", 500);
        long key = wheel.addInRange(e, 60, 70);
        assertTrue(key >= 60 && key <= 70, "chose " + key);
        assertEquals(key, e.key());
        assertEquals(1, wheel.size());
        wheel.checkInvariants();
        assertEquals(List.of(e), advance(wheel, 71));
    }

    @Test
    void addInRange_wideRange_choosesTheLatestStartOfASlotAtTheHighestLevelInIt() {
        TimingWheel<E> wheel = new TimingWheel<>(6, 6);
        // Within one level-0 run, the end of the range.
        assertEquals(20, wheel.addInRange(new E("a"), 10, 20));
        // Across a level-1 boundary: the latest multiple of 64.
        assertEquals(64, wheel.addInRange(new E("b"), 60, 70));
        assertEquals(4032, wheel.addInRange(new E("c"), 0, 4095));
        // Across a top-level boundary, clipped to maxAllowedKey = 65 * 64 - 1 = 4159: 4096.
        assertEquals(4159, wheel.maxAllowedKey());
        assertEquals(4096, wheel.addInRange(new E("d"), 100, 10_000));
        wheel.checkInvariants();
        // The element at 64 sits in a level-1 slot whose start is its key: it falls straight out at its key.
        assertEquals(List.of("a"), names(advance(wheel, 64)));
        assertEquals(List.of("b"), names(advance(wheel, 65)));
    }

    // -------------------------------------------------------------------------------------------------------------
    // Advance arguments and bounded advance

    @Test
    void increaseMinAllowedKey_maxExpiredBelowOne_throwsAndLeavesTheWheelUnchanged() {
        TimingWheel<E> wheel = new TimingWheel<>(4, 4);
        add(wheel, "e", 1);
        for (int bound : new int[] {0, -1, Integer.MIN_VALUE}) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                    () -> wheel.increaseMinAllowedKey(10, bound, e -> fail("handed out " + e)));
            assertTrue(x.getMessage().contains(Integer.toString(bound)), x.getMessage());
        }
        assertEquals(0, wheel.minAllowedKey());
        assertEquals(1, wheel.size());
        wheel.checkInvariants();
    }

    @Test
    void increaseMinAllowedKey_nullHandler_throwsNullPointer() {
        TimingWheel<E> wheel = new TimingWheel<>(4, 4);
        add(wheel, "e", 1);
        assertThrows(NullPointerException.class, () -> wheel.increaseMinAllowedKey(10, null));
        assertEquals(0, wheel.minAllowedKey());
        assertEquals(1, wheel.size());
    }

    @Test
    void increaseMinAllowedKey_keyAtOrBelowMinAllowedKey_doesNothing() {
        TimingWheel<E> wheel = new TimingWheel<>(100L, 4, 4);
        E a = add(wheel, "a", 100);
        add(wheel, "b", 105);
        for (long key : new long[] {100, 99, 0, -5, Long.MIN_VALUE}) {
            assertEquals(0, wheel.increaseMinAllowedKey(key, e -> fail("handed out " + e)));
            assertEquals(0, wheel.increaseMinAllowedKey(key, 1, e -> fail("handed out " + e)));
            assertEquals(100, wheel.minAllowedKey());
            assertEquals(2, wheel.size());
            assertSame(a, wheel.minElement());
        }
        wheel.checkInvariants();
    }

    @Test
    void increaseMinAllowedKey_boundedByMaxExpired_stopsAtTheNextDueKeyAndResumesThere() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        add(wheel, "a", 3);
        add(wheel, "b", 3);
        add(wheel, "c", 5);
        add(wheel, "d", 37);
        add(wheel, "e", 60);
        List<E> out = new ArrayList<>();
        assertEquals(2, wheel.increaseMinAllowedKey(50, 2, out::add));
        assertEquals(List.of("a", "b"), names(out));
        assertEquals(5, wheel.minAllowedKey(), "stopped early: the key of the next due element");
        wheel.checkInvariants();
        out.clear();
        assertEquals(1, wheel.increaseMinAllowedKey(50, 1, out::add));
        assertEquals(37, wheel.minAllowedKey(), "the next due element lay in a higher level");
        wheel.checkInvariants();
        // Exactly as many due as allowed: the advance completes to the target.
        assertEquals(1, wheel.increaseMinAllowedKey(50, 1, out::add));
        assertEquals(50, wheel.minAllowedKey());
        assertEquals(List.of("c", "d"), names(out));
        assertEquals(1, wheel.size());
        wheel.checkInvariants();
    }

    // -------------------------------------------------------------------------------------------------------------
    // Re-entrancy from the handler

    @Test
    void handler_seesAConsistentWheelWithMinAllowedKeyAtTheHandedKey() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        add(wheel, "a", 3);
        add(wheel, "b", 17);
        add(wheel, "c", 17);
        List<String> seen = new ArrayList<>();
        wheel.increaseMinAllowedKey(40, e -> {
            assertFalse(e.isInWheel());
            assertFalse(wheel.contains(e));
            assertEquals(e.key(), wheel.minAllowedKey());
            wheel.checkInvariants();
            seen.add(e.name + "@" + wheel.minAllowedKey() + " size " + wheel.size());
        });
        assertEquals(List.of("a@3 size 2", "b@17 size 1", "c@17 size 0"), seen);
    }

    @Test
    void handler_removesAPendingElementWithTheSameKey_itIsNotHandedOut() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        E a = add(wheel, "a", 20);
        E b = add(wheel, "b", 20);
        E c = add(wheel, "c", 20);
        List<E> out = new ArrayList<>();
        wheel.increaseMinAllowedKey(30, e -> {
            out.add(e);
            if (e == a) {
                assertTrue(wheel.remove(b));
            }
        });
        assertEquals(List.of(a, c), out);
        assertFalse(b.isInWheel());
        assertEquals(0, wheel.size());
        wheel.checkInvariants();
    }

    @Test
    void handler_removesAPendingElementWithALaterKey_itIsNotHandedOut() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        E a = add(wheel, "a", 2);
        E b = add(wheel, "b", 35);
        E c = add(wheel, "c", 40);
        List<E> out = new ArrayList<>();
        wheel.increaseMinAllowedKey(50, e -> {
            out.add(e);
            if (e == a) {
                assertTrue(wheel.remove(b));
            }
        });
        assertEquals(List.of(a, c), out);
        assertEquals(50, wheel.minAllowedKey());
        wheel.checkInvariants();
    }

    @Test
    void handler_addsAnElementBelowTheTarget_itIsHandedOutInTheSameCallInKeyOrder() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        add(wheel, "a", 2);
        add(wheel, "c", 40);
        List<String> out = new ArrayList<>();
        wheel.increaseMinAllowedKey(50, e -> {
            out.add(e.name);
            if (e.name.equals("a")) {
                add(wheel, "b", 33);
                add(wheel, "beyond", 50);
            }
        });
        assertEquals(List.of("a", "b", "c"), out);
        assertEquals(1, wheel.size());
        assertEquals(50, wheel.minKey());
        wheel.checkInvariants();
    }

    @Test
    void handler_addsAnElementAtTheCurrentKey_itIsHandedOutAfterTheEqualKeysAlreadyPending() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        add(wheel, "a", 9);
        add(wheel, "b", 9);
        add(wheel, "later", 12);
        List<String> out = new ArrayList<>();
        wheel.increaseMinAllowedKey(20, e -> {
            out.add(e.name);
            if (e.name.equals("a")) {
                add(wheel, "again", wheel.minAllowedKey());
            }
        });
        assertEquals(List.of("a", "b", "again", "later"), out);
        wheel.checkInvariants();
    }

    @Test
    void handler_reschedulesPendingElements_theyAreHandedOutAtTheirNewKeysOrKept() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        add(wheel, "a", 1);
        E early = add(wheel, "early", 30);
        E kept = add(wheel, "kept", 10);
        add(wheel, "b", 20);
        List<String> out = new ArrayList<>();
        wheel.increaseMinAllowedKey(40, e -> {
            out.add(e.name + "@" + e.key());
            if (e.name.equals("a")) {
                wheel.reschedule(early, 5);
                wheel.reschedule(kept, 55);
            }
        });
        assertEquals(List.of("a@1", "early@5", "b@20"), out);
        assertTrue(kept.isInWheel());
        assertEquals(55, wheel.minKey());
        wheel.checkInvariants();
    }

    @Test
    void handler_clearsTheWheel_nothingMoreIsHandedOutAndTheAdvanceCompletes() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        add(wheel, "a", 4);
        E b = add(wheel, "b", 4);
        E c = add(wheel, "c", 30);
        List<String> out = new ArrayList<>();
        int n = wheel.increaseMinAllowedKey(40, e -> {
            out.add(e.name);
            wheel.clear();
        });
        assertEquals(1, n);
        assertEquals(List.of("a"), out);
        assertEquals(40, wheel.minAllowedKey());
        assertTrue(wheel.isEmpty());
        assertFalse(b.isInWheel() || c.isInWheel());
        wheel.checkInvariants();
        wheel.add(b, 45);
        assertEquals(List.of(b), advance(wheel, 46));
    }

    @Test
    void handler_callsIncreaseMinAllowedKey_throwsIllegalStateWhateverTheKey() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        add(wheel, "a", 3);
        add(wheel, "b", 30);
        List<String> out = new ArrayList<>();
        Consumer<E> nested = e -> fail("nested call handed out " + e);
        wheel.increaseMinAllowedKey(40, e -> {
            long now = wheel.minAllowedKey();
            // Above, at and below minAllowedKey, bounded or not: a nested call is refused, not ignored.
            for (long key : new long[] {now + 100, now + 1, now, now - 1}) {
                assertThrows(IllegalStateException.class, () -> wheel.increaseMinAllowedKey(key, nested),
                        "nested increaseMinAllowedKey(" + key + ") at " + now);
                assertThrows(IllegalStateException.class, () -> wheel.increaseMinAllowedKey(key, 1, nested));
            }
            assertEquals(now, wheel.minAllowedKey());
            out.add(e.name);
        });
        assertEquals(List.of("a", "b"), out);
        assertEquals(40, wheel.minAllowedKey());
        wheel.checkInvariants();
    }

    @Test
    void handler_throws_theExceptionPropagatesTheWheelStaysConsistentAndALaterCallResumes() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        add(wheel, "a", 3);
        E bad = add(wheel, "bad", 17);
        add(wheel, "sameKey", 17);
        add(wheel, "c", 33);
        List<String> out = new ArrayList<>();
        IllegalStateException boom = new IllegalStateException("boom");
        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> wheel.increaseMinAllowedKey(50, e -> {
                    if (e == bad) {
                        throw boom;
                    }
                    out.add(e.name);
                }));
        assertSame(boom, thrown);
        assertEquals(List.of("a"), out);
        assertFalse(bad.isInWheel());
        assertEquals(17, wheel.minAllowedKey(), "resumes at the failed element's key");
        assertEquals(2, wheel.size());
        wheel.checkInvariants();
        // The wheel is usable again, from the handler's point of view too (not stuck "advancing").
        add(wheel, "new", 20);
        assertEquals(3, wheel.increaseMinAllowedKey(50, e -> out.add(e.name)));
        assertEquals(List.of("a", "sameKey", "new", "c"), out);
        assertEquals(50, wheel.minAllowedKey());
        wheel.checkInvariants();
    }

    // -------------------------------------------------------------------------------------------------------------
    // Order among equal keys, min queries, clear

    @Test
    void increaseMinAllowedKey_equalKeysAddedBeforeAndAfterCascades_expireInInsertionOrder() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 3, 4);
        long key = 0b1011_101_10; // level 2 digit 11, level 1 digit 5, level 0 digit 2: 374
        List<E> sameKey = new ArrayList<>();
        sameKey.add(add(wheel, "k0", key));
        add(wheel, "before", key - 1);
        add(wheel, "after", key + 1);
        int lastLevel = wheel.levelOfSlotHolding(sameKey.get(0));
        assertEquals(2, lastLevel);
        List<String> out = new ArrayList<>();
        for (long now = 1; now <= key + 2; now++) {
            wheel.increaseMinAllowedKey(now, e -> out.add(e.name));
            wheel.checkInvariants();
            E first = sameKey.get(0);
            if (first.isInWheel()) {
                int level = wheel.levelOfSlotHolding(first);
                if (level != lastLevel) {
                    // Just cascaded: add another with the same key, which must come after those already there.
                    sameKey.add(add(wheel, "k" + sameKey.size(), key));
                    lastLevel = level;
                }
                if (now <= key - 1) {
                    assertEquals(key - 1, wheel.minKey());
                } else {
                    assertSame(first, wheel.minElement(), "first added among equal min keys at " + now);
                }
            }
        }
        assertEquals(3, sameKey.size(), "one element per level: it cascaded 2 -> 1 -> 0");
        assertEquals(List.of("before", "k0", "k1", "k2", "after"), out);
    }

    /**
     * A cascade walks its slot's list with two cursors, one re-linking from the head and one fetching from the tail by
     * the back links until they meet: lists of every length from 1 to 40 (both parities, the cursors meeting on a
     * node and crossing between two), with equal keys spread through them, must re-link every node once, in list
     * order, so that keys come out in key order and equal keys in insertion order.
     */
    @Test
    void cascade_listsOfEveryLengthUpTo40_reLinkEachNodeOnceInListOrder() {
        for (int n = 1; n <= 40; n++) {
            TimingWheel<E> wheel = new TimingWheel<>(4, 4, 4);
            List<E> added = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long k = 31 - (i * 7) % 16; // keys 16..31 (level 1, slot 1), repeating after 16 adds
                added.add(add(wheel, k + "#" + i, k));
            }
            assertEquals(List.of(), advance(wheel, 16), "n=" + n + ": the cascade hands nothing out");
            for (E e : added) {
                assertEquals(0, wheel.levelOfSlotHolding(e), "n=" + n + ": " + e + " cascaded to level 0");
            }
            List<E> expected = new ArrayList<>(added);
            expected.sort(java.util.Comparator.comparingLong(TimingWheel.Node::key)); // stable: ties keep add order
            assertEquals(names(expected), names(advance(wheel, 32)), "n=" + n);
            assertTrue(wheel.isEmpty());
        }
    }

    @Test
    void minElement_equalMinKeysInAHigherLevelSlot_returnsTheFirstAdded() {
        TimingWheel<E> wheel = new TimingWheel<>(3, 3);
        // One level-1 slot [16, 23] holding, in list order: 20, 18 (first), 22, 18 (second).
        add(wheel, "20", 20);
        E first = add(wheel, "first18", 18);
        add(wheel, "22", 22);
        E second = add(wheel, "second18", 18);
        assertEquals(1, wheel.levelOfSlotHolding(first));
        assertEquals(18, wheel.minKey());
        assertSame(first, wheel.minElement());
        assertEquals(16, wheel.nextEventAtOrBefore(MAX), "the cascade of the slot, not the key");
        wheel.remove(first);
        assertSame(second, wheel.minElement());
        assertEquals(List.of(), advance(wheel, 16), "advancing to the next event hands nothing out");
        assertEquals(0, wheel.levelOfSlotHolding(second));
        assertEquals(18, wheel.nextEventAtOrBefore(MAX));
        assertEquals(17, wheel.nextEventAtOrBefore(17));
    }

    @Test
    void minQueries_emptyWheel_throwOrReturnNullOrTheLimit() {
        TimingWheel<E> wheel = new TimingWheel<>(9L, 4, 4);
        assertThrows(NoSuchElementException.class, wheel::minKey);
        assertNull(wheel.minElement());
        assertEquals(12345, wheel.nextEventAtOrBefore(12345));
        assertEquals(MAX, wheel.nextEventAtOrBefore(MAX));
        assertTrue(wheel.isEmpty());
    }

    @Test
    void clear_wheelWithElements_freesEveryNodeAndKeepsMinAllowedKey() {
        TimingWheel<E> wheel = new TimingWheel<>(1000L, 3, 3, 3);
        List<E> all = new ArrayList<>();
        for (long k = 1000; k < 1000 + 500; k += 7) {
            all.add(add(wheel, "k" + k, k));
        }
        wheel.clear();
        assertTrue(wheel.isEmpty());
        assertEquals(1000, wheel.minAllowedKey());
        wheel.checkInvariants();
        for (E e : all) {
            assertFalse(e.isInWheel());
            assertFalse(wheel.remove(e));
        }
        // Every node can be added again, to this wheel or another.
        TimingWheel<E> other = new TimingWheel<>(3, 3, 3);
        wheel.add(all.get(0), 1001);
        other.add(all.get(1), 1);
        assertEquals(List.of(all.get(0)), advance(wheel, 1002));
        assertEquals(List.of(all.get(1)), advance(other, 2));
    }

    @Test
    void removeAll_wheelWithElementsAtEveryLevel_handsEachOutOnceAndKeepsMinAllowedKey() {
        TimingWheel<E> wheel = new TimingWheel<>(5L, 2, 2, 2);
        List<E> all = new ArrayList<>();
        for (long k = 5; k <= wheel.maxAllowedKey(); k += 3) {
            all.add(add(wheel, "k" + k, k));
        }
        all.add(add(wheel, "dup", 5));
        List<E> out = new ArrayList<>();
        int n = wheel.removeAll(e -> {
            assertFalse(e.isInWheel(), "handed out while still in the wheel");
            assertEquals(all.size() - out.size() - 1, wheel.size());
            out.add(e);
        });
        assertEquals(all.size(), n);
        assertEquals(all.size(), out.size());
        assertTrue(out.containsAll(all) && all.containsAll(out));
        assertEquals(all.size(), out.stream().distinct().count());
        assertTrue(wheel.isEmpty());
        assertEquals(5, wheel.minAllowedKey());
        wheel.checkInvariants();
        assertEquals(0, wheel.removeAll(e -> fail("handed out " + e)));
        wheel.add(all.get(0), 6);
        assertEquals(List.of(all.get(0)), advance(wheel, 7));
    }

    @Test
    void removeAll_handlerThrows_theRestStayAndALaterCallHandsThemOut() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        for (long k = 0; k < 40; k += 5) {
            add(wheel, "k" + k, k);
        }
        RuntimeException boom = new RuntimeException("boom");
        List<E> out = new ArrayList<>();
        assertSame(boom, assertThrows(RuntimeException.class, () -> wheel.removeAll(e -> {
            out.add(e);
            if (out.size() == 3) {
                throw boom;
            }
        })));
        assertEquals(5, wheel.size());
        wheel.checkInvariants();
        assertEquals(5, wheel.removeAll(out::add));
        assertEquals(8, out.stream().distinct().count());
        assertTrue(wheel.isEmpty());
    }

    @Test
    void removeAll_nestedWithIncreaseMinAllowedKey_throwsIllegalStateEitherWay() {
        TimingWheel<E> wheel = new TimingWheel<>(2, 2, 2);
        add(wheel, "a", 3);
        add(wheel, "b", 30);
        List<String> out = new ArrayList<>();
        wheel.increaseMinAllowedKey(4, e -> {
            assertThrows(IllegalStateException.class, () -> wheel.removeAll(x -> fail("handed out " + x)));
            out.add(e.name);
        });
        wheel.removeAll(e -> {
            assertThrows(IllegalStateException.class, () -> wheel.increaseMinAllowedKey(100, x -> { }));
            assertThrows(IllegalStateException.class, () -> wheel.removeAll(x -> { }));
            out.add(e.name);
        });
        assertEquals(List.of("a", "b"), out);
        assertEquals(4, wheel.minAllowedKey());
        assertThrows(NullPointerException.class, () -> wheel.removeAll(null));
        wheel.checkInvariants();
    }

    @Test
    void nodeKey_afterRemovalOrExpiry_isTheLastKeyItHad() {
        TimingWheel<E> wheel = new TimingWheel<>(4, 4);
        E removed = add(wheel, "removed", 40);
        E expired = add(wheel, "expired", 41);
        wheel.remove(removed);
        advance(wheel, 42);
        assertEquals(40, removed.key());
        assertEquals(41, expired.key());
        assertFalse(removed.isInWheel() || expired.isInWheel());
    }
}

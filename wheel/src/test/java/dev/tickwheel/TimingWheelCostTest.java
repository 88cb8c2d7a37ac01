package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cost checks through the package-private {@code visits()} counter, which counts each slot the advance processes
 * and each element it cascades or hands out. Without a clock these cannot measure time, but they fail if the
 * advance processes work in proportion to the distance or to the number of elements rather than to the elements
 * it actually moves.
 *
 * <p>Bound used below: an element sits in at most one slot per level over its life, so an advance costs at most
 * one visit per (element, level) for the slots processed plus one per (element, level) for the moves:
 * {@code 2 * elements * levels}.
 */
class TimingWheelCostTest {

    static final class E extends TimingWheel.Node {
    }

    @Test
    void increaseMinAllowedKey_jumpOf10ToThe12KeysOverASparseWheel_visitsBoundedByElementsTimesLevels() {
        TimingWheel<E> wheel = new TimingWheel<>();
        int levels = wheel.levelBits().length;
        long distance = 1_000_000_000_000L;
        long[] keys = {5, 1000, (1L << 20) + 3, 500_000_000_000L, distance - 1, distance + 7};
        for (long key : keys) {
            wheel.add(new E(), key);
        }
        long before = wheel.visits();
        List<E> out = new ArrayList<>();
        assertEquals(5, wheel.increaseMinAllowedKey(distance, out::add));
        long cost = wheel.visits() - before;
        assertTrue(cost >= out.size(), "the counter counts at least the elements handed out: " + cost);
        assertTrue(cost <= 2L * keys.length * levels, "jump of 10^12 keys over " + keys.length
                + " elements cost " + cost + " visits");
        assertEquals(1, wheel.size());
        wheel.checkInvariants();
    }

    @Test
    void increaseMinAllowedKey_hugeJumpsOverAnEmptyWheel_visitNothing() {
        for (int[] bits : new int[][] {{8}, {2, 3, 4}, TimingWheel.defaultLevelBits(), {12, 12, 12, 12, 12, 2}}) {
            TimingWheel<E> wheel = new TimingWheel<>(bits);
            long before = wheel.visits();
            wheel.increaseMinAllowedKey(1_000_000_000_000L, e -> { });
            wheel.increaseMinAllowedKey(Long.MAX_VALUE - 1, e -> { });
            wheel.increaseMinAllowedKey(Long.MAX_VALUE, e -> { });
            assertEquals(0, wheel.visits() - before);
            assertEquals(Long.MAX_VALUE, wheel.minAllowedKey());
        }
    }

    @Test
    void increaseMinAllowedKey_jumpNearLongMaxValueOverASparse62BitWheel_visitsBoundedByElementsTimesLevels() {
        TimingWheel<E> wheel = new TimingWheel<>(12, 12, 12, 12, 12, 2);
        int levels = 6;
        long[] keys = {3, 1L << 30, 1L << 50, (1L << 61) + 12345, wheel.maxAllowedKey()};
        for (long key : keys) {
            wheel.add(new E(), key);
        }
        long before = wheel.visits();
        assertEquals(keys.length, wheel.increaseMinAllowedKey(Long.MAX_VALUE, e -> { }));
        long cost = wheel.visits() - before;
        assertTrue(cost <= 2L * keys.length * levels, "cost " + cost);
    }

    @Test
    void addRemoveAndAdvanceByOne_overAFullWheel_costAsMuchAsOverANearlyEmptyOne() {
        long fullCost = addRemoveAdvanceByOne(true);
        long emptyCost = addRemoveAdvanceByOne(false);
        assertEquals(emptyCost, fullCost, "cost depends on the number of elements in the wheel");
        assertTrue(fullCost <= 2, "advance by one handing out one element cost " + fullCost);
    }

    /** @return the visits of an add, a remove and an advance by one handing out one element */
    private static long addRemoveAdvanceByOne(boolean full) {
        TimingWheel<E> wheel = new TimingWheel<>(1L, 6, 6, 6);
        E due = new E();
        wheel.add(due, 1);
        if (full) {
            // One element every third key of the whole window: every slot that can hold an element holds some.
            for (long key = 2; key <= wheel.maxAllowedKey(); key += 3) {
                wheel.add(new E(), key);
            }
            assertTrue(wheel.size() > 80_000);
        }
        int size = wheel.size();
        long before = wheel.visits();
        E extra = new E();
        wheel.add(extra, wheel.maxAllowedKey() - 5);
        assertTrue(wheel.remove(extra));
        wheel.addInRange(extra, 1000, 100_000);
        assertTrue(wheel.remove(extra));
        List<E> out = new ArrayList<>();
        assertEquals(1, wheel.increaseMinAllowedKey(2, out::add));
        assertEquals(List.of(due), out);
        assertEquals(size - 1, wheel.size());
        long cost = wheel.visits() - before;
        wheel.checkInvariants();
        return cost;
    }
}

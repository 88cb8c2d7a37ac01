package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Membership of a node once it has left a wheel. A node keeps a reference to the last wheel it was in (so that
 * removing and re-adding it stores no reference), and whether it is in a wheel is told by its links alone: these
 * tests check that a node that left a wheel by any way out (remove, expiry, {@code clear}, {@code removeAll}) is
 * treated as free by that wheel and by every other one.
 */
class TimingWheelMembershipTest {

    static final class E extends TimingWheel.Node {
    }

    /** Every way a node can leave wheel {@code a}; each leaves it out of {@code a}. */
    private enum Exit {
        REMOVE {
            @Override
            void leave(TimingWheel<E> a, E e) {
                assertTrue(a.remove(e));
            }
        },
        EXPIRE {
            @Override
            void leave(TimingWheel<E> a, E e) {
                List<E> out = new ArrayList<>();
                a.increaseMinAllowedKey(e.key() + 1, out::add);
                assertEquals(List.of(e), out);
            }
        },
        CLEAR {
            @Override
            void leave(TimingWheel<E> a, E e) {
                a.clear();
            }
        },
        REMOVE_ALL {
            @Override
            void leave(TimingWheel<E> a, E e) {
                List<E> out = new ArrayList<>();
                a.removeAll(out::add);
                assertEquals(List.of(e), out);
            }
        };

        abstract void leave(TimingWheel<E> a, E e);
    }

    @Test
    void nodeThatLeftAWheel_isFreeForThatWheel() {
        for (Exit exit : Exit.values()) {
            TimingWheel<E> a = new TimingWheel<>(2, 3);
            E e = new E();
            a.add(e, 9);
            exit.leave(a, e);
            String where = exit.name();
            assertFalse(e.isInWheel(), where);
            assertFalse(a.contains(e), where);
            assertFalse(a.remove(e), where + ": a second remove must report that the node is not there");
            assertThrows(IllegalArgumentException.class, () -> a.reschedule(e, a.minAllowedKey() + 1), where);
            assertEquals(0, a.size(), where);
            a.checkInvariants();

            long lo = a.minAllowedKey() + 3;
            assertEquals(lo, a.addInRange(e, lo, lo), where + ": addInRange must add a node that left, not keep it");
            assertTrue(a.contains(e), where);
            assertEquals(1, a.size(), where);
            a.checkInvariants();
        }
    }

    @Test
    void nodeThatLeftAWheel_canJoinAnotherAndTheFirstKeepsOff() {
        for (Exit exit : Exit.values()) {
            TimingWheel<E> a = new TimingWheel<>(2, 3);
            TimingWheel<E> b = new TimingWheel<>(2, 3);
            E e = new E();
            E stay = new E();
            a.add(e, 9);
            a.add(stay, 30);
            if (exit == Exit.CLEAR || exit == Exit.REMOVE_ALL) {
                a.remove(stay);
            }
            exit.leave(a, e);
            String where = exit.name();

            b.add(e, 12);
            assertTrue(e.isInWheel(), where);
            assertTrue(b.contains(e), where);
            assertFalse(a.contains(e), where);
            assertFalse(a.remove(e), where + ": wheel a removed a node of wheel b");
            assertThrows(IllegalArgumentException.class, () -> a.reschedule(e, 20), where);
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> a.add(e, 20), where);
            assertTrue(x.getMessage().contains("another wheel"), where + ": " + x.getMessage());
            assertThrows(IllegalArgumentException.class, () -> a.addInRange(e, 20, 25), where);
            assertEquals(12, e.key(), where);
            assertEquals(1, b.size(), where);
            a.checkInvariants();
            b.checkInvariants();

            List<E> out = new ArrayList<>();
            b.increaseMinAllowedKey(13, out::add);
            assertEquals(1, out.size(), where);
            assertSame(e, out.get(0), where);
        }
    }

    @Test
    void nodeHandedOutByExpiry_isFreeInsideTheHandlerAndMayBeAddedBack() {
        TimingWheel<E> a = new TimingWheel<>(2, 3);
        E e = new E();
        a.add(e, 5);
        List<Boolean> seen = new ArrayList<>();
        a.increaseMinAllowedKey(6, n -> {
            seen.add(n.isInWheel());
            seen.add(a.contains(n));
            a.add(n, 30);
        });
        assertEquals(List.of(false, false), seen);
        assertTrue(a.contains(e));
        assertEquals(30, e.key());
        a.checkInvariants();
    }
}

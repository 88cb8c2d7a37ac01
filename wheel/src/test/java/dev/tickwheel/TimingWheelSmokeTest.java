package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimingWheelSmokeTest {
    static final class E extends TimingWheel.Node { final int id; E(int id) { this.id = id; } }

    @Test
    void expiresInKeyOrder() {
        TimingWheel<E> w = new TimingWheel<>(2, 2, 2);
        long[] keys = {5, 1, 63, 17, 16, 0, 64, 70, 40};
        for (int i = 0; i < keys.length; i++) { w.add(new E(i), keys[i]); w.checkInvariants(); }
        List<Long> out = new ArrayList<>();
        for (long t = 1; t <= 71; t++) { w.increaseMinAllowedKey(t, e -> out.add(e.key())); try { w.checkInvariants(); } catch (AssertionError x) { throw new AssertionError("t=" + t + " out=" + out, x); } }
        w.checkInvariants();
        assertEquals(List.of(0L, 1L, 5L, 16L, 17L, 40L, 63L, 64L, 70L), out);
    }
}

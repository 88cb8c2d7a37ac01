package dev.tickwheel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lag floor's arithmetic: the CPU spread over the cores, or the busiest thread, past the window; never below 0.
 * The sweep child's report, read back by size, and its refusal of a bad pool size.
 */
class FiringShotsTest {

    private static final double MS = 1e6;

    @Test
    void theFloorIsTheCpuSpreadOverTheCoresPastTheWindow() {
        // Owner 150 ms and pool 140 ms in the shot (the pool's thread appeared during it), producer 70 ms: 360 ms of
        // CPU on 2 cores cannot end before 180 ms; the window ended at 170 ms.
        Map<Long, Long> before = Map.of(1L, (long) (500 * MS));
        Map<Long, Long> after = Map.of(1L, (long) (650 * MS), 2L, (long) (140 * MS));
        assertEquals(10.0, FiringShots.lagFloorMs(before, after, 70 * MS, 70 * MS, 170 * MS, 2), 1e-9);
    }

    @Test
    void oneBusyThreadBoundsItByItself() {
        // One thread of 200 ms cannot end before 200 ms, whatever the cores: the serial bound (Netty's worker).
        Map<Long, Long> after = Map.of(7L, (long) (200 * MS));
        assertEquals(30.0, FiringShots.lagFloorMs(Map.of(), after, 70 * MS, 70 * MS, 170 * MS, 16), 1e-9);
        // A producer's loop counts as a thread too.
        assertEquals(5.0, FiringShots.lagFloorMs(Map.of(), Map.of(), 175 * MS, 175 * MS, 170 * MS, 16), 1e-9);
    }

    @Test
    void workThatFitsTheWindowHasNoFloor() {
        Map<Long, Long> after = Map.of(1L, (long) (100 * MS));
        assertEquals(0.0, FiringShots.lagFloorMs(Map.of(), after, 60 * MS, 60 * MS, 170 * MS, 2), 0.0);
    }

    @Test
    void theSweepsReportIsReadBackBySizeInItsOrder() {
        Map<Integer, Double> m = FiringShots.sweepMedians("1:185.20,2:178.00,32:181.50");
        assertEquals(List.of(1, 2, 32), List.copyOf(m.keySet()));
        assertEquals(185.2, m.get(1), 0.0);
        assertEquals(178.0, m.get(2), 0.0);
        assertEquals(181.5, m.get(32), 0.0);
    }

    @Test
    void aSweepSizeBelowOneIsRefusedBeforeAnyTimerStarts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FiringShots.main(new String[] {"--sweep", "1,0,4"}));
        assertTrue(e.getMessage().contains("--sweep 1,0,4: pool size 0 is below 1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> FiringShots.main(new String[] {"--sweep", "1", "--rounds", "0"}));
        assertTrue(e.getMessage().contains("--rounds 0"), e.getMessage());
    }
}

package dev.tickwheel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The share of late probes the lateness report prints beside its percentiles. */
class FiringLatenessTest {

    @Test
    void theShareCountsOnlyProbesLaterThanTheBound() {
        Histogram h = new Histogram(3);
        for (int i = 0; i < 970; i++) {
            h.recordValue(20_000); // 20 us
        }
        for (int i = 0; i < 20; i++) {
            h.recordValue(500_000); // 0.5 ms: late, not deeply
        }
        for (int i = 0; i < 10; i++) {
            h.recordValue(3_000_000); // 3 ms
        }
        assertEquals("3.000", FiringLateness.percentOver(h, FiringLateness.LATE_NANOS));
        assertEquals("1.000", FiringLateness.percentOver(h, FiringLateness.DEEP_LATE_NANOS));
    }

    @Test
    void aProbeAtTheBoundIsNotLate() {
        Histogram h = new Histogram(3);
        h.recordValue(FiringLateness.LATE_NANOS);
        h.recordValue(FiringLateness.LATE_NANOS + 1_000);
        assertEquals("50.000", FiringLateness.percentOver(h, FiringLateness.LATE_NANOS));
    }

    @Test
    void noProbesIsNoShare() {
        assertEquals("0.000", FiringLateness.percentOver(new Histogram(3), FiringLateness.LATE_NANOS));
    }
}

package dev.tickwheel.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FiringScenarioTest {

    /**
     * The expiry shot's figures over several JVMs: each numeric field's median, the per-shot list and a "-" kept from
     * the first JVM, and one JVM's run returned as it is.
     */
    @Test
    void theShotsJvmsAreReducedToEachFieldsMedian() {
        Map<String, String> a = Map.of("shotMedianMs", "190.0", "lagMedianMs", "0.5", "spillsPer1M", "-",
                "shotsMs", "190.0/0.50/0.00");
        Map<String, String> b = Map.of("shotMedianMs", "250.0", "lagMedianMs", "9.5", "spillsPer1M", "-",
                "shotsMs", "250.0/9.50/0.00");
        Map<String, String> c = Map.of("shotMedianMs", "201.0", "lagMedianMs", "1.5", "spillsPer1M", "-",
                "shotsMs", "201.0/1.50/0.00");
        Map<String, String> m = FiringScenario.medians(List.of(a, b, c));
        assertEquals(201.0, Double.parseDouble(m.get("shotMedianMs")));
        assertEquals(1.5, Double.parseDouble(m.get("lagMedianMs")));
        assertEquals("-", m.get("spillsPer1M"));
        assertEquals("190.0/0.50/0.00", m.get("shotsMs"));
        assertSame(a, FiringScenario.medians(List.of(a)));
    }
}

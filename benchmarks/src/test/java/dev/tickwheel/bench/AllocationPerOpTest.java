package dev.tickwheel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class AllocationPerOpTest {

    @Test
    void theTeardownsIterationDoesNotMoveTheMedian() {
        // Session 20's two-producer run at 1M pending: the last iteration carries shutdownNow's list.
        List<Double> iterations = List.of(48.006, 48.001, 48.003, 48.080, 54.804);
        assertEquals(48.006, AllocationPerOp.median(iterations), 1e-9);
    }

    @Test
    void anEvenCountTakesTheMeanOfTheMiddleTwo() {
        assertEquals(48.5, AllocationPerOp.median(List.of(50.0, 48.0, 49.0, 47.0)), 1e-9);
        assertEquals(48.0, AllocationPerOp.median(List.of(48.0)), 1e-9);
    }

    @Test
    void noValuesIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> AllocationPerOp.median(List.of()));
    }
}

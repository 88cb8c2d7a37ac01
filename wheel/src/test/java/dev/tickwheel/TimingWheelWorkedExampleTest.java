package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The worked example: a timer of 2 h 35 min 13 s on a clock-like wheel.
 *
 * <p>A wheel of 60-second minutes and 60-minute hours cannot be built from power-of-two levels, so the example is
 * modelled honestly: one key is one second and the levels are {@code {6, 6, 5}}, so a level-0 slot is a second, a
 * level-1 slot a 64-second "minute" and a level-2 slot a 4096-second "hour". The timer at 2 h 35 min 13 s is key
 * 9313 = 2 * 4096 + 17 * 64 + 33: level-2 digit 2, level-1 digit 17, level-0 digit 33. It starts in the "hours"
 * level, cascades to the "minutes" level when the wheel reaches 2 * 4096 = 8192 s, to the "seconds" level at
 * 8192 + 17 * 64 = 9280 s, and is handed out at 9313 s.
 *
 * <p>"Fires at second s" means: it is handed out by the call that processes second s, which raises
 * {@code minAllowedKey} from s to s + 1 (only keys below the new minimum are handed out), and in the handler
 * {@code minAllowedKey()} is s. The level is observed through the package-private seam
 * {@code levelOfSlotHolding(node)}, and the work through {@code visits()}: each slot processed and each element
 * cascaded or handed out counts one.
 */
class TimingWheelWorkedExampleTest {

    private static final long TIMER = 2 * 3600 + 35 * 60 + 13;

    static final class Timer extends TimingWheel.Node {
    }

    @Test
    void increaseMinAllowedKey_oneSecondAtATime_firesAtExactly9313AfterCascadingThroughEachLevel() {
        assertEquals(9313, TIMER);
        TimingWheel<Timer> wheel = new TimingWheel<>(6, 6, 5);
        Timer timer = new Timer();
        wheel.add(timer, TIMER);
        assertEquals(2, wheel.levelOfSlotHolding(timer), "starts in the 4096-second level");

        List<String> levelChanges = new ArrayList<>();
        Map<Long, Long> visitsByNewMinimum = new LinkedHashMap<>();
        List<Long> firedAt = new ArrayList<>();
        int level = 2;
        for (long second = 0; second < 3 * 3600; second++) {
            long visitsBefore = wheel.visits();
            wheel.increaseMinAllowedKey(second + 1, t -> firedAt.add(wheel.minAllowedKey()));
            long cost = wheel.visits() - visitsBefore;
            if (cost != 0) {
                visitsByNewMinimum.put(second + 1, cost);
            }
            if (second + 1 == TIMER) {
                // Every second up to 9312 has been processed: not fired yet.
                assertTrue(timer.isInWheel(), "fired before its second");
                assertEquals(List.of(), firedAt);
            }
            if (timer.isInWheel() && wheel.levelOfSlotHolding(timer) != level) {
                level = wheel.levelOfSlotHolding(timer);
                levelChanges.add("level " + level + " at " + wheel.minAllowedKey());
            }
        }
        wheel.checkInvariants();
        assertEquals(List.of(TIMER), firedAt, "fired once, while processing second 9313");
        assertFalse(timer.isInWheel());
        assertEquals(List.of("level 1 at 8192", "level 0 at 9280"), levelChanges);
        // Work happened only at the two cascades and the expiry (a slot and the timer each); the other 10,797
        // seconds cost nothing.
        assertEquals(Map.of(8192L, 2L, 9280L, 2L, TIMER + 1, 2L), visitsByNewMinimum);
    }

    @Test
    void increaseMinAllowedKey_inOneJump_cascadesOnTheWayAndFiresAtExactly9313() {
        TimingWheel<Timer> wheel = new TimingWheel<>(6, 6, 5);
        Timer timer = new Timer();
        wheel.add(timer, TIMER);
        List<Long> firedAt = new ArrayList<>();

        long visitsBefore = wheel.visits();
        assertEquals(0, wheel.increaseMinAllowedKey(TIMER, t -> firedAt.add(wheel.minAllowedKey())));
        assertTrue(timer.isInWheel(), "a jump to 9313 processes seconds up to 9312 only");
        assertEquals(0, wheel.levelOfSlotHolding(timer), "both cascades happened during the jump");
        assertEquals(4, wheel.visits() - visitsBefore, "two cascades of one slot and one timer each");

        assertEquals(1, wheel.increaseMinAllowedKey(TIMER + 1, t -> firedAt.add(wheel.minAllowedKey())));
        assertEquals(List.of(TIMER), firedAt);
        wheel.checkInvariants();
    }

    @Test
    void increaseMinAllowedKey_inOneJumpPastTheTimer_firesItWithMinAllowedKeyAt9313() {
        TimingWheel<Timer> wheel = new TimingWheel<>(6, 6, 5);
        Timer timer = new Timer();
        wheel.add(timer, TIMER);
        List<Long> firedAt = new ArrayList<>();
        long visitsBefore = wheel.visits();
        assertEquals(1, wheel.increaseMinAllowedKey(3 * 3600, t -> firedAt.add(wheel.minAllowedKey())));
        assertEquals(List.of(TIMER), firedAt);
        assertEquals(6, wheel.visits() - visitsBefore, "two cascades and one expiry, one slot and the timer each");
        assertEquals(3 * 3600, wheel.minAllowedKey());
        wheel.checkInvariants();
    }
}

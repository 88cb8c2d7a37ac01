package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Soak tests: many threads, many timers, and a ledger that accounts for every one of them.
 */
class WheelTimerSoakTest {

    private static final int SCALE = Integer.getInteger("tickwheel.test.scale", 1);

    /**
     * The wake-up handshake, hammered: the test thread plays the owner deciding to park ({@code planPark()} on the
     * manual-drive seam) while a producer schedules a timer due now, both released at the same instant. Either the
     * owner's re-check finds the timer (planPark returns AWAKE) or the producer sees the plan and wakes the owner
     * (isAwake); if neither, a real owner would park indefinitely with the timer in its queue: a lost timer.
     *
     * <p>This is the store-buffer litmus test: the producer's element store in the queue is only a release, so
     * without a full fence before it loads the plan, both sides can miss each other. It failed about once in
     * 7,000 trials on this 2-core machine before the fence.
     */
    @Test
    void scheduleRacingTheOwnersParkDecisionAlwaysWakesTheOwner() throws Exception {
        int trials = 100_000 * SCALE;
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run).build();
        AtomicInteger ran = new AtomicInteger();
        Runnable task = ran::incrementAndGet;
        // go: 2i-1 releases trial i to both sides; the producer then moves it to 2i when its schedule returned.
        AtomicInteger go = new AtomicInteger();
        Thread producer = new Thread(() -> {
            for (int i = 1; i <= trials; i++) {
                while (go.get() != 2 * i - 1) {
                    Thread.onSpinWait();
                }
                timer.schedule(task, 0, TimeUnit.NANOSECONDS);
                go.incrementAndGet();
            }
        }, "soak-handshake-producer");
        producer.setDaemon(true);
        producer.start();
        int lost = 0;
        int firstLost = -1;
        for (int i = 1; i <= trials; i++) {
            go.incrementAndGet();
            long planned = timer.planPark();
            while (go.get() != 2 * i) {
                Thread.onSpinWait();
            }
            if (planned != WheelTimer.AWAKE && !timer.isAwake()) {
                lost++;
                if (firstLost < 0) {
                    firstLost = i;
                }
            }
            while (timer.step()) {
                // drain; the direct executor runs the task inside step()
            }
            if (!timer.isAwake()) {
                // A lost trial leaves the plan standing: a schedule sees it and resets it, as a real producer would.
                timer.schedule(() -> { }, 0, TimeUnit.NANOSECONDS);
                while (timer.step()) {
                    // drain
                }
            }
        }
        producer.join();
        assertEquals(0, lost, "trials in which the owner would have parked with a due timer in its queue and no"
                + " wake-up coming, of " + trials + " (first: trial " + firstLost + ")");
        assertEquals(trials, ran.get(), "every timer still ran at the next step");
        timer.shutdownNow();
    }
}

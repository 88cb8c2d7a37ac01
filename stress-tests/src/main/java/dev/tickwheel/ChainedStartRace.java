package dev.tickwheel;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The state and actors of {@link RescheduleVsChainedStart} and its broken twin: a manually driven timer whose start
 * ring (2 commands, no spare) is full, with two new timers {@code t} and {@code u} (50 ms) in the start chain behind
 * it, {@code t} first.
 */
final class ChainedStartRace {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer;
    private final TimerFuture<?> t;
    /** Written by the tasks (on the stepping thread), read by the arbiter. */
    private int tRuns;
    private int uRuns;
    private long tRanAtMs;
    /** Set by the owner actor if its step threw: it followed a link the move overwrote. */
    private boolean corrupt;

    ChainedStartRace(CommandQueue.Flaw flaw) {
        timer = Rigs.fullRingChained(clock, flaw);
        timer.schedule(() -> { }, 60, TimeUnit.MILLISECONDS);
        timer.schedule(() -> { }, 60, TimeUnit.MILLISECONDS); // the ring is full: the next starts are chained
        t = timer.schedule(() -> {
            tRuns++;
            tRanAtMs = clock.nanoTime() / ManualClock.MS;
        }, 50, TimeUnit.MILLISECONDS);
        timer.schedule(() -> uRuns++, 50, TimeUnit.MILLISECONDS);
    }

    void producer(IIII_Result r) {
        r.r1 = t.reschedule(5, TimeUnit.MILLISECONDS) ? 1 : 0;
    }

    void owner() {
        step();
    }

    private void step() {
        try {
            OwnerLoop.of(timer).step();
        } catch (ClassCastException e) {
            corrupt = true; // the chain led into a wheel's slot
        }
    }

    void after(IIII_Result r) {
        for (int ms = 0; ms <= 70 && !corrupt; ms++) {
            step(); // at 0 ms: takes what the race step did not see
            clock.advanceMillis(1);
        }
        r.r2 = tRuns;
        r.r3 = (int) tRanAtMs;
        r.r4 = corrupt ? -1 : uRuns;
    }
}

package dev.tickwheel;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The state and actors shared by the lost wake-up races through a full command ring: {@link ScheduleSpillVsParkPlan}
 * (the start spills into a spare ring), {@link ScheduleResizeVsParkPlan} (it makes the overflow link a new chunk),
 * {@link ScheduleChainVsParkPlan} (it goes into the start chain, through its own timer) and their broken twins. A manually driven timer whose wheel's next event is tick 50, with starts queued (60 ms out) that
 * fill the queue up to the point under test; the producer then schedules a timer 5 ms out while the owner plans its
 * park ({@link OwnerPark#planPark()}).
 *
 * <p>Result: the owner's decision (0 = must not park, 1 = park until a tick at or before 5, 2 = park past tick 5),
 * whether the owner is marked awake afterwards, whether the owner's drain took the new timer into the wheel, and where
 * the producer's start went (1: the place under test, a spare ring, the overflow or the chain; 0: the first ring, after
 * the owner's drain).
 */
final class ParkPlanRace {

    private final WheelTimer timer;
    /** Starts queued before the race, beside the tick-50 timer in the wheel. */
    private final int queued;
    /** The place under test: {@link #SPARE}, {@link #OVERFLOW} or {@link #CHAIN}. */
    private final int place;
    private static final int SPARE = 0;
    private static final int OVERFLOW = 1;
    private static final int CHAIN = 2;
    /** Written by the owner actor, read by the arbiter. */
    private long planned;

    private ParkPlanRace(WheelTimer timer, int queued, int place) {
        this.timer = timer;
        this.queued = queued;
        this.place = place;
        timer.schedule(() -> { }, 50, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // the wheel's next event is tick 50
        for (int i = 0; i < queued; i++) {
            timer.schedule(() -> { }, 60, TimeUnit.MILLISECONDS);
        }
    }

    /** Two queued starts fill the first ring (of 2): the producer's start spills into a spare ring it installs. */
    static ParkPlanRace spill(CommandQueue.Flaw flaw) {
        return new ParkPlanRace(Rigs.smallRings(new ManualClock(), flaw), 2, SPARE);
    }

    /**
     * Two queued starts fill the only ring (of 2) and a third the overflow's first chunk (of 2): the producer's start
     * links a new chunk if it reads that third start untaken.
     */
    static ParkPlanRace resize(CommandQueue.Flaw flaw) {
        return new ParkPlanRace(Rigs.tinyOverflow(new ManualClock(), flaw), 3, OVERFLOW);
    }

    /** Two queued starts fill the only ring (of 2): the producer's new timer goes into the start chain. */
    static ParkPlanRace chain(CommandQueue.Flaw flaw) {
        return new ParkPlanRace(Rigs.fullRingChained(new ManualClock(), flaw), 2, CHAIN);
    }

    void producer() {
        timer.schedule(() -> { }, 5, TimeUnit.MILLISECONDS);
    }

    void owner() {
        planned = OwnerPark.of(timer).planPark();
    }

    void after(IIII_Result r) {
        r.r1 = planned == WheelTimer.AWAKE ? 0 : planned <= 5 ? 1 : 2;
        r.r2 = OwnerPark.of(timer).isAwake() ? 1 : 0;
        r.r3 = OwnerLoop.of(timer).wheel().size() - 1 - queued; // the tick-50 timer and the queued ones are in it
        r.r4 = place == OVERFLOW ? (int) timer.starts.spills() - 1
                : place == CHAIN ? (int) timer.starts.chainPushes()
                : timer.starts.installedRings() > 1 ? 1 : 0;
    }
}

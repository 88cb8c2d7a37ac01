package dev.tickwheel.bench;

import dev.tickwheel.bench.peer.AgronaWheelLoad;
import dev.tickwheel.bench.peer.TickwheelWheelLoad;

/** The single-threaded wheels compared in scenario 7, as a JMH {@code @Param}. */
public enum WheelKind {
    /** Tickwheel's {@code TimingWheel} with its default eight levels of 64 slots. */
    TICKWHEEL_WHEEL("Tickwheel TimingWheel") {
        @Override
        public WheelLoad create(long seed) {
            return new TickwheelWheelLoad(seed);
        }
    },
    /** Agrona's {@code DeadlineTimerWheel}: 1024 ticks per wheel, its default initial 16 timers per tick. */
    AGRONA("Agrona DeadlineTimerWheel") {
        @Override
        public WheelLoad create(long seed) {
            return new AgronaWheelLoad(seed);
        }
    };

    private final String label;

    WheelKind(String label) {
        this.label = label;
    }

    public abstract WheelLoad create(long seed);

    public String label() {
        return label;
    }
}

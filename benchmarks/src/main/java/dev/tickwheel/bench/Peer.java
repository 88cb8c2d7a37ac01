package dev.tickwheel.bench;

import dev.tickwheel.WheelTimer;
import dev.tickwheel.bench.peer.ForkJoinSchedulerAdapter;
import dev.tickwheel.bench.peer.JdkSchedulerAdapter;
import dev.tickwheel.bench.peer.KafkaTimerAdapter;
import dev.tickwheel.bench.peer.MpscFloorAdapter;
import dev.tickwheel.bench.peer.NettyInterfaceAdapter;
import dev.tickwheel.bench.peer.TickwheelAdapter;
import java.util.concurrent.TimeUnit;

/**
 * The timers compared, as a JMH {@code @Param}: each constant builds one small adapter. Configurations are what a
 * user gets from each library's documented setup; none is tuned for these workloads.
 *
 * <p>A peer this JVM cannot run ({@link #available()} false: the ForkJoinPool peers before JDK 25) is left out of
 * every run that lists it, with {@link #skipNote()} in place of its figures; its {@link #create()} throws.
 */
public enum Peer {
    /** {@code WheelTimer.create()}: 1 µs tick, tasks on its own pool of max(2, CPUs) workers. */
    TICKWHEEL("Tickwheel") {
        @Override
        public TimerAdapter create() {
            return new TickwheelAdapter(false, WheelTimer.DEFAULT_TICK_NANOS);
        }
    },
    /** {@code WheelTimer} with {@code runTasksOnOwnerThread()}: the opt-in for tiny tasks, as Netty always does. */
    TICKWHEEL_INLINE("Tickwheel, tasks on owner") {
        @Override
        public TimerAdapter create() {
            return new TickwheelAdapter(true, WheelTimer.DEFAULT_TICK_NANOS);
        }
    },
    /**
     * {@code WheelTimer} with a 1 ms tick (the default before it became 1 µs): deadlines are rounded up to 1 ms,
     * and a burst of timers due together takes fewer owner steps and cascades. The throughput configuration.
     */
    TICKWHEEL_1MS("Tickwheel, 1 ms tick") {
        @Override
        public TimerAdapter create() {
            return new TickwheelAdapter(false, TimeUnit.MILLISECONDS.toNanos(1));
        }
    },
    /** {@code WheelTimer} with a 1 ms tick and {@code runTasksOnOwnerThread()}: as Netty's 1 ms wheel runs tasks. */
    TICKWHEEL_1MS_INLINE("Tickwheel, 1 ms tick, tasks on owner") {
        @Override
        public TimerAdapter create() {
            return new TickwheelAdapter(true, TimeUnit.MILLISECONDS.toNanos(1));
        }
    },
    /** {@code ScheduledThreadPoolExecutor(1)} with {@code setRemoveOnCancelPolicy(true)}. */
    JDK_STPE("JDK STPE") {
        @Override
        public TimerAdapter create() {
            return new JdkSchedulerAdapter();
        }
    },
    /**
     * From JDK 25 on, a {@code new ForkJoinPool(1)} used as a {@code ScheduledExecutorService}: lock-free
     * submission to one delay-scheduler thread over a heap, one worker running the due tasks. Skipped before 25.
     */
    JDK_FORKJOIN("JDK ForkJoinPool(1)", ForkJoinSchedulerAdapter.REQUIREMENT) {
        @Override
        public TimerAdapter create() {
            return ForkJoinSchedulerAdapter.dedicated();
        }

        @Override
        public boolean available() {
            return ForkJoinSchedulerAdapter.supported();
        }
    },
    /**
     * From JDK 25 on, {@code ForkJoinPool.commonPool()} as a {@code ScheduledExecutorService}: what a user gets for
     * free. It cannot be shut down, so closing the adapter leaves its threads and pending timers. Skipped before 25.
     */
    JDK_FORKJOIN_COMMON("JDK common pool", ForkJoinSchedulerAdapter.REQUIREMENT) {
        @Override
        public TimerAdapter create() {
            return ForkJoinSchedulerAdapter.common();
        }

        @Override
        public boolean available() {
            return ForkJoinSchedulerAdapter.supported();
        }
    },
    /** Netty {@code HashedWheelTimer} with a 1 ms tick and its default 512 ticks per wheel. */
    NETTY_1MS("Netty 1 ms") {
        @Override
        public TimerAdapter create() {
            return NettyInterfaceAdapter.hashedWheel(1, TimeUnit.MILLISECONDS, "netty-");
        }
    },
    /** Netty {@code HashedWheelTimer} with its defaults: 100 ms tick, 512 ticks per wheel. */
    NETTY_100MS("Netty 100 ms") {
        @Override
        public TimerAdapter create() {
            return NettyInterfaceAdapter.hashedWheel(100, TimeUnit.MILLISECONDS, "netty-");
        }
    },
    /**
     * Tickwheel's {@code NettyWheelTimer} (tickwheel-netty) with its defaults, driven through Netty's
     * {@code io.netty.util.Timer} interface: the Netty drop-in.
     */
    NETTY_TIMER_TICKWHEEL("Tickwheel as Netty Timer") {
        @Override
        public TimerAdapter create() {
            return NettyInterfaceAdapter.tickwheel(false);
        }
    },
    /** The same with {@code runTasksOnTimerThread()}: tasks one at a time on the timer's thread, as Netty's. */
    NETTY_TIMER_TICKWHEEL_INLINE("Tickwheel as Netty Timer, tasks on timer thread") {
        @Override
        public TimerAdapter create() {
            return NettyInterfaceAdapter.tickwheel(true);
        }
    },
    /** Netty's {@code HashedWheelTimer}, 1 ms tick, through the same interface and adapter as the drop-in. */
    NETTY_TIMER_HWT_1MS("HashedWheelTimer 1 ms as Netty Timer") {
        @Override
        public TimerAdapter create() {
            return NettyInterfaceAdapter.hashedWheel(1, TimeUnit.MILLISECONDS);
        }
    },
    /** Netty's {@code HashedWheelTimer} with its default 100 ms tick, through the same interface and adapter. */
    NETTY_TIMER_HWT_100MS("HashedWheelTimer 100 ms as Netty Timer") {
        @Override
        public TimerAdapter create() {
            return NettyInterfaceAdapter.hashedWheel(100, TimeUnit.MILLISECONDS);
        }
    },
    /** Kafka {@code SystemTimer} (1 ms tick, 20 slots) behind {@code SystemTimerReaper}'s advanceClock loop. */
    KAFKA("Kafka SystemTimer") {
        @Override
        public TimerAdapter create() {
            return new KafkaTimerAdapter();
        }
    },
    /** Not a timer: one JCTools MPSC offer per start and per cancel, drained by one thread. The floor. */
    MPSC_FLOOR("MPSC floor") {
        @Override
        public TimerAdapter create() {
            return new MpscFloorAdapter();
        }

        @Override
        public boolean fires() {
            return false;
        }
    };

    private final String label;
    /** What the JVM needs to run it, or null if any JVM the benchmarks run on will do. */
    private final String requirement;

    Peer(String label) {
        this(label, null);
    }

    Peer(String label, String requirement) {
        this.label = label;
        this.requirement = requirement;
    }

    /**
     * @return a started timer of this kind
     * @throws UnsupportedOperationException if this JVM cannot run it ({@link #available()} is false)
     */
    public abstract TimerAdapter create();

    /** @return whether this JVM can run it: all can but the ForkJoinPool peers before JDK 25 */
    public boolean available() {
        return true;
    }

    /** @return the note that stands in for its figures in a run on a JVM that cannot run it */
    public String skipNote() {
        return label + " not run: " + (requirement == null ? "not available" : requirement) + "; this JVM is "
                + System.getProperty("java.version");
    }

    /** @return whether its timers ever run their task (the floor's do not) */
    public boolean fires() {
        return true;
    }

    /** @return a short human name for tables */
    public String label() {
        return label;
    }
}

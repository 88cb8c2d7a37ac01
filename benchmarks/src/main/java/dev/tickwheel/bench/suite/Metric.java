package dev.tickwheel.bench.suite;

/**
 * What a line of the table measures: its unit and which way is better. A {@link Target} names the metrics it
 * judges, so a target finds its figures by metric and not by a key spelled in two places.
 */
enum Metric {
    /** Scenario 1: schedule + cancel operations per microsecond (JMH throughput). */
    SCHEDULE_CANCEL("ops/µs", true),
    /** Scenario 1: bytes allocated per schedule + cancel (JMH's GC profiler). */
    ALLOCATION("B", false),
    /**
     * Scenario 1, the limit beside {@link #ALLOCATION}: the bytes per operation JMH's harness itself adds at that
     * peer's rate (an operation that allocates nothing, measured beside: its bytes per second over the peer's
     * operations per second). {@code Target.ALLOCATION} judges the allocation less this.
     */
    ALLOCATION_HARNESS("B", false),
    /** Scenario 1: CPU ns per schedule + cancel, producer and timer threads together. */
    CPU("ns", false),
    /** Scenario 2: million fires per second, 1M timers due within 100 ms. */
    EXPIRY("M fires/s", true),
    /** Scenario 2: bytes allocated per fired timer, all threads (JMH's GC profiler over the shot, per timer). */
    FIRE_ALLOCATION("B", false),
    /** Scenario 3: bytes of live objects retained per pending timer (the class histogram's total less its fillers). */
    RETAINED("B", false),
    /** Scenario 3: the class histogram's dead-space fillers per pending timer (JDK 19+), left out of RETAINED. */
    RETAINED_FILLERS("B", false),
    /** Scenario 3: the used heap after full collections, per pending timer: the same, with G1's slack; not judged. */
    RETAINED_HEAP_USED("B", false),
    /** Scenario 3: heap bytes left per timer once all are cancelled. */
    LEFT_AFTER_CANCEL("B", false),
    /** Scenario 4: firing lateness, median. */
    LATENESS_P50("ms", false),
    /** Scenario 4: firing lateness, 99th percentile. */
    LATENESS_P99("ms", false),
    /** Scenario 4: firing lateness, 99.9th percentile. */
    LATENESS_P999("ms", false),
    /**
     * Scenario 4: firing lateness p50 judged against the JDK's as issue 23 states it: the median of interleaved runs
     * of Tickwheel and the JDK's STPE; one row quiet and one with busy processes beside (keyed by their number).
     */
    JUDGED_LATENESS_P50("ms", false),
    /** Scenario 4: the same for p99. */
    JUDGED_LATENESS_P99("ms", false),
    /** Scenario 4: the same for p99.9. */
    JUDGED_LATENESS_P999("ms", false),
    /** Scenario 4: firing lateness, worst. */
    LATENESS_MAX("ms", false),
    /** Scenario 4: the timer's own lateness record ({@code TimerMetrics.lateness()}), where it keeps one. */
    OWN_LATENESS("ms", false),
    /** Scenario 4: probes that fired before they were due. */
    EARLY_FIRES("count", false),
    /** Scenario 5: CPU ms an idle timer burns in 5 s. */
    IDLE_CPU("ms", false),
    /** Scenario 6: schedule + cancel operations per microsecond at one number of pending timers. */
    SCALING("ops/µs", true),
    /** Scenario 6: how many times costlier an operation is at the most pending timers than at the fewest. */
    SCALING_COST("×", false),
    /** Scenario 7: the wheels alone, remove + add + advance per microsecond; a table of its own, by wheel. */
    WHEEL_ALONE("ops/µs", true),
    /** Scenario 8: the expiry shot by {@code FiringShots} (median of shots), million fires per second. */
    FIRING_RATE("M fires/s", true),
    /**
     * Scenario 8: the same shot in a fresh JVM, the median of its first shots (the JIT's warm-up, on the cores the
     * shot needs); shown beside the steady figure, never judged.
     */
    FIRING_WARMUP("M fires/s", true),
    /** Scenario 8: how long after the later of the latest deadline and the producers' end the last timer fired. */
    EXPIRY_LAG("ms", false),
    /**
     * Scenario 8: the limit beside the lag: how far past its window the shot's own CPU reaches at best on these cores
     * (the median of the shots' lag floors, see {@code FiringShots}); never judged.
     */
    EXPIRY_LAG_FLOOR("ms", false),
    /**
     * Scenario 8: CPU ns per fired timer in the shot, the timer's threads and the producers' loops together (the
     * work the cores must find room for; never judged, it explains the rate).
     */
    FIRING_CPU("ns", false),
    /**
     * Scenario 8: {@link #FIRING_CPU} split by thread (the row's pending field numbers the part: 1 the timer's owner
     * thread, 2 the threads that run the tasks, 3 the producers), so that each run shows where a peer's CPU per fire
     * goes; never judged.
     */
    FIRING_CPU_PART("ns", false),
    /**
     * Scenario 8: bytes per fired timer in the command queues' linked chunks (Tickwheel only): the shot's commands past
     * the rings, a chunk's reference each; never judged, it accounts for the allocation per fired timer above the
     * timer's own bytes.
     */
    FIRING_CHUNK_BYTES("B", false),
    /**
     * Scenario 8: the producers' scheduling loop in the shot, wall ms from the start to the last producer's end (the
     * median of the shots): the shot's window is this loop plus its longest delay, so it bounds the rate; never judged.
     */
    FIRING_LOOP("ms", false),
    /**
     * Scenario 8: the producers' own CPU in that loop, ms a shot, all producers together: a loop longer than this ran
     * on cores it shared with other threads (the timer's own among them); never judged.
     */
    FIRING_LOOP_CPU("ms", false),
    /** Scenario 8: the same shot with a given pool size (Tickwheel only), ms a shot. */
    WORKER_SWEEP("ms", false),
    /** Scenario 8: the slowest of the worker sweep's shots over the fastest. */
    SWEEP_SPREAD("×", false),
    /** Scenario 8: a 1,000-step CompletableFuture async chain on the executor, median ms, in the steady state. */
    CHAIN("ms", false),
    /**
     * Scenario 8: the same chain in the same JVMs after only {@code Settings.chainFirstWarmup} chains (a JVM's first
     * half second, the JIT still compiling); never judged, it keeps the warm-up's share in view.
     */
    CHAIN_FIRST("ms", false);

    /** The unit the table prints beside the figures. */
    final String unit;
    /** Whether a higher figure is the better one (throughput) rather than a lower one (cost, lateness). */
    final boolean higherIsBetter;

    Metric(String unit, boolean higherIsBetter) {
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
    }
}

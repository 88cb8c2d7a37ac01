package dev.tickwheel.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * The bytes allocated per operation of a JMH run with the GC profiler, as the median of its measurement
 * iterations, not their mean.
 *
 * <p>Why: JMH runs a benchmark's {@code @TearDown(Level.Trial)} inside the last iteration's window, and the GC
 * profiler counts what it allocates against that iteration's operations. Closing a timer with a million pending
 * timers allocates the list {@code shutdownNow} hands back (about 12 MB with its growth; Netty's {@code stop()} a
 * set): with a million pending, the last iteration of a schedule + cancel run read 50-56 bytes per operation against
 * 48.0-49.5 for the others, which moved the mean of 5 by 0.2 to 1.4 bytes (session 20,
 * {@code benchmarks/results/issue23-2026-11-27/session20/alloc-schedule-cancel.txt}). The operation measured does not
 * include the shutdown; the median leaves that one iteration out, for every peer alike.
 */
public final class AllocationPerOp {

    /** The GC profiler's secondary result: bytes allocated per operation, all threads. */
    public static final String NORM = "gc.alloc.rate.norm";

    private AllocationPerOp() {
    }

    /** @return the median over every measurement iteration (all forks), or null if the run has no GC profile */
    public static Double median(RunResult r) {
        List<Double> perIteration = new ArrayList<>();
        for (BenchmarkResult b : r.getBenchmarkResults()) {
            for (IterationResult i : b.getIterationResults()) {
                Result<?> alloc = i.getSecondaryResults().get(NORM);
                if (alloc != null) {
                    perIteration.add(alloc.getScore());
                }
            }
        }
        if (perIteration.isEmpty()) {
            Result<?> alloc = r.getSecondaryResults().get(NORM);
            return alloc == null ? null : alloc.getScore();
        }
        return median(perIteration);
    }

    /** @return the median of the values (the mean of the middle two for an even count) */
    public static double median(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("the median of no values");
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}

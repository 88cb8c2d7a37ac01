package dev.tickwheel.bench.suite;

import static dev.tickwheel.bench.suite.Format.figure;

import dev.tickwheel.bench.WheelKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;

/**
 * A figure is an average over iterations; when the iterations fall (or climb) by more than {@link #MAX_SPREAD}
 * times within one run, the peer was not in a steady state (typically a backlog growing until GC dominates) and a
 * note says so.
 */
final class SteadyState {
    static final double MAX_SPREAD = 3;

    private SteadyState() {
    }

    /** Notes a peer's JMH run whose iterations spread too far. */
    static void check(RunResult r, String what, Results results) {
        List<Double> scores = scores(r);
        if (unsteady(scores)) {
            StringBuilder it = new StringBuilder();
            for (double v : scores) {
                it.append(it.length() == 0 ? "" : ", ").append(figure(v));
            }
            results.note("not a steady state: " + what + ", " + JmhRunner.peer(r).label() + ": iterations " + it
                    + " " + r.getPrimaryResult().getScoreUnit());
        }
    }

    /** Notes a wheel-alone run whose iterations spread too far. */
    static void checkWheel(RunResult r, WheelKind kind, String pending, Results results) {
        List<Double> scores = scores(r);
        if (unsteady(scores)) {
            results.note("not a steady state: wheel alone at " + pending + ", " + kind.label() + ": iterations from "
                    + figure(Collections.min(scores)) + " to " + figure(Collections.max(scores)) + " ops/µs");
        }
    }

    private static List<Double> scores(RunResult r) {
        List<Double> scores = new ArrayList<>();
        for (BenchmarkResult b : r.getBenchmarkResults()) {
            for (IterationResult it : b.getIterationResults()) {
                scores.add(it.getPrimaryResult().getScore());
            }
        }
        return scores;
    }

    private static boolean unsteady(List<Double> scores) {
        if (scores.size() < 2) {
            return false;
        }
        double min = Collections.min(scores);
        return min > 0 && Collections.max(scores) / min > MAX_SPREAD;
    }
}

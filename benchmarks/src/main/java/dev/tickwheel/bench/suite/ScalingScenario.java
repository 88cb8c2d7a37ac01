package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.Peer;
import dev.tickwheel.bench.ScalingBenchmark;
import dev.tickwheel.bench.report.ScalingChart;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;

/**
 * Scenario 6 through JMH ({@link ScalingBenchmark}): schedule + cancel throughput at each number of pending
 * timers, the cost at the most over at the fewest, and the chart of it ({@code scaling.svg}).
 */
final class ScalingScenario extends Scenario {
    ScalingScenario() {
        super(6, "6 scaling", s -> s.scalingPeers.size() * s.scalingPending.length);
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) throws RunnerException, IOException {
        ScheduleCancelScenario.nettyIntakeCaveat(s.scalingPeers, results);
        for (RunResult r : jmh.run("scaling", ScalingBenchmark.class, "scheduleCancel",
                Map.of("peer", JmhRunner.names(s.scalingPeers), "pending", s.scalingPending), false, false)) {
            long pending = JmhRunner.pending(r);
            String at = ScalingChart.count(pending);
            results.row(Metric.SCALING, pending, 1, "scaling: schedule+cancel at " + at + " pending, 1 producer")
                    .put(JmhRunner.peer(r), r.getPrimaryResult().getScore());
            SteadyState.check(r, "scaling at " + at + " pending", results);
        }
        cost(s, results);
        Path json = s.out.resolve("scaling.json");
        Path svg = s.out.resolve("scaling.svg");
        ScalingChart.write(json, svg, RunEnvironment.chartSubtitle());
        System.out.println("wrote " + svg);
    }

    /** How many times costlier an operation is at the most pending timers than at the fewest, per peer. */
    private static void cost(Settings s, Results results) {
        long fewest = Long.parseLong(s.scalingPending[0]);
        long most = Long.parseLong(s.scalingPending[s.scalingPending.length - 1]);
        Row first = results.find(Metric.SCALING, fewest, 1);
        Row last = results.find(Metric.SCALING, most, 1);
        if (first == null || last == null) {
            return;
        }
        Row cost = results.row(Metric.SCALING_COST, "scaling: op cost at " + ScalingChart.count(most) + " / at "
                + ScalingChart.count(fewest));
        for (Map.Entry<Peer, Double> low : first.values().entrySet()) {
            Double hi = last.value(low.getKey());
            if (hi != null && hi > 0) {
                cost.put(low.getKey(), low.getValue() / hi);
            }
        }
    }
}

package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.WheelAloneBenchmark;
import dev.tickwheel.bench.WheelKind;
import dev.tickwheel.bench.report.ScalingChart;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;

/** Scenario 7 through JMH ({@link WheelAloneBenchmark}): Tickwheel's single-threaded wheel against Agrona's. */
final class WheelAloneScenario extends Scenario {
    WheelAloneScenario() {
        super(7, "7 wheel alone vs Agrona", s -> WheelKind.values().length * s.wheelPending.length);
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) throws RunnerException {
        for (RunResult r : jmh.run("wheel-alone", WheelAloneBenchmark.class, "removeAddAdvance",
                Map.of("pending", s.wheelPending), false, false)) {
            WheelKind kind = WheelKind.valueOf(r.getParams().getParam("wheel"));
            long pending = JmhRunner.pending(r);
            SteadyState.checkWheel(r, kind, ScalingChart.count(pending), results);
            results.putWheel(pending, kind, r.getPrimaryResult().getScore());
        }
    }
}

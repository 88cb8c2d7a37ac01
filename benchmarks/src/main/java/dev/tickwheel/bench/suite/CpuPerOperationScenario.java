package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.CpuPerOperation;
import dev.tickwheel.bench.report.ScalingChart;
import java.util.Map;

/** Scenario 1 in CPU time ({@link CpuPerOperation}, a child JVM per peer): CPU ns per schedule + cancel at each P. */
final class CpuPerOperationScenario extends Scenario {
    CpuPerOperationScenario() {
        super(1, "1 schedule + cancel, CPU per operation", s -> s.schedulePeers.size() * s.cpuPending.length);
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) {
        for (String pending : s.cpuPending) {
            long p = Long.parseLong(pending);
            for (Map<String, String> r : CpuPerOperation.runAll(s.schedulePeers, Integer.parseInt(pending),
                    s.cpuWarmup, s.cpuRounds)) {
                results.row(Metric.CPU, p, 1, "CPU per schedule+cancel (producer + timer threads), P="
                        + ScalingChart.count(p) + ", 1 producer").put(peer(r), Double.parseDouble(r.get("totalNs")));
            }
        }
    }
}

package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.AllocationPerOp;
import dev.tickwheel.bench.HarnessAllocation;
import dev.tickwheel.bench.Peer;
import dev.tickwheel.bench.ScheduleCancelBenchmark;
import dev.tickwheel.bench.report.ScalingChart;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;

/**
 * Scenario 1 through JMH ({@link ScheduleCancelBenchmark}): schedule + cancel throughput and, from the GC profiler,
 * the bytes allocated per operation, at each P and producer count.
 */
final class ScheduleCancelScenario extends Scenario {
    private static final String NETTY_INTAKE_CAVEAT = "Netty 100 ms moves at most 100,000 new timeouts from its queue"
            + " into the wheel per tick, so it takes in at most 1M timeouts/s; offered more, its queue grows until GC"
            + " dominates. Its schedule+cancel and CPU figures above that rate are not steady states: the CPU per"
            + " operation leaves out the intake work still queued at the end.";

    ScheduleCancelScenario() {
        super(1, "1 schedule + cancel", s -> s.schedulePeers.size() * s.schedulePending.length
                * Settings.methodCount(s.scheduleMethods));
    }

    /** Notes, once, why Netty 100 ms's figures under a heavy load are not steady states, if it is among the peers. */
    static void nettyIntakeCaveat(List<Peer> peers, Results results) {
        if (peers.contains(Peer.NETTY_100MS)) {
            results.noteOnce(NETTY_INTAKE_CAVEAT);
        }
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) throws RunnerException {
        nettyIntakeCaveat(s.schedulePeers, results);
        Map<Integer, Double> harness = harnessBytesPerSecond(s, jmh);
        for (RunResult r : jmh.run("schedule-cancel", ScheduleCancelBenchmark.class, s.scheduleMethods,
                Map.of("peer", JmhRunner.names(s.schedulePeers), "pending", s.schedulePending), true, false)) {
            Peer peer = JmhRunner.peer(r);
            long pending = JmhRunner.pending(r);
            int threads = r.getParams().getThreads();
            String what = "P=" + ScalingChart.count(pending) + ", " + Format.producers(threads);
            results.row(Metric.SCHEDULE_CANCEL, pending, threads, "schedule+cancel, " + what)
                    .put(peer, r.getPrimaryResult().getScore());
            SteadyState.check(r, "schedule+cancel, " + what, results);
            Double alloc = AllocationPerOp.median(r); // not the mean: the trial's teardown lands in one iteration
            if (alloc != null) {
                results.row(Metric.ALLOCATION, pending, threads, "allocated per schedule+cancel, " + what)
                        .put(peer, alloc);
                Double bytesPerSecond = harness.get(threads);
                if (bytesPerSecond != null) {
                    double opsPerSecond = r.getPrimaryResult().getScore() * 1e6; // ops/µs
                    results.row(Metric.ALLOCATION_HARNESS, pending, threads, "of which JMH's harness (an operation"
                            + " that allocates nothing: " + Format.figure(bytesPerSecond / 1024) + " KB/s, at the"
                            + " peer's rate), " + what).put(peer, bytesPerSecond / opsPerSecond);
                }
            }
        }
    }

    /**
     * The harness's own allocation, bytes per second by thread count: {@link HarnessAllocation} with the GC profiler
     * and the same methods (the median over iterations of bytes per operation times operations per second).
     */
    private static Map<Integer, Double> harnessBytesPerSecond(Settings s, JmhRunner jmh) throws RunnerException {
        Map<Integer, Double> perThreads = new TreeMap<>();
        for (RunResult r : jmh.run("harness-allocation", HarnessAllocation.class, s.scheduleMethods, Map.of(), true,
                false)) {
            List<Double> each = new ArrayList<>();
            for (BenchmarkResult b : r.getBenchmarkResults()) {
                for (IterationResult i : b.getIterationResults()) {
                    Result<?> norm = i.getSecondaryResults().get(AllocationPerOp.NORM);
                    if (norm != null) {
                        each.add(norm.getScore() * i.getPrimaryResult().getScore() * 1e6);
                    }
                }
            }
            if (!each.isEmpty()) {
                perThreads.put(r.getParams().getThreads(), AllocationPerOp.median(each));
            }
        }
        return perThreads;
    }
}

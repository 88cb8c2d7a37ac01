package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.AllocationPerOp;
import dev.tickwheel.bench.Peer;
import dev.tickwheel.bench.ScheduleCancelBenchmark;
import dev.tickwheel.bench.report.ScalingChart;
import java.util.List;
import java.util.Map;
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
            }
        }
    }
}

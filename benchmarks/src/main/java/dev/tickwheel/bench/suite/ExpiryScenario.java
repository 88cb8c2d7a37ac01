package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.AllocationPerOp;
import dev.tickwheel.bench.ExpiryBenchmark;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;

/**
 * Scenario 2 through JMH ({@link ExpiryBenchmark}, single shots): 1M timers due within 100 ms, as millions of fires
 * per second, for each producer count, and the bytes allocated per fired timer (JMH's GC profiler: all threads'
 * allocation over the shot, per operation, where each producer's share of the shot is one operation).
 */
final class ExpiryScenario extends Scenario {
    ExpiryScenario() {
        super(2, "2 expiry", s -> s.expiryPeers.size() * Settings.methodCount(s.expiryMethods));
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) throws RunnerException {
        for (RunResult r : jmh.run("expiry", ExpiryBenchmark.class, s.expiryMethods,
                Map.of("peer", JmhRunner.names(s.expiryPeers)), true, true)) {
            int threads = r.getParams().getThreads();
            double ms = r.getPrimaryResult().getScore();
            String producers = Format.producers(threads);
            results.row(Metric.EXPIRY, 0, threads, "expiry, 1M timers due within 100 ms, " + producers)
                    .put(JmhRunner.peer(r), ExpiryBenchmark.TIMERS / (ms / 1000.0) / 1e6);
            Double alloc = AllocationPerOp.median(r); // not the mean: the trial's teardown lands in one shot
            if (alloc != null) {
                results.row(Metric.FIRE_ALLOCATION, 0, threads, "allocated per fired timer (expiry), " + producers)
                        .put(JmhRunner.peer(r), alloc / (ExpiryBenchmark.TIMERS / (double) threads));
            }
        }
    }
}

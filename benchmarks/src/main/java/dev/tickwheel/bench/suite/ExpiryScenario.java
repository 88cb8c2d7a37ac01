package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.ExpiryBenchmark;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;

/**
 * Scenario 2 through JMH ({@link ExpiryBenchmark}, single shots): 1M timers due within 100 ms, as millions of fires
 * per second, for each producer count.
 */
final class ExpiryScenario extends Scenario {
    ExpiryScenario() {
        super(2, "2 expiry", s -> s.expiryPeers.size() * Settings.methodCount(s.expiryMethods));
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) throws RunnerException {
        for (RunResult r : jmh.run("expiry", ExpiryBenchmark.class, s.expiryMethods,
                Map.of("peer", JmhRunner.names(s.expiryPeers)), false, true)) {
            int threads = r.getParams().getThreads();
            double ms = r.getPrimaryResult().getScore();
            results.row(Metric.EXPIRY, 0, threads, "expiry, 1M timers due within 100 ms, " + Format.producers(threads))
                    .put(JmhRunner.peer(r), ExpiryBenchmark.TIMERS / (ms / 1000.0) / 1e6);
        }
    }
}

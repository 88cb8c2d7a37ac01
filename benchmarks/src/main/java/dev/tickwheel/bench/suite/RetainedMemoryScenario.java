package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.Peer;
import dev.tickwheel.bench.RetainedMemory;
import java.util.Map;

/** Scenario 3 ({@link RetainedMemory}, a child JVM per peer): heap per pending timer, and what cancelling leaves. */
final class RetainedMemoryScenario extends Scenario {
    RetainedMemoryScenario() {
        super(3, "3 retained memory", s -> s.memoryPeers.size());
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) {
        for (Map<String, String> r : RetainedMemory.runAll(s.memoryPeers, s.memoryTimers)) {
            Peer peer = peer(r);
            results.row(Metric.RETAINED, "heap per pending timer (1M, 1 h out)")
                    .put(peer, Double.parseDouble(r.get("bytesPerPending")));
            results.row(Metric.LEFT_AFTER_CANCEL, "heap left per timer after cancelling all")
                    .put(peer, Double.parseDouble(r.get("bytesLeftPerCancelled")));
        }
    }
}

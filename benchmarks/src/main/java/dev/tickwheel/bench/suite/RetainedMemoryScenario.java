package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.Peer;
import dev.tickwheel.bench.RetainedMemory;
import java.util.Map;

/**
 * Scenario 3 ({@link RetainedMemory}, a child JVM per peer): live objects per pending timer (judged), the used heap
 * and the histogram's dead-space fillers beside it, and what cancelling leaves.
 */
final class RetainedMemoryScenario extends Scenario {
    RetainedMemoryScenario() {
        super(3, "3 retained memory", s -> s.memoryPeers.size());
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) {
        for (Map<String, String> r : RetainedMemory.runAll(s.memoryPeers, s.memoryTimers)) {
            Peer peer = peer(r);
            results.row(Metric.RETAINED, "live objects per pending timer (1M, 1 h out; the class histogram)")
                    .put(peer, Double.parseDouble(r.get("bytesPerPending")));
            results.row(Metric.RETAINED_HEAP_USED, "used heap per pending timer, the same timers (G1's slack included)")
                    .put(peer, Double.parseDouble(r.get("heapUsedPerPending")));
            results.row(Metric.RETAINED_FILLERS, "the histogram's dead-space fillers per pending timer (JDK 19+; "
                    + "not objects, left out of the live figure)")
                    .put(peer, Double.parseDouble(r.get("fillerBytesPerPending")));
            results.row(Metric.LEFT_AFTER_CANCEL, "live objects left per timer after cancelling all")
                    .put(peer, Double.parseDouble(r.get("bytesLeftPerCancelled")));
        }
    }
}

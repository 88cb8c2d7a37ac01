package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.IdleCpu;
import dev.tickwheel.bench.Peer;
import java.util.Map;

/** Scenario 5 ({@link IdleCpu}, one child JVM for all peers): CPU an idle timer burns, and its threads (noted). */
final class IdleCpuScenario extends Scenario {
    IdleCpuScenario() {
        super(5, "5 idle CPU", s -> 1);
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) {
        for (Map<String, String> r : IdleCpu.runAll(s.idlePeers)) {
            Peer peer = peer(r);
            results.row(Metric.IDLE_CPU, "idle CPU in 5 s, one timer 1 h out")
                    .put(peer, Double.parseDouble(r.get("cpuMs")));
            results.note("idle threads of " + peer.label() + ": " + r.get("threads"));
        }
    }
}

package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.FiringLateness;
import dev.tickwheel.bench.Peer;
import java.util.Map;

/**
 * Scenario 4 ({@link FiringLateness}, a child JVM per peer): how late probe timers fire beside a load of starts and
 * cancels, and how many fire early; early and missing probes are also noted.
 */
final class LatenessScenario extends Scenario {
    private static final String UNDER = " (100k start+cancel/s beside)";

    LatenessScenario() {
        super(4, "4 firing lateness", s -> s.latenessPeers.size());
    }

    @Override
    void run(Settings s, JmhRunner jmh, Results results) {
        for (Map<String, String> r : FiringLateness.runAll(s.latenessPeers, s.latenessWarmup, s.latenessSeconds)) {
            Peer peer = peer(r);
            put(results, Metric.LATENESS_P50, "lateness p50" + UNDER, peer, r.get("p50ms"));
            put(results, Metric.LATENESS_P99, "lateness p99" + UNDER, peer, r.get("p99ms"));
            put(results, Metric.LATENESS_P999, "lateness p99.9" + UNDER, peer, r.get("p999ms"));
            put(results, Metric.LATENESS_MAX, "lateness max" + UNDER, peer, r.get("maxms"));
            put(results, Metric.EARLY_FIRES, "early fires (of the probes above)", peer, r.get("early"));
            if (!"-".equals(r.getOrDefault("ownP50ms", "-"))) {
                // The timer's own record of the same probes (its lateness histogram), one row per percentile.
                String own = "the timer's own record (TimerMetrics.lateness()) of the probes above: ";
                results.row(Metric.OWN_LATENESS, 50, 0, own + "p50").put(peer, Double.parseDouble(r.get("ownP50ms")));
                results.row(Metric.OWN_LATENESS, 99, 0, own + "p99").put(peer, Double.parseDouble(r.get("ownP99ms")));
                results.row(Metric.OWN_LATENESS, 999, 0, own + "p99.9")
                        .put(peer, Double.parseDouble(r.get("ownP999ms")));
            }
            if (!"0".equals(r.get("early"))) {
                results.note(peer.label() + ": " + r.get("early") + " of " + r.get("probes") + " lateness probes"
                        + " fired early, by up to " + r.get("maxEarlyMs") + " ms");
            }
            if (!"0".equals(r.get("missing"))) {
                results.note(peer.label() + ": " + r.get("missing") + " lateness probes never fired");
            }
        }
    }

    private static void put(Results results, Metric metric, String label, Peer peer, String value) {
        results.row(metric, label).put(peer, Double.parseDouble(value));
    }
}

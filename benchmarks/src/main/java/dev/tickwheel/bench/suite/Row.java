package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.Peer;
import java.util.EnumMap;
import java.util.Map;

/** One line of the table: a metric at one setting, a figure per peer that was measured (in {@link Peer} order). */
record Row(Metric metric, String label, Map<Peer, Double> values) {

    Row(Metric metric, String label) {
        this(metric, label, new EnumMap<>(Peer.class));
    }

    void put(Peer p, double v) {
        values.put(p, v);
    }

    /** @return the peer's figure, or null if it was not measured */
    Double value(Peer p) {
        return values.get(p);
    }

    boolean has(Peer p) {
        return values.containsKey(p);
    }

    /** How many times better Tickwheel is than the peer, or NaN when either figure is missing or zero. */
    double advantage(Peer p) {
        Double tw = values.get(Peer.TICKWHEEL);
        Double other = values.get(p);
        if (tw == null || other == null) {
            return Double.NaN;
        }
        double num = metric.higherIsBetter ? tw : other;
        double den = metric.higherIsBetter ? other : tw;
        return den == 0 ? Double.NaN : num / den;
    }
}

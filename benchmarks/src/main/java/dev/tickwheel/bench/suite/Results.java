package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.Peer;
import dev.tickwheel.bench.WheelKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one run: the table's rows in the order the scenarios produced them, the wheel-alone figures, and
 * the notes that explain surprising figures. Filled by the scenarios, read by {@link Verdicts} and {@link Report}.
 */
final class Results {
    /**
     * Identifies a row: the metric, the number of pending timers it was taken at and the number of producers
     * (0 where the scenario has no such setting).
     */
    private record Key(Metric metric, long pending, int producers) {
    }

    private final Map<Key, Row> rows = new LinkedHashMap<>();
    private final Map<Long, Map<WheelKind, Double>> wheel = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    /** @return the row of the metric at that setting, created with the label if it is the first figure for it */
    Row row(Metric metric, long pending, int producers, String label) {
        return rows.computeIfAbsent(new Key(metric, pending, producers), k -> new Row(metric, label));
    }

    /** @return the one row of a metric that has no setting, created with the label if it is the first figure */
    Row row(Metric metric, String label) {
        return row(metric, 0, 0, label);
    }

    /** @return the row of the metric at that setting, or null if nothing was measured there */
    Row find(Metric metric, long pending, int producers) {
        return rows.get(new Key(metric, pending, producers));
    }

    /** @return the row of {@code other} at the same setting (pending, producers) as {@code r}, or null */
    Row twin(Row r, Metric other) {
        for (Map.Entry<Key, Row> e : rows.entrySet()) {
            if (e.getValue() == r) {
                return find(other, e.getKey().pending(), e.getKey().producers());
            }
        }
        return null;
    }

    /** @return the one row of a metric that has no setting, or null */
    Row find(Metric metric) {
        return find(metric, 0, 0);
    }

    /** @return the peer's figure in the metric's one row, or null */
    Double value(Metric metric, Peer p) {
        Row r = find(metric);
        return r == null ? null : r.value(p);
    }

    /** @return every row, in the order they were first measured */
    Collection<Row> rows() {
        return Collections.unmodifiableCollection(rows.values());
    }

    /** @return the rows of the given metrics, in the order they were first measured */
    List<Row> rows(Collection<Metric> metrics) {
        List<Row> out = new ArrayList<>();
        for (Row r : rows.values()) {
            if (metrics.contains(r.metric())) {
                out.add(r);
            }
        }
        return out;
    }

    void putWheel(long pending, WheelKind kind, double opsPerMicro) {
        wheel.computeIfAbsent(pending, k -> new EnumMap<>(WheelKind.class)).put(kind, opsPerMicro);
    }

    /** @return the wheel-alone figures by pending timers, in the order they were measured */
    Map<Long, Map<WheelKind, Double>> wheel() {
        return Collections.unmodifiableMap(wheel);
    }

    /** @return the wheel's figure at that many pending timers, or null */
    Double wheel(long pending, WheelKind kind) {
        Map<WheelKind, Double> m = wheel.get(pending);
        return m == null ? null : m.get(kind);
    }

    void note(String note) {
        notes.add(note);
    }

    /** Adds the note unless it is already there. */
    void noteOnce(String note) {
        if (!notes.contains(note)) {
            notes.add(note);
        }
    }

    List<String> notes() {
        return Collections.unmodifiableList(notes);
    }
}

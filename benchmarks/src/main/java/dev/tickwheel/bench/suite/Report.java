package dev.tickwheel.bench.suite;

import static dev.tickwheel.bench.suite.Format.figure;

import dev.tickwheel.bench.Peer;
import dev.tickwheel.bench.WheelKind;
import dev.tickwheel.bench.report.ScalingChart;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Renders a run's {@link Results} as Markdown: the table of Tickwheel against every peer with ratios, the wheel
 * alone against Agrona, the targets with their {@link Verdicts}, and the notes. A missing figure reads "-".
 */
final class Report {
    private Report() {
    }

    static String render(Results results) {
        StringBuilder sb = new StringBuilder();
        table(results, sb);
        wheelTable(results, sb);
        sb.append("\nTargets (issues 5, 12 and 23):\n\n");
        boolean any = false;
        for (Verdicts.Verdict v : Verdicts.judge(results)) {
            sb.append("- ").append(v.line()).append('\n');
            any = true;
        }
        if (!any) {
            sb.append("- none measured in this run\n");
        }
        if (!results.notes().isEmpty()) {
            sb.append("\nNotes:\n\n");
            for (String n : results.notes()) {
                sb.append("- ").append(n).append('\n');
            }
        }
        return sb.toString();
    }

    /** A column per peer measured anywhere, in {@link Peer} order; Tickwheel's always, since every ratio is to it. */
    private static void table(Results results, StringBuilder sb) {
        if (results.rows().isEmpty()) {
            return;
        }
        Set<Peer> columns = new LinkedHashSet<>();
        for (Peer p : Peer.values()) {
            for (Row r : results.rows()) {
                if (p == Peer.TICKWHEEL || r.has(p)) {
                    columns.add(p);
                }
            }
        }
        sb.append("Figures, and in brackets Tickwheel's advantage over the peer: (2.0x) = Tickwheel is 2.0 times "
                + "better (higher throughput, or lower cost); (0.5x) = the peer is 2 times better.\n\n");
        sb.append("| scenario | unit |");
        for (Peer p : columns) {
            sb.append(' ').append(p.label()).append(" |");
        }
        sb.append("\n|---|---|");
        sb.append("---:|".repeat(columns.size()));
        sb.append('\n');
        for (Row r : results.rows()) {
            Metric m = r.metric();
            sb.append("| ").append(r.label()).append(" | ").append(m.unit).append(m.higherIsBetter ? " ↑" : " ↓")
                    .append(" |");
            for (Peer p : columns) {
                Double v = r.value(p);
                sb.append(' ').append(figure(v));
                double adv = r.advantage(p);
                if (p != Peer.TICKWHEEL && !Double.isNaN(adv)) {
                    sb.append(" (").append(String.format(Locale.ROOT, "%.1f", adv)).append("x)");
                }
                sb.append(" |");
            }
            sb.append('\n');
        }
    }

    private static void wheelTable(Results results, StringBuilder sb) {
        if (results.wheel().isEmpty()) {
            return;
        }
        sb.append("\nThe wheel alone, single-threaded, remove + add + advance (")
                .append(Metric.WHEEL_ALONE.unit).append(" ↑):\n\n");
        sb.append("| pending | Tickwheel TimingWheel | Agrona DeadlineTimerWheel | Tickwheel / Agrona |\n");
        sb.append("|---|---:|---:|---:|\n");
        for (Map.Entry<Long, Map<WheelKind, Double>> e : results.wheel().entrySet()) {
            Double tw = e.getValue().get(WheelKind.TICKWHEEL_WHEEL);
            Double ag = e.getValue().get(WheelKind.AGRONA);
            sb.append("| ").append(ScalingChart.count(e.getKey())).append(" | ").append(figure(tw)).append(" | ")
                    .append(figure(ag)).append(" | ")
                    .append(Format.ratio(tw == null || ag == null ? Double.NaN : tw / ag))
                    .append(" |\n");
        }
    }
}

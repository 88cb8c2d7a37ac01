package dev.tickwheel.bench.report;

import dev.tickwheel.bench.Peer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Draws throughput against pending timers, one line per peer, from the JMH JSON of {@code ScalingBenchmark}
 * (plain SVG, no library): x is the number of pending timers on a log scale, y the schedule + cancel operations per
 * microsecond from zero.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.report.ScalingChart benchmarks/results/scaling.json benchmarks/results/scaling.svg ["subtitle"]
 * </pre>
 */
public final class ScalingChart {
    private static final int W = 780;
    private static final int H = 470;
    private static final int LEFT = 70;
    private static final int RIGHT = 200;
    private static final int TOP = 62;
    private static final int BOTTOM = 58;

    private ScalingChart() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: ScalingChart <scaling.json> <out.svg> [subtitle]");
        }
        String subtitle = args.length > 2 ? args[2] : "";
        write(Paths.get(args[0]), Paths.get(args[1]), subtitle);
        System.out.println("wrote " + args[1]);
    }

    /** Reads the JMH JSON and writes the SVG. */
    public static void write(Path json, Path svg, String subtitle) throws IOException {
        Map<Peer, TreeMap<Long, Double>> series = read(json);
        if (series.isEmpty()) {
            throw new IllegalArgumentException(json + " holds no ScalingBenchmark results with peer and pending");
        }
        Files.createDirectories(svg.toAbsolutePath().getParent());
        Files.write(svg, render(series, subtitle).getBytes(StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    static Map<Peer, TreeMap<Long, Double>> read(Path json) throws IOException {
        Object root = Json.parse(new String(Files.readAllBytes(json), StandardCharsets.UTF_8));
        Map<Peer, TreeMap<Long, Double>> series = new EnumMap<>(Peer.class);
        for (Object o : (List<Object>) root) {
            Map<String, Object> run = (Map<String, Object>) o;
            String benchmark = (String) run.get("benchmark");
            Map<String, Object> params = (Map<String, Object>) run.get("params");
            if (!benchmark.endsWith("ScalingBenchmark.scheduleCancel") || params == null) {
                continue;
            }
            Peer peer = Peer.valueOf((String) params.get("peer"));
            long pending = Long.parseLong((String) params.get("pending"));
            double score = ((Number) ((Map<String, Object>) run.get("primaryMetric")).get("score")).doubleValue();
            series.computeIfAbsent(peer, p -> new TreeMap<>()).put(pending, score);
        }
        return series;
    }

    static String render(Map<Peer, TreeMap<Long, Double>> series, String subtitle) {
        long minX = Long.MAX_VALUE;
        long maxX = Long.MIN_VALUE;
        double maxY = 0;
        for (TreeMap<Long, Double> s : series.values()) {
            minX = Math.min(minX, s.firstKey());
            maxX = Math.max(maxX, s.lastKey());
            for (double v : s.values()) {
                maxY = Math.max(maxY, v);
            }
        }
        double lo = Math.floor(Math.log10(minX));
        double hi = Math.max(lo + 1, Math.ceil(Math.log10(maxX)));
        double step = niceStep(maxY / 5);
        double top = Math.max(step, Math.ceil(maxY * 1.05 / step) * step);
        int plotW = W - LEFT - RIGHT;
        int plotH = H - TOP - BOTTOM;

        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", W, H, W, H));
        sb.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, H));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">"
                + "Schedule + cancel throughput against pending timers</text>%n", LEFT));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"44\" fill=\"#555\">%s</text>%n", LEFT,
                escape("one producer; higher is better" + (subtitle.isEmpty() ? "" : "; " + subtitle))));
        // y grid and labels
        for (double y = 0; y <= top + 1e-9; y += step) {
            double py = TOP + plotH - y / top * plotH;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                    LEFT, py, LEFT + plotW, py));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT - 6, py + 4, trim(y)));
        }
        // x grid and labels, one per decade
        for (double d = lo; d <= hi + 1e-9; d++) {
            double px = LEFT + (d - lo) / (hi - lo) * plotW;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    px, TOP, px, TOP + plotH));
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    px, TOP + plotH + 18, count(Math.round(Math.pow(10, d)))));
        }
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#333\"/>%n", LEFT, TOP, plotW, plotH));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">pending timers "
                + "(log scale)</text>%n", LEFT + plotW / 2, H - 16));
        sb.append(String.format(Locale.ROOT, "<text transform=\"translate(18,%d) rotate(-90)\" "
                + "text-anchor=\"middle\">operations per µs</text>%n", TOP + plotH / 2));
        int legendY = TOP + 8;
        for (Map.Entry<Peer, TreeMap<Long, Double>> e : series.entrySet()) {
            Peer peer = e.getKey();
            String color = color(peer);
            String width = peer == Peer.TICKWHEEL ? "3" : "2";
            String dash = peer == Peer.MPSC_FLOOR ? " stroke-dasharray=\"6,4\"" : "";
            List<String> points = new ArrayList<>();
            StringBuilder marks = new StringBuilder();
            for (Map.Entry<Long, Double> p : e.getValue().entrySet()) {
                double px = LEFT + (Math.log10(p.getKey()) - lo) / (hi - lo) * plotW;
                double py = TOP + plotH - p.getValue() / top * plotH;
                points.add(String.format(Locale.ROOT, "%.1f,%.1f", px, py));
                marks.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\">"
                        + "<title>%s, %s pending: %s ops/µs</title></circle>%n", px, py, color, escape(peer.label()),
                        count(p.getKey()), trim(p.getValue())));
            }
            sb.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s "
                    + "points=\"%s\"/>%n", color, width, dash, String.join(" ", points)));
            sb.append(marks);
            int lx = LEFT + plotW + 16;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"%s\"%s/>%n", lx, legendY, lx + 24, legendY, color, width, dash));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", lx + 30, legendY + 4,
                    escape(peer.label())));
            legendY += 20;
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static String color(Peer p) {
        switch (p) {
            case TICKWHEEL:
                return "#d62728";
            case TICKWHEEL_INLINE:
                return "#ff9896";
            case JDK_STPE:
                return "#1f77b4";
            case JDK_FORKJOIN:
                return "#17becf";
            case JDK_FORKJOIN_COMMON:
                return "#9edae5";
            case NETTY_1MS:
                return "#2ca02c";
            case NETTY_100MS:
                return "#8fd16f";
            case KAFKA:
                return "#9467bd";
            default:
                return "#7f7f7f";
        }
    }

    private static double niceStep(double raw) {
        if (raw <= 0) {
            return 1;
        }
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / mag;
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    }

    /** @return 1000 as "1k", 1000000 as "1M" */
    public static String count(long n) {
        if (n >= 1_000_000 && n % 1_000_000 == 0) {
            return n / 1_000_000 + "M";
        }
        if (n >= 1_000 && n % 1_000 == 0) {
            return n / 1_000 + "k";
        }
        return Long.toString(n);
    }

    private static String trim(double v) {
        if (v == Math.rint(v)) {
            return Long.toString((long) v);
        }
        return v >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

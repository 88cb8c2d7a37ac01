package dev.tickwheel.bench.suite;

import static dev.tickwheel.bench.suite.Format.figure;
import static dev.tickwheel.bench.suite.Format.limit;
import static dev.tickwheel.bench.suite.Format.ratio;

import dev.tickwheel.bench.ExpiryBenchmark;
import dev.tickwheel.bench.Peer;
import dev.tickwheel.bench.WheelKind;
import dev.tickwheel.bench.report.ScalingChart;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Judges a run's figures against the {@link Target}s: each target whose metrics were measured gets one line, met
 * or missed with its figure, or "not judged" when Tickwheel's own figure is missing. A comparison peer that was not
 * run leaves its target out. A few context lines (CPU time, expiry with tasks on the owner) follow the throughput
 * targets they qualify.
 */
final class Verdicts {
    /** How a target came out. */
    enum Outcome {
        MET("MET: "),
        MISSED("MISSED: "),
        NOT_JUDGED("NOT JUDGED: "),
        /** Not a verdict: a figure that qualifies the target's verdict. */
        CONTEXT("  ");

        private final String prefix;

        Outcome(String prefix) {
            this.prefix = prefix;
        }
    }

    /** One line of the targets list. */
    record Verdict(Target target, Outcome outcome, String text) {
        String line() {
            return outcome.prefix + text;
        }
    }

    private static final List<Peer> TICKWHEELS = List.of(Peer.TICKWHEEL, Peer.TICKWHEEL_INLINE,
            Peer.TICKWHEEL_1MS, Peer.TICKWHEEL_1MS_INLINE);
    private static final String NO_TICKWHEEL = "no Tickwheel figure";

    private final Results results;
    private final List<Verdict> out = new ArrayList<>();

    private Verdicts(Results results) {
        this.results = results;
    }

    /** @return the verdicts and context lines, in the order the report lists them */
    static List<Verdict> judge(Results results) {
        Verdicts v = new Verdicts(results);
        v.throughput(Target.THROUGHPUT_VS_NETTY_1MS, "in scenarios 1 and 2");
        v.throughput(Target.THROUGHPUT_VS_NETTY_100MS, "in scenarios 1 and 2");
        v.cpuContext();
        v.expiryContext();
        v.throughput(Target.EXPIRY_VS_NETTY_1MS, "in expiry, default pool");
        v.expiryCeiling();
        v.cpuVsNetty();
        v.allocation(Target.ALLOCATION, "allocation <= " + limit(Target.ALLOCATION.limit()) + " B per schedule+cancel");
        v.highest(Target.FIRE_ALLOCATION, "allocation <= " + limit(Target.FIRE_ALLOCATION.limit())
                + " B per fired timer (the timer included), default pool");
        v.fireAllocationContext();
        v.atMost(Target.RETAINED, row -> "retained <= " + limit(Target.RETAINED.limit()) + " B per pending timer",
                tw -> figure(tw) + " B (after cancelling all: "
                        + figure(results.value(Metric.LEFT_AFTER_CANCEL, Peer.TICKWHEEL)) + " B per timer left)");
        v.earlyFires();
        v.lateness(Target.LATENESS_P50_VS_JDK, "p50", Metric.LATENESS_P50, Metric.JUDGED_LATENESS_P50);
        v.lateness(Target.LATENESS_P99_VS_JDK, "p99", Metric.LATENESS_P99, Metric.JUDGED_LATENESS_P99);
        v.lateness(Target.LATENESS_P999_VS_JDK, "p99.9", Metric.LATENESS_P999, Metric.JUDGED_LATENESS_P999);
        v.atMost(Target.IDLE_CPU, row -> "idle CPU <= " + limit(Target.IDLE_CPU.limit()) + " ms in 5 s",
                tw -> figure(tw) + " ms (Netty 1 ms: " + figure(results.value(Metric.IDLE_CPU, Peer.NETTY_1MS))
                        + " ms)");
        v.atMost(Target.SCALING_COST, row -> row.label() + " <= " + limit(Target.SCALING_COST.limit()),
                tw -> figure(tw) + "x");
        v.wheelVsAgrona();
        v.wheelNoCollapse();
        v.throughput(Target.FIRING_VS_NETTY_1MS, "in the expiry shot (FiringShots), default builder");
        v.firingWindow();
        v.worst(Target.EXPIRY_LAG, "the last fire of the shot within " + limit(Target.EXPIRY_LAG.limit())
                + " ms of its latest deadline", " ms");
        v.lagFloor();
        v.worst(Target.SWEEP_SPREAD, "the worker sweep (1 to 32 workers) within " + limit(Target.SWEEP_SPREAD.limit())
                + "x of its fastest shot", "x");
        v.versus(Target.CHAIN_VS_JDK, "a 1,000-step CompletableFuture async chain no slower than on the JDK's"
                + " executor of the same size", " ms");
        return v.out;
    }

    private void add(Target t, boolean met, String text) {
        out.add(new Verdict(t, met ? Outcome.MET : Outcome.MISSED, text));
    }

    private void notJudged(Target t, String claim, String why) {
        out.add(new Verdict(t, Outcome.NOT_JUDGED, claim + ": " + why));
    }

    /** Throughput at least the limit times the Netty peer's, over every figure both have. */
    private void throughput(Target t, String where) {
        Peer netty = t.versus();
        String claim = "throughput >= " + limit(t.limit()) + "x " + netty.label() + " " + where;
        String worst = null;
        double min = Double.POSITIVE_INFINITY;
        int n = 0;
        List<String> missing = new ArrayList<>();
        for (Row r : results.rows(t.metrics())) {
            if (r.has(netty) && !r.has(Peer.TICKWHEEL)) {
                missing.add(r.label());
            }
            double a = r.advantage(netty);
            if (!Double.isNaN(a)) {
                n++;
                if (a < min) {
                    min = a;
                    worst = r.label();
                }
            }
        }
        if (!missing.isEmpty()) {
            notJudged(t, claim, NO_TICKWHEEL + " at " + String.join("; ", missing));
        } else if (n > 0) {
            add(t, min >= t.limit(), claim + " (" + n + " figures): lowest ratio " + ratio(min) + " at " + worst);
        }
    }

    /** CPU time per schedule + cancel against both Netty peers: filed under the first throughput target. */
    private void cpuContext() {
        for (Row r : results.rows(List.of(Metric.CPU))) {
            out.add(new Verdict(Target.THROUGHPUT_VS_NETTY_1MS, Outcome.CONTEXT, "(CPU time, the steadier figure on "
                    + "shared cores: " + r.label().replace("CPU per ", "") + ": Tickwheel "
                    + figure(r.value(Peer.TICKWHEEL)) + " ns, " + ratio(r.advantage(Peer.NETTY_1MS)) + " Netty 1 ms, "
                    + ratio(r.advantage(Peer.NETTY_100MS)) + " Netty 100 ms)"));
        }
    }

    /** Expiry with Tickwheel's tasks on the owner thread against each Netty peer, filed under its target. */
    private void expiryContext() {
        Row inline = results.find(Metric.EXPIRY, 0, 1);
        if (inline == null || !inline.has(Peer.TICKWHEEL_INLINE)) {
            return;
        }
        for (Target t : List.of(Target.THROUGHPUT_VS_NETTY_1MS, Target.THROUGHPUT_VS_NETTY_100MS)) {
            Double a = inline.value(Peer.TICKWHEEL_INLINE);
            Double b = inline.value(t.versus());
            if (b != null) {
                out.add(new Verdict(t, Outcome.CONTEXT, "(expiry with Tickwheel's tasks on the owner thread, as Netty"
                        + " runs them: " + ratio(a / b) + " " + t.versus().label() + ", 1 producer)"));
            }
        }
    }

    /**
     * The expiry shot's physical limit, filed under the expiry target: its timers' delays reach {@code WINDOW_MS - 1}
     * ms, so no timer that never fires early ends a shot sooner, whatever its speed.
     */
    private void expiryCeiling() {
        Target t = Target.EXPIRY_VS_NETTY_1MS;
        double ceiling = ExpiryBenchmark.TIMERS / ((ExpiryBenchmark.WINDOW_MS - 1) / 1000.0) / 1e6;
        for (Row r : results.rows(t.metrics())) {
            Double netty = r.value(t.versus());
            if (netty != null) {
                out.add(new Verdict(t, Outcome.CONTEXT, "(the limit, " + r.label().replace("expiry, ", "") + ": a "
                        + "shot lasts at least its longest delay, " + (ExpiryBenchmark.WINDOW_MS - 1) + " ms, so no "
                        + "timer exceeds " + figure(ceiling) + " M fires/s; " + limit(t.limit()) + "x "
                        + t.versus().label() + " would be " + figure(netty * t.limit()) + " M fires/s)"));
            }
        }
    }

    /**
     * The limit beside the lag, filed under the lag target: per producer count, how far past the window the shot's
     * own CPU reaches at best on these cores, for each peer measured (the medians of the shots' floors).
     */
    private void lagFloor() {
        for (Row r : results.rows(List.of(Metric.EXPIRY_LAG_FLOOR))) {
            StringBuilder each = new StringBuilder();
            for (Map.Entry<Peer, Double> e : r.values().entrySet()) {
                each.append(each.length() == 0 ? "" : ", ").append(e.getKey().label()).append(" ")
                        .append(figure(e.getValue())).append(" ms");
            }
            if (each.length() > 0) {
                out.add(new Verdict(Target.EXPIRY_LAG, Outcome.CONTEXT, "(the limit, " + r.label().replace(
                        "lag floor: what the shot's own CPU allows at best, ", "") + ": the shot's own CPU, spread"
                        + " over the cores, and its busiest thread's, reach past the window by at least " + each
                        + "; a lag below the target needs a floor below it)"));
            }
        }
    }

    /**
     * Beside the expiry shot's rate: its window, per producer count and peer. A shot is the producers' loop, then its
     * longest delay, then its lag; the loop's wall time beside the producers' own CPU in it shows how much of the
     * cores the producers got while the timer's threads worked beside them (a context line; nothing if scenario 8 did
     * not run).
     */
    private void firingWindow() {
        for (Row wall : results.rows(List.of(Metric.FIRING_LOOP))) {
            Row cpu = results.twin(wall, Metric.FIRING_LOOP_CPU);
            StringBuilder each = new StringBuilder();
            for (Map.Entry<Peer, Double> e : wall.values().entrySet()) {
                Double own = cpu == null ? null : cpu.value(e.getKey());
                each.append(each.length() == 0 ? "" : ", ").append(e.getKey().label()).append(" ")
                        .append(figure(e.getValue())).append(" ms");
                if (own != null) {
                    each.append(" for ").append(figure(own)).append(" ms of the producers' CPU");
                }
            }
            if (each.length() > 0) {
                out.add(new Verdict(Target.FIRING_VS_NETTY_1MS, Outcome.CONTEXT, "(the window, " + wall.label()
                        .replace("the producers' loop in the shot, wall time, ", "") + ": a shot is its producers'"
                        + " loop, then its longest delay, " + (ExpiryBenchmark.WINDOW_MS - 1) + " ms, then its lag; the"
                        + " loops took " + each + ")"));
            }
        }
    }

    /**
     * Beside the allocation per fired timer: the share of it that the command queues' chunks account for, counted in
     * scenario 8's shots of the same load (a context line; nothing if that scenario did not run).
     */
    private void fireAllocationContext() {
        StringBuilder each = new StringBuilder();
        for (Row r : results.rows(List.of(Metric.FIRING_CHUNK_BYTES))) {
            Double tw = r.value(Peer.TICKWHEEL);
            if (tw != null) {
                each.append(each.length() == 0 ? "" : "; ").append(figure(tw)).append(" B, ")
                        .append(r.label().substring(r.label().lastIndexOf(", ") + 2));
            }
        }
        if (each.length() > 0) {
            out.add(new Verdict(Target.FIRE_ALLOCATION, Outcome.CONTEXT, "(of that, the command queues' chunks, in"
                    + " scenario 8's shots of the same load: " + each + ". They hold the starts that outran the owner"
                    + " thread, a reference each, garbage once taken; the rest above the timer's own bytes is the"
                    + " pool's batches beyond those it keeps, and the harness)"));
        }
    }

    /** CPU per schedule + cancel at most the limit times Netty 1 ms's, at every P both were measured at. */
    private void cpuVsNetty() {
        Target t = Target.CPU_VS_NETTY_1MS;
        String claim = "CPU per schedule+cancel <= " + limit(t.limit()) + "x " + t.versus().label() + "'s";
        double worst = Double.NEGATIVE_INFINITY;
        String at = null;
        StringBuilder each = new StringBuilder();
        StringBuilder floors = new StringBuilder();
        for (Row r : results.rows(t.metrics())) {
            Double tw = r.value(Peer.TICKWHEEL);
            Double netty = r.value(t.versus());
            if (netty == null) {
                continue;
            }
            if (tw == null) {
                notJudged(t, claim, NO_TICKWHEEL + " at " + r.label());
                return;
            }
            double share = tw / netty;
            each.append(each.length() == 0 ? "" : "; ")
                    .append(r.label().replace("CPU per schedule+cancel (producer + timer threads), ", ""))
                    .append(": ").append(figure(tw)).append(" vs ").append(figure(netty)).append(" ns");
            Double floor = r.value(Peer.MPSC_FLOOR);
            if (floor != null) {
                floors.append(floors.length() == 0 ? "" : "; ")
                        .append(r.label().replace("CPU per schedule+cancel (producer + timer threads), ", ""))
                        .append(": floor ").append(figure(floor)).append(" ns, ").append(limit(t.limit()))
                        .append("x Netty ").append(figure(netty * t.limit())).append(" ns");
            }
            if (share > worst) {
                worst = share;
                at = r.label();
            }
        }
        if (at != null) {
            add(t, worst <= t.limit(), claim + ": highest share " + ratio(worst) + " (" + each + ")");
            if (floors.length() > 0) {
                out.add(new Verdict(t, Outcome.CONTEXT, "(the limit: the MPSC floor, one allocation and two queue "
                        + "hand-offs per operation and no timer at all: " + floors + ")"));
            }
        }
    }

    /** The most Tickwheel reaches over every row of the target's metric (allocation per operation or per fire). */
    private void highest(Target t, String claim) {
        List<Row> rows = results.rows(t.metrics());
        double max = Double.NEGATIVE_INFINITY;
        String maxAt = null;
        List<String> missing = new ArrayList<>();
        for (Row r : rows) {
            Double v = r.value(Peer.TICKWHEEL);
            if (v == null) {
                missing.add(r.label());
            } else if (v > max) {
                max = v;
                maxAt = r.label();
            }
        }
        if (!missing.isEmpty()) {
            notJudged(t, claim, NO_TICKWHEEL + " at " + String.join("; ", missing));
        } else if (maxAt != null) {
            add(t, max <= t.limit(), claim + ": highest " + figure(max) + " B (" + maxAt + ")");
        }
    }

    /**
     * Allocation per schedule + cancel: Tickwheel's highest row less JMH's own share at that row, where the run
     * measured it beside ({@link Metric#ALLOCATION_HARNESS}): the GC profiler counts the harness's bytes against the
     * operations too (about 0.001 B an operation here), so an operation that allocates exactly the limit would read
     * above it. Judged to 0.001 B, the share's own precision; the claim shows the raw figure and the share.
     */
    private void allocation(Target t, String claim) {
        double max = Double.NEGATIVE_INFINITY;
        String at = null;
        List<String> missing = new ArrayList<>();
        for (Row r : results.rows(t.metrics())) {
            Double raw = r.value(Peer.TICKWHEEL);
            if (raw == null) {
                missing.add(r.label());
                continue;
            }
            Row h = results.twin(r, Metric.ALLOCATION_HARNESS);
            Double share = h == null ? null : h.value(Peer.TICKWHEEL);
            double net = share == null ? raw : raw - share;
            if (net > max) {
                max = net;
                at = share == null ? figure(raw) + " B (" + r.label() + ")"
                        : String.format(Locale.ROOT, "%.4f B less JMH's harness (%s: %.4f B measured, of which the"
                        + " harness %.4f)", net, r.label(), raw, share);
            }
        }
        if (!missing.isEmpty()) {
            notJudged(t, claim, NO_TICKWHEEL + " at " + String.join("; ", missing));
        } else if (at != null) {
            // To 0.001 B, the share's own precision: its bytes per second differ by about 2% run to run.
            add(t, Math.round(max * 1000) <= Math.round(t.limit() * 1000), claim + ": highest " + at);
        }
    }

    /** A target on the one row of its metric: Tickwheel's figure at most the limit. */
    private void atMost(Target t, Function<Row, String> claim, Function<Double, String> details) {
        Row row = results.find(t.metrics().iterator().next());
        if (row == null) {
            return;
        }
        Double tw = row.value(Peer.TICKWHEEL);
        if (tw == null) {
            notJudged(t, claim.apply(row), NO_TICKWHEEL);
        } else {
            add(t, tw <= t.limit(), claim.apply(row) + ": " + details.apply(tw));
        }
    }

    /** Early fires summed over every Tickwheel configuration measured. */
    private void earlyFires() {
        Target t = Target.EARLY_FIRES;
        Row row = results.find(Metric.EARLY_FIRES);
        if (row == null) {
            return;
        }
        String claim = t.limit() == 0 ? "zero early fires" : "at most " + limit(t.limit()) + " early fires";
        if (!row.has(Peer.TICKWHEEL)) {
            notJudged(t, claim, NO_TICKWHEEL);
            return;
        }
        double all = 0;
        StringBuilder each = new StringBuilder();
        for (Row r : results.rows(t.metrics())) { // the one-run row, then the judged runs' rows if measured
            for (Peer p : TICKWHEELS) {
                Double e = r.value(p);
                if (e != null) {
                    all += e;
                    each.append(each.length() == 0 ? "" : ", ").append(p.label()).append(' ').append(figure(e));
                }
            }
            if (r != row) {
                each.append(" (").append(r.label()).append(')');
            }
        }
        add(t, all <= t.limit(), claim + ": " + each);
    }

    /** Tickwheel's worst figure over the target's rows at most the limit; peers' figures shown beside it. */
    private void worst(Target t, String claim, String unit) {
        List<Row> rows = results.rows(t.metrics());
        if (rows.isEmpty()) {
            return;
        }
        double max = Double.NEGATIVE_INFINITY;
        StringBuilder shown = new StringBuilder();
        for (Row r : rows) {
            Double tw = r.value(Peer.TICKWHEEL);
            if (tw == null) {
                notJudged(t, claim, NO_TICKWHEEL + " at " + r.label());
                return;
            }
            max = Math.max(max, tw);
            shown.append(shown.length() == 0 ? "" : "; ").append(r.label()).append(": ").append(figure(tw))
                    .append(unit);
            for (Peer p : r.values().keySet()) {
                if (p != Peer.TICKWHEEL) {
                    shown.append(" (").append(p.label()).append(": ").append(figure(r.value(p))).append(unit)
                            .append(")");
                }
            }
        }
        add(t, max <= t.limit(), claim + ": " + shown);
    }

    /** Tickwheel's figure at most the limit times the peer's, in the target's one row. */
    private void versus(Target t, String claim, String unit) {
        Row row = results.find(t.metrics().iterator().next());
        if (row == null || !row.has(t.versus())) {
            return;
        }
        Double tw = row.value(Peer.TICKWHEEL);
        if (tw == null) {
            notJudged(t, claim, NO_TICKWHEEL);
            return;
        }
        double other = row.value(t.versus());
        add(t, tw <= other * t.limit(), claim + ": " + figure(tw) + unit + " vs " + figure(other) + unit);
    }

    /**
     * Lateness against the JDK's: judged on the medians of interleaved runs (quiet, and with busy processes beside:
     * every such row must hold) where the run measured them, else on the one-run row of every peer.
     */
    private void lateness(Target t, String percentile, Metric oneRun, Metric judged) {
        String claim = "lateness " + percentile + " " + (t.limit() == 1 ? "no worse than the JDK's"
                : "at most " + limit(t.limit()) + "x the JDK's");
        List<Row> medians = new ArrayList<>();
        for (Row r : results.rows(List.of(judged))) {
            if (r.has(t.versus())) {
                medians.add(r);
            }
        }
        if (!medians.isEmpty()) {
            boolean met = true;
            StringBuilder shown = new StringBuilder();
            for (Row r : medians) {
                Double tw = r.value(Peer.TICKWHEEL);
                if (tw == null) {
                    notJudged(t, claim, NO_TICKWHEEL + " at " + r.label());
                    return;
                }
                double jdk = r.value(t.versus());
                met &= tw <= jdk * t.limit();
                shown.append(shown.length() == 0 ? ": " : "; ").append(r.label()).append(": ").append(figure(tw))
                        .append(" ms vs ").append(figure(jdk)).append(" ms");
            }
            add(t, met, claim + shown);
            return;
        }
        Row row = results.find(oneRun);
        if (row == null || !row.has(t.versus())) {
            return;
        }
        Double tw = row.value(Peer.TICKWHEEL);
        double jdk = row.value(t.versus());
        if (tw == null) {
            notJudged(t, claim, NO_TICKWHEEL);
            return;
        }
        Double inline = row.value(Peer.TICKWHEEL_INLINE);
        Double coarse = row.value(Peer.TICKWHEEL_1MS);
        add(t, tw <= jdk * t.limit(), claim + ": " + figure(tw) + " ms vs " + figure(jdk) + " ms"
                + (inline == null ? "" : " (tasks on the owner thread: " + figure(inline) + " ms)")
                + (coarse == null ? "" : " (with a 1 ms tick: " + figure(coarse) + " ms)"));
    }

    private void wheelVsAgrona() {
        Target t = Target.WHEEL_VS_AGRONA;
        String at = ScalingChart.count(Target.WHEEL_SMALL);
        Double tw = results.wheel(Target.WHEEL_SMALL, WheelKind.TICKWHEEL_WHEEL);
        Double ag = results.wheel(Target.WHEEL_SMALL, WheelKind.AGRONA);
        if (ag == null) {
            return;
        }
        String claim = "wheel alone at " + at + " at least " + (t.limit() == 1 ? "" : limit(t.limit()) + "x ")
                + "Agrona's throughput";
        if (tw == null) {
            notJudged(t, claim, NO_TICKWHEEL);
        } else {
            add(t, tw >= ag * t.limit(), claim + ": " + figure(tw) + " vs " + figure(ag) + " ops/µs");
        }
    }

    private void wheelNoCollapse() {
        Target t = Target.WHEEL_NO_COLLAPSE;
        if (!results.wheel().containsKey(Target.WHEEL_SMALL) || !results.wheel().containsKey(Target.WHEEL_LARGE)) {
            return;
        }
        String small = ScalingChart.count(Target.WHEEL_SMALL);
        String large = ScalingChart.count(Target.WHEEL_LARGE);
        String claim = "wheel alone, no collapse at " + large + " (read as: " + small + "/" + large
                + " throughput <= " + limit(t.limit()) + ")";
        double twDrop = drop(WheelKind.TICKWHEEL_WHEEL);
        if (Double.isNaN(twDrop)) {
            notJudged(t, claim, NO_TICKWHEEL);
        } else {
            add(t, twDrop <= t.limit(), claim + ": Tickwheel falls " + ratio(twDrop) + ", Agrona "
                    + ratio(drop(WheelKind.AGRONA)));
        }
    }

    /** @return the wheel's throughput at the small setting over at the large one, or NaN if either is missing */
    private double drop(WheelKind kind) {
        Double small = results.wheel(Target.WHEEL_SMALL, kind);
        Double large = results.wheel(Target.WHEEL_LARGE, kind);
        return small == null || large == null ? Double.NaN : small / large;
    }
}

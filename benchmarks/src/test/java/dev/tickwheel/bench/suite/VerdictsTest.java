package dev.tickwheel.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickwheel.bench.Peer;
import dev.tickwheel.bench.WheelKind;
import dev.tickwheel.bench.suite.Verdicts.Outcome;
import dev.tickwheel.bench.suite.Verdicts.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The report's targets: every metric a target reads gets that target's verdict, a missing Tickwheel figure reads
 * "-" and is not judged (never an exception), and the report reads exactly as the head-to-head has always printed it.
 */
class VerdictsTest {

    static Stream<Metric> metricsWithATarget() {
        return Stream.of(Metric.values()).filter(m -> !Target.judging(m).isEmpty());
    }

    @ParameterizedTest
    @MethodSource("metricsWithATarget")
    void everyMetricWithATargetHasItsVerdictRendered(Metric metric) {
        renderedVerdicts(measured(metric, true), metric).forEach((t, v) -> assertTrue(
                v.outcome() == Outcome.MET || v.outcome() == Outcome.MISSED, t + " was not judged: " + v));
    }

    /** Issue 23's rows: the worst lag over the producer counts, the sweep's spread, the chain against the JDK's. */
    @Test
    void theFiringPathsTargetsJudgeTheirWorstFigure() {
        Results results = new Results();
        results.row(Metric.EXPIRY_LAG, 0, 1, "lag, 1 producer").put(Peer.TICKWHEEL, 12.0);
        results.row(Metric.EXPIRY_LAG, 0, 2, "lag, 2 producers").put(Peer.TICKWHEEL, 25.0);
        results.row(Metric.EXPIRY_LAG, 0, 2, "lag, 2 producers").put(Peer.NETTY_1MS, 1.0);
        results.row(Metric.SWEEP_SPREAD, "spread").put(Peer.TICKWHEEL, 1.08);
        results.row(Metric.CHAIN, "chain").put(Peer.TICKWHEEL, 0.21);
        results.row(Metric.CHAIN, "chain").put(Peer.JDK_STPE, 0.20);
        Map<Target, Verdict> v = new EnumMap<>(Target.class);
        for (Verdict x : Verdicts.judge(results)) {
            v.put(x.target(), x);
        }
        assertEquals(Outcome.MISSED, v.get(Target.EXPIRY_LAG).outcome(), v.get(Target.EXPIRY_LAG).line());
        assertTrue(v.get(Target.EXPIRY_LAG).line().contains("Netty 1 ms: 1"), v.get(Target.EXPIRY_LAG).line());
        assertEquals(Outcome.MET, v.get(Target.SWEEP_SPREAD).outcome(), v.get(Target.SWEEP_SPREAD).line());
        assertEquals(Outcome.MISSED, v.get(Target.CHAIN_VS_JDK).outcome(), v.get(Target.CHAIN_VS_JDK).line());
        results.row(Metric.EXPIRY_LAG, 0, 2, "lag, 2 producers").put(Peer.TICKWHEEL, 19.0);
        results.row(Metric.CHAIN, "chain").put(Peer.TICKWHEEL, 0.19);
        for (Verdict x : Verdicts.judge(results)) {
            v.put(x.target(), x);
        }
        assertEquals(Outcome.MET, v.get(Target.EXPIRY_LAG).outcome(), v.get(Target.EXPIRY_LAG).line());
        assertEquals(Outcome.MET, v.get(Target.CHAIN_VS_JDK).outcome(), v.get(Target.CHAIN_VS_JDK).line());
    }

    /** The limit beside the lag: each peer's floor, per producer count, printed under the lag's verdict. */
    @Test
    void theLagsFloorIsPrintedBesideItsVerdictAndJudgesNothing() {
        Results results = new Results();
        results.row(Metric.EXPIRY_LAG, 0, 1, "lag, 1 producer").put(Peer.TICKWHEEL, 30.0);
        results.row(Metric.EXPIRY_LAG, 0, 1, "lag, 1 producer").put(Peer.NETTY_1MS, 45.0);
        String floor = "lag floor: what the shot's own CPU allows at best, 1 producer";
        results.row(Metric.EXPIRY_LAG_FLOOR, 0, 1, floor).put(Peer.TICKWHEEL, 12.5);
        results.row(Metric.EXPIRY_LAG_FLOOR, 0, 1, floor).put(Peer.NETTY_1MS, 38.0);
        List<Verdict> all = Verdicts.judge(results);
        List<Verdict> lag = all.stream().filter(v -> v.target() == Target.EXPIRY_LAG).toList();
        assertEquals(2, lag.size(), lag.toString());
        assertEquals(Outcome.MISSED, lag.get(0).outcome(), lag.get(0).line());
        Verdict limit = lag.get(1);
        assertEquals(Outcome.CONTEXT, limit.outcome(), limit.line());
        assertTrue(limit.line().contains("(the limit, 1 producer:") && limit.line().contains("Tickwheel 12.5 ms")
                && limit.line().contains("Netty 1 ms 38.0 ms"), limit.line());
    }

    /**
     * The shot's window is printed under the expiry shot's verdict for each producer count: each peer's loop, wall time
     * beside the producers' CPU in it; a peer whose CPU row is missing shows its wall time alone. It changes nothing in
     * the verdict.
     */
    @Test
    void theProducersLoopIsPrintedBesideTheExpiryShotsRate() {
        Results results = new Results();
        String rate = "expiry shot, 1M timers due within 100 ms, 1 producer";
        results.row(Metric.FIRING_RATE, 0, 1, rate).put(Peer.TICKWHEEL, 4.6);
        results.row(Metric.FIRING_RATE, 0, 1, rate).put(Peer.NETTY_1MS, 5.0);
        String wall = "the producers' loop in the shot, wall time, 1 producer";
        results.row(Metric.FIRING_LOOP, 0, 1, wall).put(Peer.TICKWHEEL, 118.5);
        results.row(Metric.FIRING_LOOP, 0, 1, wall).put(Peer.NETTY_1MS, 98.25);
        results.row(Metric.FIRING_LOOP_CPU, 0, 1, "the producers' own CPU in that loop, 1 producer")
                .put(Peer.TICKWHEEL, 72.0);
        List<Verdict> shot = Verdicts.judge(results).stream().filter(v -> v.target() == Target.FIRING_VS_NETTY_1MS)
                .toList();
        assertEquals(2, shot.size(), shot.toString());
        assertEquals(Outcome.MISSED, shot.get(0).outcome(), shot.get(0).line());
        Verdict window = shot.get(1);
        assertEquals(Outcome.CONTEXT, window.outcome(), window.line());
        assertTrue(window.line().contains("(the window, 1 producer: a shot is its producers' loop, then its longest"
                + " delay, 99 ms, then its lag; the loops took Tickwheel " + Format.figure(118.5) + " ms for "
                + Format.figure(72.0) + " ms of the producers' CPU, Netty 1 ms " + Format.figure(98.25) + " ms)"),
                window.line());
    }

    /**
     * The command queues' share of the allocation per fired timer, counted in scenario 8, is printed under that
     * verdict for each producer count, and changes nothing in it.
     */
    @Test
    void theChunksShareIsPrintedBesideTheFiredTimersAllocation() {
        Results results = new Results();
        results.row(Metric.FIRE_ALLOCATION, 0, 1, "allocated per fired timer (expiry), 1 producer")
                .put(Peer.TICKWHEEL, 50.8);
        results.row(Metric.FIRING_CHUNK_BYTES, 0, 1, "command-queue chunks per fired timer, 1 producer")
                .put(Peer.TICKWHEEL, 2.61);
        results.row(Metric.FIRING_CHUNK_BYTES, 0, 2, "command-queue chunks per fired timer, 2 producers")
                .put(Peer.TICKWHEEL, 3.05);
        List<Verdict> fire = Verdicts.judge(results).stream().filter(v -> v.target() == Target.FIRE_ALLOCATION)
                .toList();
        assertEquals(2, fire.size(), fire.toString());
        assertEquals(Outcome.MISSED, fire.get(0).outcome(), fire.get(0).line());
        assertEquals(Outcome.CONTEXT, fire.get(1).outcome(), fire.get(1).line());
        assertTrue(fire.get(1).line().contains("2.61 B, 1 producer; 3.05 B, 2 producers"), fire.get(1).line());
    }

    /**
     * Allocation per schedule + cancel is judged less JMH's own share at each row, where it was measured beside, to
     * 0.001 B: 48 B an operation plus the harness's 0.001 is met (0.0001 over is within the share's precision); 0.05 B
     * more than the harness explains is not, nor 0.002 B more, nor a row without its share measured that reads above
     * the limit.
     */
    @Test
    void allocationIsJudgedLessTheHarnessesShareMeasuredBeside() {
        Verdict met = allocationVerdict(allocation(1000, 1, 48.0012, 0.0011), allocation(1000, 2, 48.0009, 0.0010));
        assertEquals(Outcome.MET, met.outcome(), met.line());
        assertTrue(met.line().contains("highest 48.0001 B less JMH's harness (alloc, P=1000, 1 producers: 48.0012 B"
                + " measured, of which the harness 0.0011)"), met.line());

        Verdict missed = allocationVerdict(allocation(1000, 1, 48.0012, 0.0011),
                allocation(1_000_000, 2, 48.0510, 0.0013));
        assertEquals(Outcome.MISSED, missed.outcome(), missed.line());
        assertTrue(missed.line().contains("highest 48.0497 B less JMH's harness (alloc, P=1000000, 2 producers"),
                missed.line());

        Verdict small = allocationVerdict(allocation(1000, 1, 48.0031, 0.0011));
        assertEquals(Outcome.MISSED, small.outcome(), small.line());

        Verdict raw = allocationVerdict(allocation(1000, 1, 48.0012, null));
        assertEquals(Outcome.MISSED, raw.outcome(), raw.line());
    }

    /** One setting's allocation row and, unless {@code share} is null, its harness row (Tickwheel's figures). */
    private static Consumer<Results> allocation(long pending, int producers, double raw, Double share) {
        String what = "P=" + pending + ", " + producers + " producers";
        return r -> {
            r.row(Metric.ALLOCATION, pending, producers, "alloc, " + what).put(Peer.TICKWHEEL, raw);
            if (share != null) {
                r.row(Metric.ALLOCATION_HARNESS, pending, producers, "harness, " + what).put(Peer.TICKWHEEL, share);
            }
        };
    }

    @SafeVarargs
    private static Verdict allocationVerdict(Consumer<Results>... rows) {
        Results results = new Results();
        for (Consumer<Results> row : rows) {
            row.accept(results);
        }
        return Verdicts.judge(results).stream().filter(v -> v.target() == Target.ALLOCATION).findFirst()
                .orElseThrow();
    }

    /**
     * Issue 23's lateness: where the medians of interleaved runs were measured (quiet and busy), they decide, each
     * condition must hold, and the one-run row (which here says the opposite) is not read.
     */
    @Test
    void latenessIsJudgedOnTheMediansQuietAndBusyWhereTheyWereMeasured() {
        Results results = new Results();
        results.row(Metric.LATENESS_P99, "lateness p99 (one run)").put(Peer.TICKWHEEL, 9.0);
        results.row(Metric.LATENESS_P99, "lateness p99 (one run)").put(Peer.JDK_STPE, 0.1);
        results.row(Metric.JUDGED_LATENESS_P99, 0, 0, "p99, quiet").put(Peer.TICKWHEEL, 0.15);
        results.row(Metric.JUDGED_LATENESS_P99, 0, 0, "p99, quiet").put(Peer.JDK_STPE, 0.17);
        results.row(Metric.JUDGED_LATENESS_P99, 0, 2, "p99, 2 busy").put(Peer.TICKWHEEL, 2.5);
        results.row(Metric.JUDGED_LATENESS_P99, 0, 2, "p99, 2 busy").put(Peer.JDK_STPE, 0.4);
        Verdict v = verdictOf(Verdicts.judge(results), Target.LATENESS_P99_VS_JDK);
        assertEquals(Outcome.MISSED, v.outcome(), v.line());
        assertTrue(v.line().contains("p99, quiet: 0.150 ms vs 0.170 ms") && v.line().contains("p99, 2 busy: 2.50 ms"),
                v.line());
        results.row(Metric.JUDGED_LATENESS_P99, 0, 2, "p99, 2 busy").put(Peer.TICKWHEEL, 0.39);
        v = verdictOf(Verdicts.judge(results), Target.LATENESS_P99_VS_JDK);
        assertEquals(Outcome.MET, v.outcome(), v.line());
    }

    @Test
    void everyTargetReadsAMetricAndIsJudgedWhenEverythingIsMeasured() {
        Results results = new Results();
        metricsWithATarget().forEach(m -> measure(results, m, true));
        Set<Target> judged = EnumSet.noneOf(Target.class);
        for (Verdict v : Verdicts.judge(results)) {
            if (v.outcome() != Outcome.CONTEXT) {
                assertTrue(judged.add(v.target()), v.target() + " has two verdicts");
            }
        }
        assertEquals(EnumSet.allOf(Target.class), judged);
    }

    @ParameterizedTest
    @MethodSource("metricsWithATarget")
    void aMissingTickwheelFigureRendersAsMissingAndIsNotJudged(Metric metric) {
        Results results = measured(metric, false);
        renderedVerdicts(results, metric).forEach((t, v) -> {
            assertEquals(Outcome.NOT_JUDGED, v.outcome(), v.line());
            assertTrue(v.line().startsWith("NOT JUDGED: ") && v.line().contains("no Tickwheel figure"), v.line());
        });
        String report = Report.render(results);
        String tickwheelCell = metric == Metric.WHEEL_ALONE ? "\n| 1k | - | "
                : "\n| " + label(metric) + " | " + metric.unit + (metric.higherIsBetter ? " ↑" : " ↓") + " | - |";
        assertTrue(report.contains(tickwheelCell), "Tickwheel's cell should read -:\n" + report);
        assertFalse(report.contains("NaN"), report);
    }

    @Test
    void nothingMeasuredSaysSo() {
        assertEquals("\nTargets (issues 5, 12 and 23):\n\n- none measured in this run\n", Report.render(new Results()));
    }

    /** The figures of a head-to-head, and the report the old single-file Suite rendered from them, to the letter. */
    @Test
    void reportReadsAsTheHeadToHeadAlwaysPrintedIt() {
        Results r = new Results();
        put(r.row(Metric.SCHEDULE_CANCEL, 1000, 1, "schedule+cancel, P=1k, 1 producer"),
                17.6, null, 11.8, 11.4, 2.87, 5.26);
        put(r.row(Metric.ALLOCATION, 1000, 1, "allocated per schedule+cancel, P=1k, 1 producer"),
                48.2, null, 96.0, 63.9, 64.1, 72.0);
        put(r.row(Metric.CPU, 1000, 1, "CPU per schedule+cancel (producer + timer threads), P=1k, 1 producer"),
                66.0, null, 81.7, 88.9, 75.0, 154.0);
        put(r.row(Metric.EXPIRY, 0, 1, "expiry, 1M timers due within 100 ms, 1 producer"),
                2.31, 5.29, 0.685, 3.47, null, 1.3);
        put(r.row(Metric.RETAINED, "heap per pending timer (1M, 1 h out)"), 48.1, null, 102.0, 56.0, null, 72.1);
        put(r.row(Metric.LEFT_AFTER_CANCEL, "heap left per timer after cancelling all"), 0.0, null, 6.3, 0.0, null, 0.0);
        put(r.row(Metric.LATENESS_P99, "lateness p99 (100k start+cancel/s beside)"), 1.28, null, 0.247, 2.0, null, 1.27);
        put(r.row(Metric.EARLY_FIRES, "early fires (of the probes above)"), 0.0, null, 0.0, 0.0, null, 543.0);
        put(r.row(Metric.IDLE_CPU, "idle CPU in 5 s, one timer 1 h out"), 0.0, null, 0.0, 83.7, 1.51, 2.6);
        put(r.row(Metric.SCALING, 1000, 1, "scaling: schedule+cancel at 1k pending, 1 producer"),
                15.0, null, null, 12.6, null, null);
        put(r.row(Metric.SCALING, 1_000_000, 1, "scaling: schedule+cancel at 1M pending, 1 producer"),
                13.0, null, null, 7.59, null, null);
        put(r.row(Metric.SCALING_COST, "scaling: op cost at 1M / at 1k"), 1.15, null, null, 1.66, null, null);
        r.putWheel(1000, WheelKind.TICKWHEEL_WHEEL, 91.3);
        r.putWheel(1000, WheelKind.AGRONA, 31.5);
        r.putWheel(1_000_000, WheelKind.TICKWHEEL_WHEEL, 63.2);
        r.putWheel(1_000_000, WheelKind.AGRONA, 1.02);
        r.note("idle threads of Tickwheel: tickwheel-1-owner");
        assertEquals(GOLDEN, Report.render(r));
    }

    private static final String GOLDEN =
            "Figures, and in brackets Tickwheel's advantage over the peer: (2.0x) = Tickwheel is 2.0 times better (higher throughput, or lower cost); (0.5x) = the peer is 2 times better.\n" +
            "\n" +
            "| scenario | unit | Tickwheel | Tickwheel, tasks on owner | JDK STPE | Netty 1 ms | Netty 100 ms | Kafka SystemTimer |\n" +
            "|---|---|---:|---:|---:|---:|---:|---:|\n" +
            "| schedule+cancel, P=1k, 1 producer | ops/µs ↑ | 17.6 | - | 11.8 (1.5x) | 11.4 (1.5x) | 2.87 (6.1x) | 5.26 (3.3x) |\n" +
            "| allocated per schedule+cancel, P=1k, 1 producer | B ↓ | 48.2 | - | 96.0 (2.0x) | 63.9 (1.3x) | 64.1 (1.3x) | 72.0 (1.5x) |\n" +
            "| CPU per schedule+cancel (producer + timer threads), P=1k, 1 producer | ns ↓ | 66.0 | - | 81.7 (1.2x) | 88.9 (1.3x) | 75.0 (1.1x) | 154 (2.3x) |\n" +
            "| expiry, 1M timers due within 100 ms, 1 producer | M fires/s ↑ | 2.31 | 5.29 (0.4x) | 0.685 (3.4x) | 3.47 (0.7x) | - | 1.30 (1.8x) |\n" +
            "| heap per pending timer (1M, 1 h out) | B ↓ | 48.1 | - | 102 (2.1x) | 56.0 (1.2x) | - | 72.1 (1.5x) |\n" +
            "| heap left per timer after cancelling all | B ↓ | 0 | - | 6.30 | 0 | - | 0 |\n" +
            "| lateness p99 (100k start+cancel/s beside) | ms ↓ | 1.28 | - | 0.247 (0.2x) | 2.00 (1.6x) | - | 1.27 (1.0x) |\n" +
            "| early fires (of the probes above) | count ↓ | 0 | - | 0 | 0 | - | 543 |\n" +
            "| idle CPU in 5 s, one timer 1 h out | ms ↓ | 0 | - | 0 | 83.7 | 1.51 | 2.60 |\n" +
            "| scaling: schedule+cancel at 1k pending, 1 producer | ops/µs ↑ | 15.0 | - | - | 12.6 (1.2x) | - | - |\n" +
            "| scaling: schedule+cancel at 1M pending, 1 producer | ops/µs ↑ | 13.0 | - | - | 7.59 (1.7x) | - | - |\n" +
            "| scaling: op cost at 1M / at 1k | × ↓ | 1.15 | - | - | 1.66 (1.4x) | - | - |\n" +
            "\n" +
            "The wheel alone, single-threaded, remove + add + advance (ops/µs ↑):\n" +
            "\n" +
            "| pending | Tickwheel TimingWheel | Agrona DeadlineTimerWheel | Tickwheel / Agrona |\n" +
            "|---|---:|---:|---:|\n" +
            "| 1k | 91.3 | 31.5 | 2.90x |\n" +
            "| 1M | 63.2 | 1.02 | 61.96x |\n" +
            "\n" +
            "Targets (issues 5, 12 and 23):\n" +
            "\n" +
            "- MISSED: throughput >= 2x Netty 1 ms in scenarios 1 and 2 (2 figures): lowest ratio 0.67x at expiry, 1M timers due within 100 ms, 1 producer\n" +
            "- MET: throughput >= 2x Netty 100 ms in scenarios 1 and 2 (1 figures): lowest ratio 6.13x at schedule+cancel, P=1k, 1 producer\n" +
            "-   (CPU time, the steadier figure on shared cores: schedule+cancel (producer + timer threads), P=1k, 1 producer: Tickwheel 66.0 ns, 1.35x Netty 1 ms, 1.14x Netty 100 ms)\n" +
            "-   (expiry with Tickwheel's tasks on the owner thread, as Netty runs them: 1.52x Netty 1 ms, 1 producer)\n" +
            "- MISSED: throughput >= 2x Netty 1 ms in expiry, default pool (1 figures): lowest ratio 0.67x at expiry, 1M timers due within 100 ms, 1 producer\n" +
            "-   (the limit, 1M timers due within 100 ms, 1 producer: a shot lasts at least its longest delay, 99 ms, so no timer exceeds 10.1 M fires/s; 2x Netty 1 ms would be 6.94 M fires/s)\n" +
            "- MISSED: CPU per schedule+cancel <= 0.5x Netty 1 ms's: highest share 0.74x (P=1k, 1 producer: 66.0 vs 88.9 ns)\n" +
            "- MISSED: allocation <= 48 B per schedule+cancel: highest 48.2 B (allocated per schedule+cancel, P=1k, 1 producer)\n" +
            "- MISSED: retained <= 48 B per pending timer: 48.1 B (after cancelling all: 0 B per timer left)\n" +
            "- MET: zero early fires: Tickwheel 0\n" +
            "- MISSED: lateness p99 no worse than the JDK's: 1.28 ms vs 0.247 ms\n" +
            "- MET: idle CPU <= 1 ms in 5 s: 0 ms (Netty 1 ms: 83.7 ms)\n" +
            "- MET: scaling: op cost at 1M / at 1k <= 1.5: 1.15x\n" +
            "- MET: wheel alone at 1k at least Agrona's throughput: 91.3 vs 31.5 ops/µs\n" +
            "- MET: wheel alone, no collapse at 1M (read as: 1k/1M throughput <= 1.5): Tickwheel falls 1.44x, Agrona 30.88x\n" +
            "\n" +
            "Notes:\n" +
            "\n" +
            "- idle threads of Tickwheel: tickwheel-1-owner\n";

    /** The head-to-head's columns, in order: Tickwheel, tasks on owner, JDK, Netty 1 ms, Netty 100 ms, Kafka. */
    private static void put(Row row, Double... figures) {
        Peer[] columns = {Peer.TICKWHEEL, Peer.TICKWHEEL_INLINE, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.NETTY_100MS,
                Peer.KAFKA};
        for (int i = 0; i < figures.length; i++) {
            if (figures[i] != null) {
                row.put(columns[i], figures[i]);
            }
        }
    }

    private static String label(Metric m) {
        return "a " + m.name() + " figure";
    }

    private static Results measured(Metric metric, boolean withTickwheel) {
        Results results = new Results();
        measure(results, metric, withTickwheel);
        return results;
    }

    /** A figure for every peer (or every peer but Tickwheel), as the scenario that measures the metric gives it. */
    private static void measure(Results results, Metric metric, boolean withTickwheel) {
        if (metric == Metric.WHEEL_ALONE) {
            for (long pending : List.of(Target.WHEEL_SMALL, Target.WHEEL_LARGE)) {
                results.putWheel(pending, WheelKind.AGRONA, 10.0 * pending / Target.WHEEL_LARGE + 1);
                if (withTickwheel) {
                    results.putWheel(pending, WheelKind.TICKWHEEL_WHEEL, 50);
                }
            }
            return;
        }
        Row row = results.row(metric, label(metric));
        for (Peer p : Peer.values()) {
            if (p != Peer.TICKWHEEL || withTickwheel) {
                row.put(p, 1 + p.ordinal());
            }
        }
    }

    /** @return the verdict of each target that reads the metric, each checked to be one line of the report */
    private static Map<Target, Verdict> renderedVerdicts(Results results, Metric metric) {
        String report = Report.render(results);
        List<Verdict> verdicts = Verdicts.judge(results);
        Map<Target, Verdict> out = new EnumMap<>(Target.class);
        for (Target t : Target.judging(metric)) {
            Verdict v = verdictOf(verdicts, t);
            assertTrue(report.contains("\n- " + v.line() + "\n"), t + "'s verdict is not in the report:\n" + report);
            out.put(t, v);
        }
        assertFalse(out.isEmpty());
        return out;
    }

    private static Verdict verdictOf(List<Verdict> verdicts, Target t) {
        List<Verdict> found = new ArrayList<>();
        for (Verdict v : verdicts) {
            if (v.target() == t && v.outcome() != Outcome.CONTEXT) {
                found.add(v);
            }
        }
        assertEquals(1, found.size(), "verdicts of " + t + ": " + verdicts);
        return found.get(0);
    }
}

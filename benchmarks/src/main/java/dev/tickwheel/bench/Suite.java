package dev.tickwheel.bench;

import dev.tickwheel.bench.report.ScalingChart;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs the scenarios, one after the other, and prints one table of Tickwheel against every peer with ratios, then
 * the targets, each marked met or missed with its figure. {@link HeadToHead} runs a short selection with few
 * iterations; {@link FullSuite} runs everything with the benchmarks' own iteration counts and draws the chart. The
 * JMH scenarios run through JMH's API with the benchmarks' fixed-heap forks; the plain scenarios run in child JVMs
 * with the same flags. Options: {@code --out DIR} (JSON, SVG and results.md), {@code --scenarios 1,2,...},
 * {@code --verbose} (JMH's own output).
 */
public final class Suite {

    /** What to run and how long. */
    static final class Settings {
        String name;
        boolean full;
        Path out;
        Set<Integer> scenarios;
        boolean verbose;
        int warmupIterations;
        int measurementIterations;
        TimeValue warmupTime;
        TimeValue measurementTime;
        int shotWarmups;
        int shotMeasurements;
        List<Peer> schedulePeers;
        String[] schedulePending;
        String[] cpuPending;
        int cpuWarmup;
        int cpuRounds;
        String scheduleMethods;
        List<Peer> expiryPeers;
        String expiryMethods;
        List<Peer> memoryPeers;
        int memoryTimers;
        List<Peer> latenessPeers;
        int latenessWarmup;
        int latenessSeconds;
        List<Peer> idlePeers;
        List<Peer> scalingPeers;
        String[] scalingPending;
        String[] wheelPending;
    }

    /** The ~2 minute selection. */
    static Settings quick(String[] args) {
        Settings s = new Settings();
        s.name = "head-to-head (short run: 1 warm-up and 1 measured iteration of 1 s per figure, 1 + 1 shots for"
                + " expiry, 2 s of lateness probes)";
        s.full = false;
        s.out = out(args, "head-to-head");
        s.scenarios = scenarios(args, "1,2,3,4,5,7");
        s.verbose = Arrays.asList(args).contains("--verbose");
        s.warmupIterations = 1;
        s.measurementIterations = 1;
        s.warmupTime = TimeValue.seconds(1);
        s.measurementTime = TimeValue.seconds(1);
        s.shotWarmups = 1;
        s.shotMeasurements = 1;
        s.schedulePeers = List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.NETTY_100MS, Peer.KAFKA);
        s.schedulePending = new String[] {"1000", "1000000"};
        s.scheduleMethods = "oneProducer";
        s.cpuPending = new String[] {"1000"};
        s.cpuWarmup = 1;
        s.cpuRounds = 2;
        s.expiryPeers = List.of(Peer.TICKWHEEL, Peer.TICKWHEEL_INLINE, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.KAFKA);
        s.expiryMethods = "oneProducer";
        s.memoryPeers = List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.KAFKA);
        s.memoryTimers = 1_000_000;
        s.latenessPeers = List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.KAFKA);
        s.latenessWarmup = 1;
        s.latenessSeconds = 2;
        s.idlePeers = List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.NETTY_100MS, Peer.KAFKA);
        s.scalingPeers = List.of(Peer.TICKWHEEL, Peer.NETTY_1MS);
        s.scalingPending = new String[] {"1000", "1000000"};
        s.wheelPending = new String[] {"1000", "1000000"};
        return s;
    }

    /** Everything, with the benchmarks' own iteration counts. */
    static Settings full(String[] args) {
        Settings s = new Settings();
        s.name = "full suite (3 warm-up and 5 measured iterations of 1 s per throughput figure; 3 + 10 shots for"
                + " expiry)";
        s.full = true;
        s.out = out(args, "results");
        s.scenarios = scenarios(args, "1,2,3,4,5,6,7");
        s.verbose = Arrays.asList(args).contains("--verbose");
        s.warmupIterations = 3;
        s.measurementIterations = 5;
        s.warmupTime = TimeValue.seconds(1);
        s.measurementTime = TimeValue.seconds(1);
        s.shotWarmups = 3;
        s.shotMeasurements = 10;
        List<Peer> timers = List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.NETTY_100MS, Peer.KAFKA);
        List<Peer> withFloor = new ArrayList<>(timers);
        withFloor.add(Peer.MPSC_FLOOR);
        List<Peer> withInline = List.of(Peer.TICKWHEEL, Peer.TICKWHEEL_INLINE, Peer.JDK_STPE, Peer.NETTY_1MS,
                Peer.NETTY_100MS, Peer.KAFKA);
        s.schedulePeers = withFloor;
        s.schedulePending = new String[] {"1000", "1000000"};
        s.scheduleMethods = "oneProducer|twoProducers";
        s.cpuPending = new String[] {"1000", "1000000"};
        s.cpuWarmup = 3;
        s.cpuRounds = 5;
        s.expiryPeers = withInline;
        s.expiryMethods = "oneProducer|twoProducers";
        s.memoryPeers = timers;
        s.memoryTimers = 1_000_000;
        List<Peer> withTicks = new ArrayList<>(withInline);
        withTicks.add(1, Peer.TICKWHEEL_100US);
        withTicks.add(2, Peer.TICKWHEEL_100US_INLINE);
        s.latenessPeers = withTicks;
        s.latenessWarmup = 2;
        s.latenessSeconds = 10;
        s.idlePeers = withInline;
        s.scalingPeers = withFloor;
        s.scalingPending = new String[] {"1000", "100000", "1000000", "10000000"};
        s.wheelPending = new String[] {"1000", "1000000"};
        return s;
    }

    private final Settings settings;
    private final Map<String, Row> rows = new LinkedHashMap<>();
    private final Map<String, Map<WheelKind, Double>> wheel = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    private Suite(Settings settings) {
        this.settings = settings;
    }

    static void run(Settings s) throws IOException {
        Files.createDirectories(s.out);
        new Suite(s).runAll();
    }

    private void runAll() throws IOException {
        String loadBefore = loadAverage();
        String started = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        long t0 = System.nanoTime();
        String header = "Tickwheel " + settings.name + "\n"
                + "machine: " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs; "
                + System.getProperty("os.name") + " " + System.getProperty("os.version") + "\n"
                + "JDK: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + "; every benchmark JVM: " + String.join(" ", ChildJvm.HEAP_FLAGS)
                + " (scaling: -Xms4g -Xmx4g)\n"
                + "library: " + librarySource() + "\n"
                + "started: " + started + "; load average before: " + loadBefore;
        System.out.println(header);
        System.out.println();
        try {
            if (settings.scenarios.contains(1)) {
                scheduleCancel();
                cpuPerOperation();
            }
            if (settings.scenarios.contains(2)) {
                expiry();
            }
            if (settings.scenarios.contains(3)) {
                memory();
            }
            if (settings.scenarios.contains(4)) {
                lateness();
            }
            if (settings.scenarios.contains(5)) {
                idle();
            }
            if (settings.scenarios.contains(6)) {
                scaling();
            }
            if (settings.scenarios.contains(7)) {
                wheelAlone();
            }
        } catch (RunnerException e) {
            throw new IllegalStateException("a benchmark failed: " + e.getMessage(), e);
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        header += "; after: " + loadAverage() + "; took " + seconds + " s";
        String report = header + "\n\n" + render();
        System.out.println();
        System.out.println(report);
        Files.write(settings.out.resolve("results.md"), report.getBytes(StandardCharsets.UTF_8));
        System.out.println("wrote " + settings.out.resolve("results.md"));
    }

    // ---- the scenarios ----------------------------------------------------------------------------------------

    private void scheduleCancel() throws RunnerException {
        nettyIntakeCaveat(settings.schedulePeers);
        step("1 schedule + cancel", settings.schedulePeers.size() * settings.schedulePending.length
                * settings.scheduleMethods.split("\\|").length);
        Collection<RunResult> results = jmh("schedule-cancel", ScheduleCancelBenchmark.class,
                settings.scheduleMethods, Map.of("peer", names(settings.schedulePeers), "pending",
                        settings.schedulePending), true, false);
        for (RunResult r : results) {
            Peer peer = Peer.valueOf(r.getParams().getParam("peer"));
            String pending = ScalingChart.count(Long.parseLong(r.getParams().getParam("pending")));
            int threads = r.getParams().getThreads();
            String what = "P=" + pending + ", " + threads + (threads == 1 ? " producer" : " producers");
            row("sc." + pending + "." + threads, "schedule+cancel, " + what, "ops/µs", true)
                    .put(peer, r.getPrimaryResult().getScore());
            checkSteady(r, "schedule+cancel, " + what);
            Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
            if (alloc != null) {
                row("alloc." + pending + "." + threads, "allocated per schedule+cancel, " + what, "B", false)
                        .put(peer, alloc.getScore());
            }
        }
    }

    private void nettyIntakeCaveat(List<Peer> peers) {
        String caveat = "Netty 100 ms moves at most 100,000 new timeouts from its queue into the wheel per tick, so it"
                + " takes in at most 1M timeouts/s; offered more, its queue grows until GC dominates. Its"
                + " schedule+cancel and CPU figures above that rate are not steady states: the CPU per operation"
                + " leaves out the intake work still queued at the end.";
        if (peers.contains(Peer.NETTY_100MS) && !notes.contains(caveat)) {
            notes.add(caveat);
        }
    }

    private void cpuPerOperation() {
        step("1 schedule + cancel, CPU per operation", settings.schedulePeers.size() * settings.cpuPending.length);
        for (String pending : settings.cpuPending) {
            for (Map<String, String> r : CpuPerOperation.runAll(settings.schedulePeers, Integer.parseInt(pending),
                    settings.cpuWarmup, settings.cpuRounds)) {
                Peer peer = Peer.valueOf(r.get("peer"));
                String p = ScalingChart.count(Long.parseLong(pending));
                row("cpu." + p, "CPU per schedule+cancel (producer + timer threads), P=" + p + ", 1 producer", "ns",
                        false).put(peer, Double.parseDouble(r.get("totalNs")));
            }
        }
    }

    private void expiry() throws RunnerException {
        step("2 expiry", settings.expiryPeers.size() * settings.expiryMethods.split("\\|").length);
        Collection<RunResult> results = jmh("expiry", ExpiryBenchmark.class, settings.expiryMethods,
                Map.of("peer", names(settings.expiryPeers)), false, true);
        for (RunResult r : results) {
            Peer peer = Peer.valueOf(r.getParams().getParam("peer"));
            int threads = r.getParams().getThreads();
            double ms = r.getPrimaryResult().getScore();
            row("expiry." + threads, "expiry, 1M timers due within 100 ms, " + threads
                    + (threads == 1 ? " producer" : " producers"), "M fires/s", true)
                    .put(peer, ExpiryBenchmark.TIMERS / (ms / 1000.0) / 1e6);
        }
    }

    private void memory() {
        step("3 retained memory", settings.memoryPeers.size());
        for (Map<String, String> r : RetainedMemory.runAll(settings.memoryPeers, settings.memoryTimers)) {
            Peer peer = Peer.valueOf(r.get("peer"));
            row("mem.pending", "heap per pending timer (1M, 1 h out)", "B", false)
                    .put(peer, Double.parseDouble(r.get("bytesPerPending")));
            row("mem.left", "heap left per timer after cancelling all", "B", false)
                    .put(peer, Double.parseDouble(r.get("bytesLeftPerCancelled")));
        }
    }

    private void lateness() {
        step("4 firing lateness", settings.latenessPeers.size());
        for (Map<String, String> r : FiringLateness.runAll(settings.latenessPeers, settings.latenessWarmup,
                settings.latenessSeconds)) {
            Peer peer = Peer.valueOf(r.get("peer"));
            String under = " (100k start+cancel/s beside)";
            row("late.p50", "lateness p50" + under, "ms", false).put(peer, Double.parseDouble(r.get("p50ms")));
            row("late.p99", "lateness p99" + under, "ms", false).put(peer, Double.parseDouble(r.get("p99ms")));
            row("late.p999", "lateness p99.9" + under, "ms", false).put(peer, Double.parseDouble(r.get("p999ms")));
            row("late.max", "lateness max" + under, "ms", false).put(peer, Double.parseDouble(r.get("maxms")));
            row("late.early", "early fires (of the probes above)", "count", false)
                    .put(peer, Double.parseDouble(r.get("early")));
            if (!"0".equals(r.get("early"))) {
                notes.add(peer.label() + ": " + r.get("early") + " of " + r.get("probes") + " lateness probes fired"
                        + " early, by up to " + r.get("maxEarlyMs") + " ms");
            }
            if (!"0".equals(r.get("missing"))) {
                notes.add(peer.label() + ": " + r.get("missing") + " lateness probes never fired");
            }
        }
    }

    private void idle() {
        step("5 idle CPU", 1);
        for (Map<String, String> r : IdleCpu.runAll(settings.idlePeers)) {
            Peer peer = Peer.valueOf(r.get("peer"));
            row("idle", "idle CPU in 5 s, one timer 1 h out", "ms", false).put(peer, Double.parseDouble(r.get("cpuMs")));
            notes.add("idle threads of " + peer.label() + ": " + r.get("threads"));
        }
    }

    private void scaling() throws RunnerException, IOException {
        nettyIntakeCaveat(settings.scalingPeers);
        step("6 scaling", settings.scalingPeers.size() * settings.scalingPending.length);
        Collection<RunResult> results = jmh("scaling", ScalingBenchmark.class, "scheduleCancel",
                Map.of("peer", names(settings.scalingPeers), "pending", settings.scalingPending), false, false);
        for (RunResult r : results) {
            Peer peer = Peer.valueOf(r.getParams().getParam("peer"));
            String pending = ScalingChart.count(Long.parseLong(r.getParams().getParam("pending")));
            row("scale." + pending, "scaling: schedule+cancel at " + pending + " pending, 1 producer", "ops/µs", true)
                    .put(peer, r.getPrimaryResult().getScore());
            checkSteady(r, "scaling at " + pending + " pending");
        }
        Row first = rows.get("scale." + ScalingChart.count(Long.parseLong(settings.scalingPending[0])));
        Row last = rows.get("scale." + ScalingChart.count(
                Long.parseLong(settings.scalingPending[settings.scalingPending.length - 1])));
        if (first != null && last != null) {
            Row cost = row("scale.cost", "scaling: op cost at " + last.label.replaceAll(".* at (\\S+) .*", "$1")
                    + " / at " + first.label.replaceAll(".* at (\\S+) .*", "$1"), "×", false);
            for (Peer p : first.values.keySet()) {
                Double hi = last.values.get(p);
                if (hi != null && hi > 0) {
                    cost.put(p, first.values.get(p) / hi);
                }
            }
        }
        Path json = settings.out.resolve("scaling.json");
        Path svg = settings.out.resolve("scaling.svg");
        ScalingChart.write(json, svg, "JDK " + System.getProperty("java.specification.version") + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs, "
                + ZonedDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE));
        System.out.println("wrote " + svg);
    }

    private void wheelAlone() throws RunnerException {
        step("7 wheel alone vs Agrona", 2 * settings.wheelPending.length);
        Collection<RunResult> results = jmh("wheel-alone", WheelAloneBenchmark.class, "removeAddAdvance",
                Map.of("pending", settings.wheelPending), false, false);
        for (RunResult r : results) {
            WheelKind kind = WheelKind.valueOf(r.getParams().getParam("wheel"));
            String pending = ScalingChart.count(Long.parseLong(r.getParams().getParam("pending")));
            checkSteadyWheel(r, kind, pending);
            wheel.computeIfAbsent(pending, k -> new EnumMap<>(WheelKind.class))
                    .put(kind, r.getPrimaryResult().getScore());
        }
    }

    /**
     * A figure is an average over iterations; when the iterations fall (or climb) by more than 3x within one run,
     * the peer was not in a steady state (typically a backlog growing until GC dominates) and the table says so.
     */
    private void checkSteadyWheel(RunResult r, WheelKind kind, String pending) {
        for (BenchmarkResult b : r.getBenchmarkResults()) {
            double min = Double.POSITIVE_INFINITY;
            double max = 0;
            for (IterationResult it : b.getIterationResults()) {
                min = Math.min(min, it.getPrimaryResult().getScore());
                max = Math.max(max, it.getPrimaryResult().getScore());
            }
            if (min > 0 && max / min > 3) {
                notes.add("not a steady state: wheel alone at " + pending + ", " + kind.label() + ": iterations from "
                        + fmt(min) + " to " + fmt(max) + " ops/µs");
            }
        }
    }

    private void checkSteady(RunResult r, String what) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        List<Double> scores = new ArrayList<>();
        for (BenchmarkResult b : r.getBenchmarkResults()) {
            for (IterationResult it : b.getIterationResults()) {
                double v = it.getPrimaryResult().getScore();
                scores.add(v);
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        if (scores.size() > 1 && min > 0 && max / min > 3) {
            StringBuilder it = new StringBuilder();
            for (double v : scores) {
                it.append(it.length() == 0 ? "" : ", ").append(fmt(v));
            }
            notes.add("not a steady state: " + what + ", " + Peer.valueOf(r.getParams().getParam("peer")).label()
                    + ": iterations " + it + " " + r.getPrimaryResult().getScoreUnit());
        }
    }

    // ---- running ------------------------------------------------------------------------------------------------

    private void step(String what, int runs) {
        System.out.println("== scenario " + what + " (" + runs + (runs == 1 ? " run" : " runs") + ") at "
                + java.time.LocalTime.now().withNano(0) + ", load " + loadAverage());
    }

    private Collection<RunResult> jmh(String name, Class<?> benchmark, String methods, Map<String, String[]> params,
                                      boolean gc, boolean singleShot) throws RunnerException {
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include("^" + Pattern.quote(benchmark.getName()) + "\\.(" + methods + ")$")
                .forks(1)
                .shouldFailOnError(true)
                .verbosity(settings.verbose ? VerboseMode.NORMAL : VerboseMode.SILENT)
                .resultFormat(ResultFormatType.JSON)
                .result(settings.out.resolve(name + ".json").toString());
        params.forEach(b::param);
        if (singleShot) {
            b.warmupIterations(settings.shotWarmups).measurementIterations(settings.shotMeasurements);
        } else {
            b.warmupIterations(settings.warmupIterations).warmupTime(settings.warmupTime)
                    .measurementIterations(settings.measurementIterations).measurementTime(settings.measurementTime);
        }
        if (gc) {
            b.addProfiler(GCProfiler.class);
        }
        Collection<RunResult> results = new Runner(b.build()).run();
        if (results.isEmpty()) {
            throw new IllegalStateException("JMH ran nothing for " + benchmark.getSimpleName() + "." + methods);
        }
        return results;
    }

    // ---- reporting ------------------------------------------------------------------------------------------

    /** One line of the table: a figure per peer. */
    static final class Row {
        final String label;
        final String unit;
        final boolean higherIsBetter;
        final Map<Peer, Double> values = new EnumMap<>(Peer.class);

        Row(String label, String unit, boolean higherIsBetter) {
            this.label = label;
            this.unit = unit;
            this.higherIsBetter = higherIsBetter;
        }

        void put(Peer p, double v) {
            values.put(p, v);
        }

        /** How many times better Tickwheel is than the peer, or NaN. */
        double advantage(Peer p) {
            Double tw = values.get(Peer.TICKWHEEL);
            Double other = values.get(p);
            if (tw == null || other == null) {
                return Double.NaN;
            }
            double num = higherIsBetter ? tw : other;
            double den = higherIsBetter ? other : tw;
            return den == 0 ? Double.NaN : num / den;
        }
    }

    private Row row(String key, String label, String unit, boolean higherIsBetter) {
        return rows.computeIfAbsent(key, k -> new Row(label, unit, higherIsBetter));
    }

    private String render() {
        StringBuilder sb = new StringBuilder();
        Set<Peer> columns = new LinkedHashSet<>();
        for (Peer p : Peer.values()) {
            for (Row r : rows.values()) {
                if (r.values.containsKey(p)) {
                    columns.add(p);
                }
            }
        }
        if (!rows.isEmpty()) {
            sb.append("Figures, and in brackets Tickwheel's advantage over the peer: (2.0x) = Tickwheel is 2.0 times "
                    + "better (higher throughput, or lower cost); (0.5x) = the peer is 2 times better.\n\n");
            sb.append("| scenario | unit |");
            for (Peer p : columns) {
                sb.append(' ').append(p.label()).append(" |");
            }
            sb.append("\n|---|---|");
            sb.append("---:|".repeat(columns.size()));
            sb.append('\n');
            for (Row r : rows.values()) {
                sb.append("| ").append(r.label).append(" | ").append(r.unit).append(r.higherIsBetter ? " ↑" : " ↓")
                        .append(" |");
                for (Peer p : columns) {
                    Double v = r.values.get(p);
                    sb.append(' ');
                    if (v == null) {
                        sb.append('-');
                    } else {
                        sb.append(fmt(v));
                        double adv = r.advantage(p);
                        if (p != Peer.TICKWHEEL && !Double.isNaN(adv)) {
                            sb.append(" (").append(String.format(Locale.ROOT, "%.1f", adv)).append("x)");
                        }
                    }
                    sb.append(" |");
                }
                sb.append('\n');
            }
        }
        if (!wheel.isEmpty()) {
            sb.append("\nThe wheel alone, single-threaded, remove + add + advance (ops/µs ↑):\n\n");
            sb.append("| pending | Tickwheel TimingWheel | Agrona DeadlineTimerWheel | Tickwheel / Agrona |\n");
            sb.append("|---|---:|---:|---:|\n");
            for (Map.Entry<String, Map<WheelKind, Double>> e : wheel.entrySet()) {
                Double tw = e.getValue().get(WheelKind.TICKWHEEL_WHEEL);
                Double ag = e.getValue().get(WheelKind.AGRONA);
                sb.append("| ").append(e.getKey()).append(" | ").append(tw == null ? "-" : fmt(tw)).append(" | ")
                        .append(ag == null ? "-" : fmt(ag)).append(" | ")
                        .append(tw == null || ag == null ? "-" : String.format(Locale.ROOT, "%.2fx", tw / ag))
                        .append(" |\n");
            }
        }
        sb.append("\nTargets (issue 5):\n\n");
        for (String t : targets()) {
            sb.append("- ").append(t).append('\n');
        }
        if (!notes.isEmpty()) {
            sb.append("\nNotes:\n\n");
            for (String n : notes) {
                sb.append("- ").append(n).append('\n');
            }
        }
        return sb.toString();
    }

    private List<String> targets() {
        List<String> out = new ArrayList<>();
        // 1 and 2: >= 2x Netty at every P and thread count.
        for (Peer netty : List.of(Peer.NETTY_1MS, Peer.NETTY_100MS)) {
            String worst = null;
            double min = Double.POSITIVE_INFINITY;
            int n = 0;
            for (Row r : rows.values()) {
                if (!r.unit.equals("ops/µs") && !r.unit.equals("M fires/s") || r.label.startsWith("scaling")) {
                    continue;
                }
                double a = r.advantage(netty);
                if (!Double.isNaN(a)) {
                    n++;
                    if (a < min) {
                        min = a;
                        worst = r.label;
                    }
                }
            }
            if (n > 0) {
                out.add(verdict(min >= 2, "throughput >= 2x " + netty.label() + " in scenarios 1 and 2 (" + n
                        + " figures): lowest ratio " + String.format(Locale.ROOT, "%.2fx", min) + " at " + worst));
            }
        }
        for (Map.Entry<String, Row> e : rows.entrySet()) {
            if (e.getKey().startsWith("cpu.")) {
                Row r = e.getValue();
                out.add(String.format(Locale.ROOT, "  (CPU time, the steadier figure on shared cores: %s: Tickwheel "
                        + "%s ns, %.2fx Netty 1 ms, %.2fx Netty 100 ms)", r.label.replace("CPU per ", ""),
                        fmt(r.values.get(Peer.TICKWHEEL)), r.advantage(Peer.NETTY_1MS), r.advantage(Peer.NETTY_100MS)));
            }
        }
        Row inline = rows.get("expiry.1");
        if (inline != null && inline.values.containsKey(Peer.TICKWHEEL_INLINE)) {
            for (Peer netty : List.of(Peer.NETTY_1MS, Peer.NETTY_100MS)) {
                Double a = inline.values.get(Peer.TICKWHEEL_INLINE);
                Double b = inline.values.get(netty);
                if (a != null && b != null) {
                    out.add("  (expiry with Tickwheel's tasks on the owner thread, as Netty runs them: "
                            + String.format(Locale.ROOT, "%.2fx", a / b) + " " + netty.label() + ", 1 producer)");
                }
            }
        }
        double maxAlloc = Double.NEGATIVE_INFINITY;
        String maxAllocAt = null;
        for (Map.Entry<String, Row> e : rows.entrySet()) {
            if (e.getKey().startsWith("alloc.")) {
                Double v = e.getValue().values.get(Peer.TICKWHEEL);
                if (v != null && v > maxAlloc) {
                    maxAlloc = v;
                    maxAllocAt = e.getValue().label;
                }
            }
        }
        if (maxAllocAt != null) {
            out.add(verdict(maxAlloc <= 48, "allocation <= 48 B per schedule+cancel: highest " + fmt(maxAlloc)
                    + " B (" + maxAllocAt + ")"));
        }
        Double mem = value("mem.pending", Peer.TICKWHEEL);
        if (mem != null) {
            out.add(verdict(mem <= 48, "retained <= 48 B per pending timer: " + fmt(mem) + " B (after cancelling"
                    + " all: " + fmt(value("mem.left", Peer.TICKWHEEL)) + " B per timer left)"));
        }
        Double early = value("late.early", Peer.TICKWHEEL);
        if (early != null) {
            double allEarly = 0;
            StringBuilder each = new StringBuilder();
            for (Peer p : List.of(Peer.TICKWHEEL, Peer.TICKWHEEL_INLINE, Peer.TICKWHEEL_100US,
                    Peer.TICKWHEEL_100US_INLINE)) {
                Double e = value("late.early", p);
                if (e != null) {
                    allEarly += e;
                    each.append(each.length() == 0 ? "" : ", ").append(p.label()).append(' ').append(fmt(e));
                }
            }
            out.add(verdict(allEarly == 0, "zero early fires: " + each));
            Double p99 = value("late.p99", Peer.TICKWHEEL);
            Double jdk = value("late.p99", Peer.JDK_STPE);
            Double fine = value("late.p99", Peer.TICKWHEEL_100US);
            Double fineInline = value("late.p99", Peer.TICKWHEEL_100US_INLINE);
            if (jdk != null) {
                out.add(verdict(p99 <= jdk, "lateness p99 no worse than the JDK's: " + fmt(p99) + " ms vs "
                        + fmt(jdk) + " ms" + (fine == null ? "" : " (with a 100 µs tick: " + fmt(fine) + " ms)")
                        + (fineInline == null ? "" : " (with a 100 µs tick and tasks on the owner thread: "
                        + fmt(fineInline) + " ms)")));
            }
        }
        Double idle = value("idle", Peer.TICKWHEEL);
        if (idle != null) {
            out.add(verdict(idle <= 1, "idle CPU <= 1 ms in 5 s: " + fmt(idle) + " ms (Netty 1 ms: "
                    + fmt(value("idle", Peer.NETTY_1MS)) + " ms)"));
        }
        Double cost = value("scale.cost", Peer.TICKWHEEL);
        if (cost != null) {
            out.add(verdict(cost <= 1.5, rows.get("scale.cost").label + " <= 1.5: " + fmt(cost) + "x"));
        }
        Map<WheelKind, Double> small = wheel.get("1k");
        Map<WheelKind, Double> large = wheel.get("1M");
        if (small != null && small.size() == 2) {
            double tw = small.get(WheelKind.TICKWHEEL_WHEEL);
            double ag = small.get(WheelKind.AGRONA);
            out.add(verdict(tw >= ag, "wheel alone at 1k at least Agrona's throughput: " + fmt(tw) + " vs "
                    + fmt(ag) + " ops/µs"));
            if (large != null && large.size() == 2) {
                double twDrop = tw / large.get(WheelKind.TICKWHEEL_WHEEL);
                double agDrop = ag / large.get(WheelKind.AGRONA);
                out.add(verdict(twDrop <= 1.5, "wheel alone, no collapse at 1M (read as: 1k/1M throughput <= 1.5):"
                        + String.format(Locale.ROOT, " Tickwheel falls %.2fx, Agrona %.2fx", twDrop, agDrop)));
            }
        }
        if (out.isEmpty()) {
            out.add("none measured in this run");
        }
        return out;
    }

    private Double value(String key, Peer p) {
        Row r = rows.get(key);
        return r == null ? null : r.values.get(p);
    }

    private static String verdict(boolean met, String what) {
        return (met ? "MET: " : "MISSED: ") + what;
    }

    static String fmt(Double v) {
        if (v == null) {
            return "-";
        }
        double a = Math.abs(v);
        if (a == 0) {
            return "0";
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    // ---- environment --------------------------------------------------------------------------------------------

    private static String[] names(List<Peer> peers) {
        return peers.stream().map(Enum::name).toArray(String[]::new);
    }

    private static Path out(String[] args, String leaf) {
        String dir = ChildJvm.arg(args, "--out", null);
        if (dir != null) {
            return Paths.get(dir);
        }
        // Run from the repository root (the README's commands) or from benchmarks/.
        Path module = Files.isDirectory(Paths.get("benchmarks", "src")) ? Paths.get("benchmarks") : Paths.get(".");
        return leaf.equals("results") ? module.resolve("results") : module.resolve("target").resolve(leaf);
    }

    private static Set<Integer> scenarios(String[] args, String dflt) {
        Set<Integer> s = new LinkedHashSet<>();
        for (String x : ChildJvm.arg(args, "--scenarios", dflt).split(",")) {
            int n = Integer.parseInt(x.trim());
            if (n < 1 || n > 7) {
                throw new IllegalArgumentException("scenario " + n + " does not exist: scenarios are 1 to 7");
            }
            s.add(n);
        }
        return s;
    }

    /** The commit the library was built from, and whether wheel/src/main had uncommitted changes. */
    static String librarySource() {
        try {
            String head = git("rev-parse", "--short", "HEAD");
            String dirty = git("status", "--porcelain", "--", "wheel/src/main");
            if (head.isEmpty()) {
                return "unknown (not run from the repository root)";
            }
            return "commit " + head + (dirty.isEmpty() ? "" : " with uncommitted changes in wheel/src/main");
        } catch (IOException | RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static String git(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            return p.waitFor() == 0 ? out : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return System.getProperty("os.arch");
    }

    static String loadAverage() {
        try {
            String[] f = new String(Files.readAllBytes(Paths.get("/proc/loadavg")), StandardCharsets.UTF_8).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return String.format(Locale.ROOT, "%.2f",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }
}

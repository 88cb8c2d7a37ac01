package dev.tickwheel.bench;

import static dev.tickwheel.bench.suite.RunEnvironment.cpuModel;
import static dev.tickwheel.bench.suite.RunEnvironment.librarySource;
import static dev.tickwheel.bench.suite.RunEnvironment.loadAverage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The Netty drop-in against the timer it replaces, both driven only through Netty's {@code io.netty.util.Timer}
 * interface by the same adapter ({@link dev.tickwheel.bench.peer.NettyInterfaceAdapter}): Tickwheel's
 * {@code NettyWheelTimer} with its defaults (and, for expiry, with tasks on its timer thread, as Netty runs them)
 * against {@code HashedWheelTimer} with a 1 ms tick and with its default 100 ms tick. The scenarios are the main
 * suite's, with these peers: newTimeout + cancel at 1k and 1M pending, one producer ({@link ScheduleCancelBenchmark},
 * with the bytes allocated per operation); expiry of 1M timeouts due within 100 ms ({@link ExpiryBenchmark}); heap
 * per pending timeout ({@link RetainedMemory}); CPU burnt in 5 s by an idle timer ({@link IdleCpu}). About 2
 * minutes; {@code --quick} cuts the JMH iterations (about 75 s).
 *
 * <pre>
 * mvn -B -ntp -q -pl benchmarks -am package -DskipTests -Djcstress.skip=true
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.NettyDropIn [--quick] [--out FILE]
 * </pre>
 *
 * The table goes to standard output and to {@code --out} (default benchmarks/target/netty-drop-in.md).
 */
public final class NettyDropIn {

    static final Peer TICKWHEEL = Peer.NETTY_TIMER_TICKWHEEL;
    static final Peer TICKWHEEL_INLINE = Peer.NETTY_TIMER_TICKWHEEL_INLINE;
    static final Peer HWT_1MS = Peer.NETTY_TIMER_HWT_1MS;
    static final Peer HWT_100MS = Peer.NETTY_TIMER_HWT_100MS;
    static final List<Peer> COLUMNS = List.of(TICKWHEEL, HWT_1MS, HWT_100MS);

    private final boolean quick;
    private final List<String[]> rows = new ArrayList<>();

    private NettyDropIn(boolean quick) {
        this.quick = quick;
    }

    public static void main(String[] args) throws IOException, RunnerException {
        boolean quick = List.of(args).contains("--quick");
        Path out = Paths.get(ChildJvm.arg(args, "--out", "benchmarks/target/netty-drop-in.md"));
        new NettyDropIn(quick).run(out);
    }

    private void run(Path out) throws IOException, RunnerException {
        String loadBefore = loadAverage();
        long t0 = System.nanoTime();
        String started = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        scheduleCancel();
        expiry();
        memory();
        idle();
        String header = "Netty drop-in: Tickwheel's NettyWheelTimer against HashedWheelTimer, through io.netty.util.Timer"
                + (quick ? " (quick run)" : "") + "\n"
                + "machine: " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs; JDK "
                + System.getProperty("java.runtime.version") + "; every benchmark JVM: "
                + String.join(" ", ChildJvm.HEAP_FLAGS) + "\n"
                + "library: " + librarySource() + "\n"
                + "started " + started + "; load average before: " + loadBefore + "; after: " + loadAverage()
                + "; took " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0) + " s";
        String report = header + "\n\n" + render();
        System.out.println();
        System.out.println(report);
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.write(out, report.getBytes(StandardCharsets.UTF_8));
        System.out.println("wrote " + out);
    }

    // ---- scenarios ---------------------------------------------------------------------------------------------

    private void scheduleCancel() throws RunnerException {
        step("newTimeout + cancel");
        Collection<RunResult> results = jmh(ScheduleCancelBenchmark.class, "oneProducer", true,
                "pending", new String[] {"1000", "1000000"}, COLUMNS);
        Map<Peer, Double> k1 = new EnumMap<>(Peer.class);
        Map<Peer, Double> m1 = new EnumMap<>(Peer.class);
        Map<Peer, String> bytes = new EnumMap<>(Peer.class);
        for (RunResult r : results) {
            Peer p = Peer.valueOf(r.getParams().getParam("peer"));
            boolean small = r.getParams().getParam("pending").equals("1000");
            (small ? k1 : m1).put(p, r.getPrimaryResult().getScore());
            Double alloc = AllocationPerOp.median(r); // not the mean: the trial's teardown lands in one iteration
            String b = alloc == null ? "?" : fmt(alloc);
            bytes.merge(p, b, (a, c) -> small ? b + " / " + a : a + " / " + b);
        }
        row("newTimeout + cancel, 1k pending, 1 producer", "ops/µs ↑", k1, true);
        row("newTimeout + cancel, 1M pending, 1 producer", "ops/µs ↑", m1, true);
        List<String> cells = new ArrayList<>(List.of("allocated per newTimeout + cancel, 1k / 1M pending", "B ↓"));
        for (Peer p : COLUMNS) {
            cells.add(bytes.getOrDefault(p, "-"));
        }
        rows.add(cells.toArray(new String[0]));
    }

    private void expiry() throws RunnerException {
        step("expiry");
        List<Peer> peers = List.of(TICKWHEEL, TICKWHEEL_INLINE, HWT_1MS, HWT_100MS);
        Collection<RunResult> results = jmh(ExpiryBenchmark.class, "oneProducer", false, null, null, peers);
        Map<Peer, Double> firesPerSecond = new EnumMap<>(Peer.class);
        for (RunResult r : results) {
            // A shot of 1M timers takes score ms: 1M / (score / 1000) fires a second, in millions.
            firesPerSecond.put(Peer.valueOf(r.getParams().getParam("peer")), 1000.0 / r.getPrimaryResult().getScore());
        }
        row("expiry: 1M timeouts due within 100 ms, 1 producer", "M fires/s ↑", firesPerSecond, true);
        Map<Peer, Double> inline = new EnumMap<>(Peer.class);
        if (firesPerSecond.containsKey(TICKWHEEL_INLINE)) {
            inline.put(TICKWHEEL, firesPerSecond.get(TICKWHEEL_INLINE));
            inline.put(HWT_1MS, firesPerSecond.get(HWT_1MS));
            inline.put(HWT_100MS, firesPerSecond.get(HWT_100MS));
        }
        row("expiry, Tickwheel with runTasksOnTimerThread() (as Netty runs tasks)", "M fires/s ↑", inline, true);
    }

    private void memory() {
        step("heap per pending timeout");
        Map<Peer, Double> perPending = new EnumMap<>(Peer.class);
        for (Map<String, String> r : RetainedMemory.runAll(List.of(TICKWHEEL, HWT_1MS), 1_000_000)) {
            perPending.put(Peer.valueOf(r.get("peer")), Double.parseDouble(r.get("bytesPerPending")));
        }
        row("heap per pending timeout (1M, 1 h out)", "B ↓", perPending, false);
    }

    private void idle() {
        step("idle CPU");
        Map<Peer, Double> cpu = new EnumMap<>(Peer.class);
        for (Map<String, String> r : IdleCpu.runAll(COLUMNS)) {
            cpu.put(Peer.valueOf(r.get("peer")), Double.parseDouble(r.get("cpuMs")));
        }
        row("idle CPU in 5 s, one timeout 1 h out", "ms ↓", cpu, false);
    }

    // ---- running -----------------------------------------------------------------------------------------------

    private Collection<RunResult> jmh(Class<?> benchmark, String method, boolean gc, String param, String[] values,
                                      List<Peer> peers) throws RunnerException {
        String[] names = peers.stream().map(Enum::name).toArray(String[]::new);
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include("^" + Pattern.quote(benchmark.getName()) + "\\." + method + "$")
                .forks(1)
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT)
                .param("peer", names);
        if (param != null) {
            b.param(param, values);
        }
        if (quick) {
            b.warmupIterations(1).measurementIterations(3);
            if (benchmark != ExpiryBenchmark.class) {
                b.warmupTime(TimeValue.seconds(1)).measurementTime(TimeValue.seconds(1));
            }
        }
        if (gc) {
            b.addProfiler(GCProfiler.class);
        }
        Collection<RunResult> results = new Runner(b.build()).run();
        if (results.isEmpty()) {
            throw new IllegalStateException("JMH ran nothing for " + benchmark.getSimpleName() + "." + method);
        }
        return results;
    }

    private static void step(String what) {
        System.out.println("== " + what + " at " + java.time.LocalTime.now().withNano(0) + ", load "
                + loadAverage());
    }

    // ---- reporting ---------------------------------------------------------------------------------------------

    /** A row: each column's figure, and for the HashedWheelTimer columns Tickwheel's advantage over it. */
    private void row(String scenario, String unit, Map<Peer, Double> values, boolean higherIsBetter) {
        List<String> cells = new ArrayList<>(List.of(scenario, unit));
        Double tw = values.get(TICKWHEEL);
        for (Peer p : COLUMNS) {
            Double v = values.get(p);
            if (v == null) {
                cells.add("-");
            } else if (p == TICKWHEEL || tw == null) {
                cells.add(fmt(v));
            } else {
                double advantage = higherIsBetter ? tw / v : v / tw;
                cells.add(fmt(v) + (Double.isFinite(advantage) && advantage > 0
                        ? " (" + String.format(Locale.ROOT, "%.1fx", advantage) + ")" : ""));
            }
        }
        rows.add(cells.toArray(new String[0]));
    }

    private String render() {
        StringBuilder sb = new StringBuilder("| scenario | unit |");
        for (Peer p : COLUMNS) {
            sb.append(' ').append(p.label()).append(" |");
        }
        sb.append("\n|---|---|");
        for (int i = 0; i < COLUMNS.size(); i++) {
            sb.append("---:|");
        }
        sb.append('\n');
        for (String[] r : rows) {
            sb.append('|');
            for (String c : r) {
                sb.append(' ').append(c).append(" |");
            }
            sb.append('\n');
        }
        sb.append("\nBracketed: Tickwheel's advantage over that timer (2.0x = Tickwheel twice as good). Read ratios, not"
                + " absolute figures: the machine's cores are shared.\n");
        return sb.toString();
    }

    static String fmt(double v) {
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        return String.format(Locale.ROOT, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", v);
    }
}

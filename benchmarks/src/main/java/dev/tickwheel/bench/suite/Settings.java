package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.ChildJvm;
import dev.tickwheel.bench.FiringShots;
import dev.tickwheel.bench.Peer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What a run measures and how long: the two presets, {@link #quick} for the head-to-head and {@link #full} for the
 * full suite, side by side, and the command-line options both take: {@code --out DIR} (JSON, SVG and results.md),
 * {@code --scenarios 1,2,...}, {@code --verbose} (JMH's own output). The peers are those this JVM can run: on JDK 25
 * and later the JDK's ForkJoinPool peers run wherever its ScheduledThreadPoolExecutor does; before 25 they are left
 * out and {@link #skipNotes()} says so.
 */
public final class Settings {
    String name;
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
    /**
     * How many child JVMs of Tickwheel and of the JDK's STPE, interleaved, the lateness targets are judged on, quiet
     * and then with {@link #latenessBusy} busy processes beside (issue 23: the median of three 10 s runs, both ways).
     */
    int latenessRounds;
    int latenessBusy;
    /**
     * Seconds of probes before the judged runs' window opens: the steady state the targets are about, against the
     * one-run table's {@link #latenessWarmup}, which keeps a JVM's first seconds in view. Session 39, on 2 cores with
     * JDK 25 and a 2 s warm-up: C2 compiled the owner's step at 6.9 s of the JVM's life, its park plan at 8.2 s and
     * the standby's loop at 8.8 s. With the window's own deoptimization gone (see {@code FiringLateness}), the
     * quiet p99.9 of three such runs still read 1.06-2.03 ms; with 15 s, 0.24-0.35 against the JDK's 0.25-0.37.
     * Each peer gets the same.
     */
    int latenessJudgedWarmup;
    List<Peer> idlePeers;
    List<Peer> scalingPeers;
    String[] scalingPending;
    String[] wheelPending;
    List<Peer> firingPeers;
    String firingProducers;
    String sweepWorkers;
    /**
     * How many times the worker sweep runs each pool size, in child JVMs interleaved across the sizes (forward, then
     * backward, ...): a shot's median moves by up to a quarter from one JVM to the next on these shared cores, more
     * than the 10% the sweep is judged by, so each size's figure is the median of its rounds.
     */
    int sweepRounds;
    int firingWarmup;
    int firingShots;
    /** JVMs per peer and producer count for the expiry shot (each its own warm-up and shots), interleaved. */
    int firingRounds;
    /**
     * Chains each async-chain JVM runs before its judged window: the steady state the target is about. Session 40, on 2
     * cores: after the 200 chains used until then (about half a second of the JVM's life), C2 was still compiling the
     * continuation slot's fill and {@code CompletableFuture}'s completion, and each executor's median moved between
     * modes from JVM to JVM (Tickwheel 0.25-0.70 ms, the JDK's STPE 0.29-0.57); after 2,000 and 6,000 chains each kept
     * one (Tickwheel 0.14-0.20, the STPE 0.60-0.73, both JDKs). Both executors get the same.
     */
    int chainWarmup;
    /**
     * Chains before the first window, in the same JVMs ({@code AsyncChain.FIRST_WARMUP}): a JVM's first half second,
     * reported beside the judged row so that the JIT's share stays in view.
     */
    int chainFirstWarmup;
    int chainRuns;
    /**
     * How many child JVMs run the async chain per executor, interleaved with the other executor's (Tickwheel, STPE,
     * STPE, Tickwheel, ...). The chain's median is multimodal from one JVM to the next on two cores, for both pools
     * (each step finds the other worker spinning, or wakes it): in one full suite a single JVM read 2.35 ms where
     * eight standalone ones read 0.24-1.00. The row is the median of the JVMs' medians, each listed beside it.
     */
    int chainRounds;

    /** Listed peers this JVM cannot run (the ForkJoinPool peers before JDK 25), in {@link Peer} order. */
    final Set<Peer> skipped = new TreeSet<>();
    private final Predicate<Peer> available;

    /** Each line: the full suite's value, else the head-to-head's. */
    private Settings(String[] args, boolean full, Predicate<Peer> available) {
        this.available = available;
        name = full ? "full suite (3 warm-up and 5 measured iterations of 1 s per throughput figure; 20 + 10 shots"
                + " for expiry)" : "head-to-head (short run: 1 warm-up and 1 measured iteration of 1 s per figure,"
                + " 1 + 1 shots for expiry, 2 s of lateness probes)";
        out = out(args, full ? "results" : "head-to-head");
        scenarios = scenarios(args, full ? "1,2,3,4,5,6,7,8" : "1,2,3,4,5,7,8");
        verbose = Arrays.asList(args).contains("--verbose");
        warmupIterations = full ? 3 : 1;
        measurementIterations = full ? 5 : 1;
        warmupTime = TimeValue.seconds(1);
        measurementTime = TimeValue.seconds(1);
        shotWarmups = full ? FiringShots.DEFAULT_WARMUP : 1; // the expiry shot's steady state (see FiringShots)
        shotMeasurements = full ? 10 : 1;
        List<Peer> timers = List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.NETTY_100MS, Peer.KAFKA);
        List<Peer> withFloor = new ArrayList<>(timers);
        withFloor.add(Peer.MPSC_FLOOR);
        List<Peer> withInline = List.of(Peer.TICKWHEEL, Peer.TICKWHEEL_INLINE, Peer.JDK_STPE, Peer.NETTY_1MS,
                Peer.NETTY_100MS, Peer.KAFKA);
        List<Peer> withTicks = new ArrayList<>(withInline);
        withTicks.add(2, Peer.TICKWHEEL_1MS);
        withTicks.add(3, Peer.TICKWHEEL_1MS_INLINE);
        schedulePeers = peers(full ? withFloor : timers);
        schedulePending = new String[] {"1000", "1000000"};
        scheduleMethods = full ? "oneProducer|twoProducers" : "oneProducer";
        cpuPending = full ? new String[] {"1000", "1000000"} : new String[] {"1000"};
        cpuWarmup = full ? 3 : 1;
        cpuRounds = full ? 5 : 2;
        expiryPeers = peers(full ? withTicks
                : List.of(Peer.TICKWHEEL, Peer.TICKWHEEL_INLINE, Peer.TICKWHEEL_1MS, Peer.JDK_STPE, Peer.NETTY_1MS,
                        Peer.KAFKA));
        expiryMethods = full ? "oneProducer|twoProducers" : "oneProducer";
        memoryPeers = peers(full ? timers : List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.KAFKA));
        memoryTimers = 1_000_000;
        latenessPeers = peers(full ? withTicks
                : List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.KAFKA));
        latenessWarmup = full ? 2 : 1;
        latenessSeconds = full ? 10 : 2;
        latenessRounds = full ? 3 : 1;
        latenessJudgedWarmup = full ? 15 : 1;
        latenessBusy = 2;
        idlePeers = peers(full ? withInline : timers);
        scalingPeers = peers(full ? withFloor : List.of(Peer.TICKWHEEL, Peer.NETTY_1MS));
        scalingPending = full ? new String[] {"1000", "100000", "1000000", "10000000"}
                : new String[] {"1000", "1000000"};
        wheelPending = new String[] {"1000", "1000000"};
        firingPeers = peers(List.of(Peer.TICKWHEEL, Peer.NETTY_1MS));
        firingProducers = full ? "1,2" : "1";
        sweepWorkers = "1,2,4,8,16,32";
        sweepRounds = full ? 5 : 2;
        firingWarmup = FiringShots.DEFAULT_WARMUP; // steady state; the first shots get their own row
        firingShots = full ? 7 : 3;
        firingRounds = full ? 5 : 1;
        chainWarmup = full ? 5_000 : 2_000;
        chainFirstWarmup = 200;
        chainRuns = full ? 41 : 21;
        chainRounds = full ? 5 : 3;
    }

    /**
     * The peers a scenario runs: the JDK's ForkJoinPool peers wherever its {@code ScheduledThreadPoolExecutor} is
     * listed, since from JDK 25 on they are what a user gets from the JDK too; then only those this JVM can run, the
     * others recorded in {@link #skipped}.
     */
    private List<Peer> peers(List<Peer> listed) {
        List<Peer> out = new ArrayList<>();
        for (Peer p : listed) {
            List<Peer> expanded = p == Peer.JDK_STPE
                    ? List.of(Peer.JDK_STPE, Peer.JDK_FORKJOIN, Peer.JDK_FORKJOIN_COMMON) : List.of(p);
            for (Peer q : expanded) {
                if (available.test(q)) {
                    out.add(q);
                } else {
                    skipped.add(q);
                }
            }
        }
        return out;
    }

    /** @return one note per listed peer this JVM cannot run, to stand in for its figures */
    List<String> skipNotes() {
        List<String> notes = new ArrayList<>();
        for (Peer p : skipped) {
            notes.add(p.skipNote());
        }
        return notes;
    }

    /** The ~4 minute selection (more on JDK 25, which adds the ForkJoinPool peers). */
    public static Settings quick(String[] args) {
        return quick(args, Peer::available);
    }

    /** Everything, with the benchmarks' own iteration counts. */
    public static Settings full(String[] args) {
        return full(args, Peer::available);
    }

    /** The head-to-head as on a JVM that can run exactly the peers {@code available} accepts. */
    static Settings quick(String[] args, Predicate<Peer> available) {
        return new Settings(args, false, available);
    }

    /** The full suite as on a JVM that can run exactly the peers {@code available} accepts. */
    static Settings full(String[] args, Predicate<Peer> available) {
        return new Settings(args, true, available);
    }

    /** @return how many benchmark methods the {@code a|b} pattern names */
    static int methodCount(String methods) {
        return methods.split("\\|").length;
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
            if (n < 1 || n > 8) {
                throw new IllegalArgumentException("scenario " + n + " does not exist: scenarios are 1 to 8");
            }
            s.add(n);
        }
        return s;
    }
}

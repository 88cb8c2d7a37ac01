package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.ChildJvm;
import dev.tickwheel.bench.Peer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What a run measures and how long: the two presets, {@link #quick} for the head-to-head and {@link #full} for the
 * full suite, side by side, and the command-line options both take: {@code --out DIR} (JSON, SVG and results.md),
 * {@code --scenarios 1,2,...}, {@code --verbose} (JMH's own output).
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
    List<Peer> idlePeers;
    List<Peer> scalingPeers;
    String[] scalingPending;
    String[] wheelPending;

    /** Each line: the full suite's value, else the head-to-head's. */
    private Settings(String[] args, boolean full) {
        name = full ? "full suite (3 warm-up and 5 measured iterations of 1 s per throughput figure; 3 + 10 shots"
                + " for expiry)" : "head-to-head (short run: 1 warm-up and 1 measured iteration of 1 s per figure,"
                + " 1 + 1 shots for expiry, 2 s of lateness probes)";
        out = out(args, full ? "results" : "head-to-head");
        scenarios = scenarios(args, full ? "1,2,3,4,5,6,7" : "1,2,3,4,5,7");
        verbose = Arrays.asList(args).contains("--verbose");
        warmupIterations = full ? 3 : 1;
        measurementIterations = full ? 5 : 1;
        warmupTime = TimeValue.seconds(1);
        measurementTime = TimeValue.seconds(1);
        shotWarmups = full ? 3 : 1;
        shotMeasurements = full ? 10 : 1;
        List<Peer> timers = List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.NETTY_100MS, Peer.KAFKA);
        List<Peer> withFloor = new ArrayList<>(timers);
        withFloor.add(Peer.MPSC_FLOOR);
        List<Peer> withInline = List.of(Peer.TICKWHEEL, Peer.TICKWHEEL_INLINE, Peer.JDK_STPE, Peer.NETTY_1MS,
                Peer.NETTY_100MS, Peer.KAFKA);
        List<Peer> withTicks = new ArrayList<>(withInline);
        withTicks.add(1, Peer.TICKWHEEL_100US);
        withTicks.add(2, Peer.TICKWHEEL_100US_INLINE);
        schedulePeers = full ? withFloor : timers;
        schedulePending = new String[] {"1000", "1000000"};
        scheduleMethods = full ? "oneProducer|twoProducers" : "oneProducer";
        cpuPending = full ? new String[] {"1000", "1000000"} : new String[] {"1000"};
        cpuWarmup = full ? 3 : 1;
        cpuRounds = full ? 5 : 2;
        expiryPeers = full ? withInline
                : List.of(Peer.TICKWHEEL, Peer.TICKWHEEL_INLINE, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.KAFKA);
        expiryMethods = full ? "oneProducer|twoProducers" : "oneProducer";
        memoryPeers = full ? timers : List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.KAFKA);
        memoryTimers = 1_000_000;
        latenessPeers = full ? withTicks : List.of(Peer.TICKWHEEL, Peer.JDK_STPE, Peer.NETTY_1MS, Peer.KAFKA);
        latenessWarmup = full ? 2 : 1;
        latenessSeconds = full ? 10 : 2;
        idlePeers = full ? withInline : timers;
        scalingPeers = full ? withFloor : List.of(Peer.TICKWHEEL, Peer.NETTY_1MS);
        scalingPending = full ? new String[] {"1000", "100000", "1000000", "10000000"}
                : new String[] {"1000", "1000000"};
        wheelPending = new String[] {"1000", "1000000"};
    }

    /** The ~2 minute selection. */
    public static Settings quick(String[] args) {
        return new Settings(args, false);
    }

    /** Everything, with the benchmarks' own iteration counts. */
    public static Settings full(String[] args) {
        return new Settings(args, true);
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
            if (n < 1 || n > 7) {
                throw new IllegalArgumentException("scenario " + n + " does not exist: scenarios are 1 to 7");
            }
            s.add(n);
        }
        return s;
    }
}

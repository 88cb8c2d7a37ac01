package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.ChildJvm;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Where and when a run happened, for its header: the machine, the JDK, the heap flags of every benchmark JVM, the
 * commit the library was built from, the start time, and the load average before and after (figures on shared
 * cores move with it).
 */
public final class RunEnvironment {
    private final String loadBefore;
    private final String started;
    private final long startNanos;

    private RunEnvironment() {
        loadBefore = loadAverage();
        started = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        startNanos = System.nanoTime();
    }

    /** Reads the load average and the clock: call it just before the first scenario. */
    static RunEnvironment capture() {
        return new RunEnvironment();
    }

    /** @return the header's lines, up to the load average before the run */
    String header(String runName) {
        return "Tickwheel " + runName + "\n"
                + "machine: " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs; "
                + System.getProperty("os.name") + " " + System.getProperty("os.version") + "\n"
                + "JDK: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + "; every benchmark JVM: " + String.join(" ", ChildJvm.HEAP_FLAGS)
                + " (scaling: -Xms4g -Xmx4g)\n"
                + "library: " + librarySource() + "\n"
                + "started: " + started + "; load average before: " + loadBefore;
    }

    /** @return what the header gains at the end of the run: the load average after, and how long it took */
    String finished() {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
        return "; after: " + loadAverage() + "; took " + seconds + " s";
    }

    /** @return the progress line printed before a scenario */
    static String progress(String what, int runs) {
        return "== scenario " + what + " (" + runs + (runs == 1 ? " run" : " runs") + ") at "
                + LocalTime.now().withNano(0) + ", load " + loadAverage();
    }

    /** @return the chart's subtitle: JDK, CPUs and date */
    static String chartSubtitle() {
        return "JDK " + System.getProperty("java.specification.version") + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs, "
                + ZonedDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE);
    }

    /**
     * The commit the library was built from, and whether its sources (the core's and the Netty adapter's) had
     * uncommitted changes. Also used by {@link dev.tickwheel.bench.NettyDropIn}.
     */
    public static String librarySource() {
        try {
            String head = git("rev-parse", "--short", "HEAD");
            String dirty = git("status", "--porcelain", "--", "wheel/src/main", "integrations/netty/src/main");
            if (head.isEmpty()) {
                return "unknown (not run from the repository root)";
            }
            return "commit " + head + (dirty.isEmpty() ? "" : " with uncommitted changes in the library's sources");
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

    /** @return the CPU's model name (Linux), else the architecture */
    public static String cpuModel() {
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

    /** @return the 1, 5 and 15 minute load averages */
    public static String loadAverage() {
        try {
            String[] f = new String(Files.readAllBytes(Paths.get("/proc/loadavg")), StandardCharsets.UTF_8).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return String.format(Locale.ROOT, "%.2f",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }
}

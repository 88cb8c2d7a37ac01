package dev.tickwheel.bench;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Scenario 3: heap retained per pending timer, and what is left once they are all cancelled. Each peer runs in its
 * own JVM with the fixed heap flags. How it measures: the handles array is allocated and a few thousand timers are
 * started and cancelled first (so lazily built structures and threads exist), then "used heap" is read with
 * {@link MemoryMXBean} after {@code System.gc()} (a full, compacting collection with G1) until two readings 300 ms
 * apart agree within 64 KB: that is the baseline. Then 1M timers are started, all one hour out, and their handles
 * kept (a caller keeps its timeouts to cancel them); the settled used heap minus the baseline, over 1M, is the cost
 * of a pending timer: the timer's own objects and the handle (for Kafka, the {@code TimerTask} subclass its API
 * requires). Then every timer is cancelled and its handle dropped; the settled difference is what remains. The task
 * object is shared, so it is not counted.
 *
 * <p>Two readings at each point: the used heap above, and the live objects' bytes, the total of the JVM's class
 * histogram ({@code GC.class_histogram} through the {@code DiagnosticCommand} MBean, after its own full collection)
 * less the rows of the JVM's dead-space fillers ({@link #liveBytes}): the sum of the sizes of every reachable object,
 * which is what "retained" means. The judged figure is the live objects'. The used heap reads 0.3 to 0.8 B per timer
 * above it for every peer (session 23: Tickwheel 48.80 against 48.07 live, Netty 1 ms 56.61 against 56.06, in one
 * pair of JVMs; the histograms' only difference of any size was the timers themselves): G1's used heap after a full
 * collection counts space between and after the compacted objects that no object holds.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.RetainedMemory
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.RetainedMemory --peers TICKWHEEL,NETTY_1MS --timers 1000000
 * </pre>
 */
public final class RetainedMemory {
    /** Delay of every timer: one hour. */
    static final long DELAY_MS = 3_600_000;

    private RetainedMemory() {
    }

    public static void main(String[] args) {
        String child = ChildJvm.arg(args, "--child", null);
        int timers = Integer.parseInt(ChildJvm.arg(args, "--timers", "1000000"));
        if (child != null) {
            measure(Peer.valueOf(child), timers);
            return;
        }
        List<Peer> peers = ChildJvm.peers(ChildJvm.arg(args, "--peers",
                "TICKWHEEL,JDK_STPE,JDK_FORKJOIN,JDK_FORKJOIN_COMMON,NETTY_1MS,NETTY_100MS,KAFKA"));
        List<Map<String, String>> results = runAll(peers, timers);
        System.out.printf(Locale.ROOT, "%-28s %22s %22s %22s %22s%n", "peer", "live B/pending timer",
                "live B left/cancelled", "used heap B/pending", "filler B/pending");
        for (Map<String, String> r : results) {
            System.out.printf(Locale.ROOT, "%-28s %22s %22s %22s %22s%n", Peer.valueOf(r.get("peer")).label(),
                    r.get("bytesPerPending"), r.get("bytesLeftPerCancelled"), r.get("heapUsedPerPending"),
                    r.get("fillerBytesPerPending"));
        }
    }

    /** Runs each peer in its own child JVM; a peer this JVM cannot run is skipped with a line saying so. */
    public static List<Map<String, String>> runAll(List<Peer> peers, int timers) {
        List<Map<String, String>> out = new ArrayList<>();
        for (Peer p : peers) {
            if (!p.fires()) {
                continue; // the floor keeps nothing
            }
            if (!p.available()) {
                System.out.println("retained memory: " + p.skipNote());
                continue;
            }
            System.out.println("retained memory: " + p + ", " + timers + " timers");
            out.addAll(ChildJvm.run(RetainedMemory.class, List.of("--child", p.name(), "--timers", "" + timers)));
        }
        return out;
    }

    private static void measure(Peer peer, int timers) {
        TimerAdapter timer = peer.create();
        CountingTask task = new CountingTask();
        Object[] handles = new Object[timers];
        for (int i = 0; i < 10_000; i++) {
            timer.cancel(timer.schedule(task, DELAY_MS));
        }
        ChildJvm.sleep(200);
        long base = settledHeapUsed();
        long[] liveBase = liveBytes();
        for (int i = 0; i < timers; i++) {
            handles[i] = timer.schedule(task, DELAY_MS);
        }
        ChildJvm.sleep(500);
        long pending = settledHeapUsed();
        long[] livePending = liveBytes();
        for (int i = 0; i < timers; i++) {
            timer.cancel(handles[i]);
            handles[i] = null;
        }
        ChildJvm.sleep(500);
        long left = settledHeapUsed();
        long[] liveLeft = liveBytes();
        // The handles array is part of the baseline: keep it reachable until here, or the JIT may let it die early
        // and its 4 MB would show up as a negative residue.
        Reference.reachabilityFence(handles);
        timer.close();
        if (task.runs() != 0) {
            throw new IllegalStateException(peer + ": " + task.runs() + " one-hour timers fired");
        }
        ChildJvm.report(ChildJvm.fields("scenario", "memory", "peer", peer.name(), "timers", timers,
                "bytesPerPending", perTimer(livePending[0] - liveBase[0], timers),
                "bytesLeftPerCancelled", perTimer(liveLeft[0] - liveBase[0], timers),
                "fillerBytesPerPending", perTimer(livePending[1] - liveBase[1], timers),
                "heapUsedPerPending", String.format(Locale.ROOT, "%.1f", (pending - base) / (double) timers),
                "heapUsedLeftPerCancelled", String.format(Locale.ROOT, "%.1f", (left - base) / (double) timers)));
    }

    private static String perTimer(long bytes, int timers) {
        return String.format(Locale.ROOT, "%.2f", bytes / (double) timers);
    }

    /**
     * The bytes of every live object: the "Total" line of the class histogram, which the JVM takes after a full
     * collection of its own, less its filler rows. Only the two sums are kept, so the histogram's text is garbage by
     * the next reading.
     *
     * <p>The filler rows ({@code jdk.internal.vm.FillerObject} and the filler array, JDK 19 and later: see
     * {@link #isFiller}) are not objects: they are dead heap space the JVM formats so that the heap can be walked, and
     * nothing can reach them. JDK 25's histogram lists them; in session 33's per-class diffs of a million
     * pending Tickwheel timers they were the whole of the total's excess over the timers (0.23-0.29 B per timer, in
     * 100-131 arrays), and in seven runs they read 0.28-0.62 B per timer while the live figure stayed 48.00-48.01.
     * JDK 17 fills dead space with plain {@code int[]}, which cannot be told apart from live ones; its readings show
     * no such excess.
     *
     * @return {@code {live bytes, filler bytes}}
     */
    static long[] liveBytes() {
        String histogram;
        try {
            histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
        } catch (JMException e) {
            throw new IllegalStateException("the class histogram (DiagnosticCommand gcClassHistogram) failed", e);
        }
        return liveAndFillerBytes(histogram);
    }

    /** @return {@code {live bytes, filler bytes}} of a class histogram's text (see {@link #liveBytes}) */
    static long[] liveAndFillerBytes(String histogram) {
        String[] lines = histogram.strip().split("\\R");
        String[] total = lines[lines.length - 1].trim().split("\\s+");
        if (total.length != 3 || !total[0].equals("Total")) {
            throw new IllegalStateException("no Total line at the end of the class histogram: '"
                    + lines[lines.length - 1] + "'");
        }
        long fillers = 0;
        for (String line : lines) {
            // "  num:  #instances  #bytes  class name (module)"
            String[] row = line.trim().split("\\s+");
            if (row.length >= 4 && row[0].endsWith(":") && isFiller(row[3])) {
                fillers += Long.parseLong(row[2]);
            }
        }
        return new long[] {Long.parseLong(total[2]) - fillers, fillers};
    }

    /**
     * @return whether a class histogram row names the JVM's dead-space filler, not an object: JDK-8284435 (JDK 19)
     *         added {@code FillerObject} and the filler array, whose class JDK-8319548 later renamed from
     *         {@code Ljdk.internal.vm.FillerArray;} to {@code [Ljdk.internal.vm.FillerElement;} (JDK 25's name)
     */
    static boolean isFiller(String className) {
        return className.equals("jdk.internal.vm.FillerObject")
                || className.equals("[Ljdk.internal.vm.FillerElement;")
                || className.equals("Ljdk.internal.vm.FillerArray;");
    }

    /** Used heap after full collections, once two readings 300 ms apart agree within 64 KB (at most ~10 s). */
    static long settledHeapUsed() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long previous = Long.MIN_VALUE;
        for (int round = 0; round < 30; round++) {
            System.gc();
            System.gc();
            long used = memory.getHeapMemoryUsage().getUsed();
            if (Math.abs(used - previous) < 64 * 1024) {
                return used;
            }
            previous = used;
            ChildJvm.sleep(300);
        }
        throw new IllegalStateException("used heap did not settle within 30 rounds; last " + previous);
    }
}

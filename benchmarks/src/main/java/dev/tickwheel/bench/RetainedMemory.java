package dev.tickwheel.bench;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
        System.out.printf(Locale.ROOT, "%-28s %22s %22s%n", "peer", "bytes/pending timer", "bytes left/cancelled");
        for (Map<String, String> r : results) {
            System.out.printf(Locale.ROOT, "%-28s %22s %22s%n", Peer.valueOf(r.get("peer")).label(),
                    r.get("bytesPerPending"), r.get("bytesLeftPerCancelled"));
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
        for (int i = 0; i < timers; i++) {
            handles[i] = timer.schedule(task, DELAY_MS);
        }
        ChildJvm.sleep(500);
        long pending = settledHeapUsed();
        for (int i = 0; i < timers; i++) {
            timer.cancel(handles[i]);
            handles[i] = null;
        }
        ChildJvm.sleep(500);
        long left = settledHeapUsed();
        // The handles array is part of the baseline: keep it reachable until here, or the JIT may let it die early
        // and its 4 MB would show up as a negative residue.
        Reference.reachabilityFence(handles);
        timer.close();
        if (task.runs() != 0) {
            throw new IllegalStateException(peer + ": " + task.runs() + " one-hour timers fired");
        }
        ChildJvm.report(ChildJvm.fields("scenario", "memory", "peer", peer.name(), "timers", timers,
                "bytesPerPending", String.format(Locale.ROOT, "%.1f", (pending - base) / (double) timers),
                "bytesLeftPerCancelled", String.format(Locale.ROOT, "%.1f", (left - base) / (double) timers)));
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

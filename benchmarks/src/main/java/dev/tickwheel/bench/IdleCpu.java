package dev.tickwheel.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Scenario 5: CPU burnt by an idle timer. In one child JVM with the fixed heap flags, each peer is created in turn
 * and given one timer an hour out; the threads that appeared during that (found by comparing the JVM's live threads
 * before and after) are the peer's threads. After a 1 s settle, the CPU time of each peer's threads
 * ({@link ThreadMXBean#getThreadCpuTime}) is read, the JVM sleeps 5 s, and it is read again. All peers idle in
 * the same 5 s window; each is charged only its own threads.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.IdleCpu
 * </pre>
 */
public final class IdleCpu {
    static final long WINDOW_MS = 5_000;

    private IdleCpu() {
    }

    public static void main(String[] args) {
        String peersCsv = ChildJvm.arg(args, "--peers",
                "TICKWHEEL,JDK_STPE,JDK_FORKJOIN,JDK_FORKJOIN_COMMON,NETTY_1MS,NETTY_100MS,KAFKA");
        if (ChildJvm.arg(args, "--child", null) != null) {
            measure(ChildJvm.peers(peersCsv));
            return;
        }
        List<Map<String, String>> results = runAll(ChildJvm.peers(peersCsv));
        System.out.printf(Locale.ROOT, "%-28s %18s  %s%n", "peer", "CPU ms in 5 s", "threads");
        for (Map<String, String> r : results) {
            System.out.printf(Locale.ROOT, "%-28s %18s  %s%n", Peer.valueOf(r.get("peer")).label(), r.get("cpuMs"),
                    r.get("threads"));
        }
    }

    /** Runs all peers in one child JVM; a peer this JVM cannot run is skipped with a line saying so. */
    public static List<Map<String, String>> runAll(List<Peer> peers) {
        StringBuilder csv = new StringBuilder();
        for (Peer p : peers) {
            if (!p.available()) {
                System.out.println("idle CPU: " + p.skipNote());
            } else if (p.fires()) {
                csv.append(csv.length() == 0 ? "" : ",").append(p.name());
            }
        }
        if (csv.length() == 0) {
            return List.of();
        }
        System.out.println("idle CPU: " + csv + ", " + WINDOW_MS + " ms");
        return ChildJvm.run(IdleCpu.class, List.of("--child", "true", "--peers", csv.toString()));
    }

    private static void measure(List<Peer> peers) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure thread CPU time");
        }
        threads.setThreadCpuTimeEnabled(true);
        Map<Peer, TimerAdapter> timers = new LinkedHashMap<>();
        Map<Peer, List<Thread>> owned = new LinkedHashMap<>();
        CountingTask task = new CountingTask();
        for (Peer p : peers) {
            Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
            TimerAdapter t = p.create();
            t.schedule(task, 3_600_000);
            ChildJvm.sleep(200); // threads some peers start lazily, on the first timer
            List<Thread> mine = ThreadCpu.appearedSince(before);
            timers.put(p, t);
            owned.put(p, mine);
        }
        ChildJvm.sleep(1_000);
        Map<Peer, Long> start = new LinkedHashMap<>();
        owned.forEach((p, list) -> start.put(p, ThreadCpu.nanos(threads, list)));
        ChildJvm.sleep(WINDOW_MS);
        Map<Peer, Long> end = new LinkedHashMap<>();
        owned.forEach((p, list) -> end.put(p, ThreadCpu.nanos(threads, list)));
        timers.values().forEach(TimerAdapter::close);
        if (task.runs() != 0) {
            throw new IllegalStateException(task.runs() + " one-hour timers fired");
        }
        for (Peer p : peers) {
            StringBuilder names = new StringBuilder();
            for (Thread th : owned.get(p)) {
                names.append(names.length() == 0 ? "" : ",").append(th.getName().replace(' ', '_'));
            }
            ChildJvm.report(ChildJvm.fields("scenario", "idle", "peer", p.name(), "cpuMs",
                    String.format(Locale.ROOT, "%.3f", (end.get(p) - start.get(p)) / 1e6),
                    "threads", names.length() == 0 ? "-" : names));
        }
    }
}

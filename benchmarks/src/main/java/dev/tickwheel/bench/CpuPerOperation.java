package dev.tickwheel.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Scenario 1 seen through CPU time instead of wall time: the CPU nanoseconds one schedule + cancel costs, on the
 * producer thread and on the timer's own threads, with the workload of {@link ScheduleCancelBenchmark} (one
 * producer, a ring of {@code pending} timers 30-60 s out). On cores shared with other work, wall-clock throughput
 * moves with whatever else runs, while the CPU a thread burns per operation ({@link ThreadMXBean#getThreadCpuTime})
 * barely does: it is the steadier figure for comparing peers on a busy machine. Each peer runs in its own JVM with
 * the fixed heap flags; the timer's threads are those that appeared while it was created and filled. One-second
 * rounds: the first {@code --warmup} are discarded, the next {@code --rounds} averaged; after the last round the
 * timer's threads are charged for whatever backlog they still had (their CPU until they go quiet).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.CpuPerOperation
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.CpuPerOperation --peers TICKWHEEL,NETTY_1MS --pending 1000000
 * </pre>
 */
public final class CpuPerOperation {
    private CpuPerOperation() {
    }

    public static void main(String[] args) {
        int pending = Integer.parseInt(ChildJvm.arg(args, "--pending", "1000"));
        int warmup = Integer.parseInt(ChildJvm.arg(args, "--warmup", "3"));
        int rounds = Integer.parseInt(ChildJvm.arg(args, "--rounds", "5"));
        String child = ChildJvm.arg(args, "--child", null);
        if (child != null) {
            measure(Peer.valueOf(child), pending, warmup, rounds);
            return;
        }
        List<Peer> peers = ChildJvm.peers(ChildJvm.arg(args, "--peers",
                "TICKWHEEL,JDK_STPE,JDK_FORKJOIN,JDK_FORKJOIN_COMMON,NETTY_1MS,NETTY_100MS,KAFKA,MPSC_FLOOR"));
        System.out.printf(Locale.ROOT, "%-28s %14s %14s %14s %18s%n", "peer (CPU ns per op)", "producer",
                "timer threads", "total", "backlog drain ms");
        for (Map<String, String> r : runAll(peers, pending, warmup, rounds)) {
            System.out.printf(Locale.ROOT, "%-28s %14s %14s %14s %18s%n", Peer.valueOf(r.get("peer")).label(),
                    r.get("producerNs"), r.get("timerNs"), r.get("totalNs"), r.get("drainMs"));
        }
    }

    /** Runs each peer in its own child JVM; a peer this JVM cannot run is skipped with a line saying so. */
    public static List<Map<String, String>> runAll(List<Peer> peers, int pending, int warmup, int rounds) {
        List<Map<String, String>> out = new ArrayList<>();
        for (Peer p : peers) {
            if (!p.available()) {
                System.out.println("CPU per schedule+cancel: " + p.skipNote());
                continue;
            }
            System.out.println("CPU per schedule+cancel: " + p + ", pending " + pending);
            out.addAll(ChildJvm.run(CpuPerOperation.class, List.of("--child", p.name(), "--pending", "" + pending,
                    "--warmup", "" + warmup, "--rounds", "" + rounds)));
        }
        return out;
    }

    private static void measure(Peer peer, int pending, int warmup, int rounds) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        mx.setThreadCpuTimeEnabled(true);
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        TimerAdapter timer = peer.create();
        CountingTask task = new CountingTask();
        ProducerRing ring = new ProducerRing(timer, task, pending, 0x5EED);
        ChildJvm.sleep(200);
        List<Thread> mine = ThreadCpu.appearedSince(before);
        // The threads' idle burn per 100 ms: the least of five samples with the producer idle (the fill's own
        // backlog, if any, makes the early samples higher).
        long idle = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long c0 = ThreadCpu.nanos(mx, mine);
            ChildJvm.sleep(100);
            idle = Math.min(idle, ThreadCpu.nanos(mx, mine) - c0);
        }
        double producer = 0;
        double threads = 0;
        long ops = 0;
        for (int round = 0; round < warmup + rounds; round++) {
            long p0 = mx.getCurrentThreadCpuTime();
            long t0 = ThreadCpu.nanos(mx, mine);
            long w0 = System.nanoTime();
            long n = 0;
            while (System.nanoTime() - w0 < 1_000_000_000L) {
                for (int i = 0; i < 1000; i++) {
                    ring.step(timer, task);
                }
                n += 1000;
            }
            long p1 = mx.getCurrentThreadCpuTime();
            long t1 = ThreadCpu.nanos(mx, mine);
            if (round >= warmup) {
                producer += p1 - p0;
                threads += t1 - t0;
                ops += n;
            }
        }
        // A timer whose threads fell behind the producer still owes the backlog's work: keep counting its threads'
        // CPU until they go quiet, so that a peer that defers work is charged for it, and report how long that took.
        // Quiet: under 5% of a core over 100 ms, or under 1.2 times what the threads burn when idle (measured before
        // the rounds; a tick or a polling consumer burns CPU with nothing to do), whichever is higher; that idle
        // burn is not charged to the backlog.
        long threshold = Math.max(5_000_000L, idle + idle / 5);
        long d0 = System.nanoTime();
        long drainCpu = 0;
        for (long prev = ThreadCpu.nanos(mx, mine); System.nanoTime() - d0 < 30_000_000_000L; ) {
            ChildJvm.sleep(100);
            long now = ThreadCpu.nanos(mx, mine);
            long delta = now - prev;
            prev = now;
            if (delta < threshold) {
                break;
            }
            drainCpu += Math.max(0, delta - idle);
        }
        long drainMs = (System.nanoTime() - d0) / 1_000_000L;
        threads += drainCpu;
        timer.close();
        Reports.warnIfFired(peer, pending, task.runs());
        ChildJvm.report(ChildJvm.fields("scenario", "cpu", "peer", peer.name(), "pending", pending,
                "producerNs", String.format(Locale.ROOT, "%.1f", producer / ops),
                "timerNs", String.format(Locale.ROOT, "%.1f", threads / ops),
                "totalNs", String.format(Locale.ROOT, "%.1f", (producer + threads) / ops),
                "drainMs", String.valueOf(drainMs)));
    }
}

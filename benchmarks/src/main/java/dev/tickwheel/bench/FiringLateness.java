package dev.tickwheel.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Scenario 4: how late timers fire while other threads keep starting and cancelling timers. Each peer runs in its
 * own JVM with the fixed heap flags. A load thread keeps a ring of 10,000 timers 30-60 s out and does 100
 * schedule + cancel operations every millisecond (100,000 a second; none of these fire). A probe thread starts
 * about one probe timer a millisecond, each with a random delay of 1-50 ms (whole milliseconds, since Kafka takes
 * nothing finer), reading {@code System.nanoTime()} just before the call; the probe's task reads the clock when it
 * runs. Lateness = run time - (call time + delay), recorded in an HdrHistogram (ns, 3 digits); a negative value is
 * an early fire, counted apart. The first seconds (2 by default) are warm-up and not recorded; after the measured
 * seconds the probes stop and every probe is waited for (one that never runs is reported as missing).
 *
 * <p>The measured window changes nothing the peers run: a warm-up probe runs the same code as a measured one (only
 * the recorder it was given differs), and a timer's own lateness record is on from its creation (reset when the
 * window opens). Until session 39 a probe tested a flag that turned true with the window, and Tickwheel's record was
 * switched on then: the JIT had compiled the task path for the flag's old value, so the window opened with a
 * deoptimization of the workers' compiled loop (a stall of up to 26 ms in a quiet JDK 25 run, every probe due in it
 * late at once). The JIT's warm-up is also why the judged runs of the suite warm up longer (see
 * {@code Settings.latenessJudgedWarmup}): on 2 cores the C2 compiles of the timer's own loops ran into the tenth
 * second of a run.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.FiringLateness
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.FiringLateness --peers TICKWHEEL,JDK_STPE --seconds 20 --warmup 2
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.FiringLateness --peers TICKWHEEL,JDK_STPE --busy 2
 * </pre>
 */
public final class FiringLateness {
    static final int LOAD_RING = 10_000;
    static final int LOAD_OPS_PER_MS = 100;
    static final int MAX_PROBE_DELAY_MS = 50;
    static final int DEFAULT_WARMUP_SECONDS = 2;
    /** A probe later than this counts as late in the report's share ({@link #percentOver}). */
    static final long LATE_NANOS = TimeUnit.MICROSECONDS.toNanos(300);
    /** A probe later than this counts as deeply late: it waited out most of a busy neighbour's scheduler slice. */
    static final long DEEP_LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private FiringLateness() {
    }

    public static void main(String[] args) {
        String child = ChildJvm.arg(args, "--child", null);
        int seconds = Integer.parseInt(ChildJvm.arg(args, "--seconds", "10"));
        int warmup = Integer.parseInt(ChildJvm.arg(args, "--warmup", "" + DEFAULT_WARMUP_SECONDS));
        if (child != null) {
            measure(Peer.valueOf(child), warmup, seconds);
            return;
        }
        List<Peer> peers = ChildJvm.peers(ChildJvm.arg(args, "--peers",
                "TICKWHEEL,TICKWHEEL_INLINE,JDK_STPE,JDK_FORKJOIN,JDK_FORKJOIN_COMMON,NETTY_1MS,NETTY_100MS,KAFKA"));
        // --busy N: N busy-spinning processes beside the timer for the whole run (a loaded box), stopped after.
        int busy = Integer.parseInt(ChildJvm.arg(args, "--busy", "0"));
        List<Map<String, String>> results;
        List<Process> hogs;
        try {
            hogs = BusyNeighbours.start(busy);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("could not start " + busy + " busy processes", e);
        }
        try {
            if (busy > 0) {
                System.out.println("firing lateness: " + busy + " busy processes beside the timer");
            }
            results = runAll(peers, warmup, seconds);
        } finally {
            try {
                BusyNeighbours.stop(hogs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        System.out.printf(Locale.ROOT, "%-28s %8s %10s %10s %10s %10s %9s %9s %7s %8s%n", "peer (lateness, ms)",
                "probes", "p50", "p99", "p99.9", "max", ">0.3ms %", ">1ms %", "early", "missing");
        for (Map<String, String> r : results) {
            System.out.printf(Locale.ROOT, "%-28s %8s %10s %10s %10s %10s %9s %9s %7s %8s%n",
                    Peer.valueOf(r.get("peer")).label(), r.get("probes"), r.get("p50ms"), r.get("p99ms"),
                    r.get("p999ms"), r.get("maxms"), r.get("over300usPct"), r.get("over1msPct"), r.get("early"),
                    r.get("missing"));
        }
        System.out.printf(Locale.ROOT, "%n%-28s %8s %10s %10s %10s %10s%n", "its own record (ms)", "runs", "p50",
                "p99", "p99.9", "max");
        for (Map<String, String> r : results) {
            if (!"-".equals(r.get("ownCount"))) {
                System.out.printf(Locale.ROOT, "%-28s %8s %10s %10s %10s %10s%n",
                        Peer.valueOf(r.get("peer")).label(), r.get("ownCount"), r.get("ownP50ms"),
                        r.get("ownP99ms"), r.get("ownP999ms"), r.get("ownMaxms"));
            }
        }
    }

    /** Runs each peer in its own child JVM; a peer this JVM cannot run is skipped with a line saying so. */
    public static List<Map<String, String>> runAll(List<Peer> peers, int warmup, int seconds) {
        List<Map<String, String>> out = new ArrayList<>();
        for (Peer p : peers) {
            if (!p.fires()) {
                continue;
            }
            if (!p.available()) {
                System.out.println("firing lateness: " + p.skipNote());
                continue;
            }
            System.out.println("firing lateness: " + p + ", " + seconds + " s under load");
            out.addAll(ChildJvm.run(FiringLateness.class, List.of("--child", p.name(), "--warmup", "" + warmup,
                    "--seconds", "" + seconds)));
        }
        return out;
    }

    private static void measure(Peer peer, int warmup, int seconds) {
        TimerAdapter timer = peer.create();
        timer.resetOwnLateness(); // the timer's own record on from the start: see the class comment
        Recorder recorder = new Recorder();
        Recorder warmUp = new Recorder(); // the warm-up probes' record, never reported
        Thread load = new Thread(() -> loadLoop(timer), "lateness-load");
        load.setDaemon(true);
        load.start();

        SplittableRandom random = new SplittableRandom(0x1A7E);
        long start = System.nanoTime();
        long measureFrom = start + TimeUnit.SECONDS.toNanos(warmup);
        long end = measureFrom + TimeUnit.SECONDS.toNanos(seconds);
        long probes = 0;
        boolean measuring = false;
        for (long now = start; now < end; now = System.nanoTime()) {
            boolean counted = now >= measureFrom;
            if (counted && !measuring) {
                measuring = true;
                timer.resetOwnLateness(); // the timer's own record covers the measured probes from here (warm-up
                                          // ones may still fire inside it: at most 50 ms of them)
            }
            long delayMs = 1 + random.nextInt(MAX_PROBE_DELAY_MS);
            long called = System.nanoTime();
            timer.schedule(new Probe(counted ? recorder : warmUp, called + TimeUnit.MILLISECONDS.toNanos(delayMs)),
                    delayMs);
            if (counted) {
                probes++;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        // Every probe is due within MAX_PROBE_DELAY_MS; allow a coarse tick and a slow thread on top of that.
        long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (recorder.fired.get() < probes && System.nanoTime() < waitUntil) {
            ChildJvm.sleep(10);
        }
        loadStop = true;
        try {
            load.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long[] own = timer.ownLateness();
        timer.close();
        Histogram h;
        long early;
        long earliest;
        synchronized (recorder) {
            h = recorder.histogram.copy();
            early = recorder.early;
            earliest = recorder.earliestNanos;
        }
        ChildJvm.report(ChildJvm.fields("scenario", "lateness", "peer", peer.name(), "probes", probes,
                "p50ms", ms(h.getValueAtPercentile(50)), "p99ms", ms(h.getValueAtPercentile(99)),
                "p999ms", ms(h.getValueAtPercentile(99.9)), "maxms", ms(h.getMaxValue()),
                "over300usPct", percentOver(h, LATE_NANOS), "over1msPct", percentOver(h, DEEP_LATE_NANOS),
                "early", early, "maxEarlyMs", early == 0 ? "0" : ms(earliest),
                "missing", probes - recorder.fired.get(),
                "ownCount", own == null ? "-" : own[0], "ownP50ms", own == null ? "-" : ms(own[1]),
                "ownP99ms", own == null ? "-" : ms(own[2]), "ownP999ms", own == null ? "-" : ms(own[3]),
                "ownMaxms", own == null ? "-" : ms(own[4])));
    }

    private static volatile boolean loadStop;

    /** 100 schedule + cancel operations each millisecond on a ring of 10,000 timers 30-60 s out. */
    private static void loadLoop(TimerAdapter timer) {
        CountingTask task = new CountingTask();
        ProducerRing ring = new ProducerRing(timer, task, LOAD_RING, 0x10AD);
        long next = System.nanoTime();
        while (!loadStop) {
            for (int i = 0; i < LOAD_OPS_PER_MS; i++) {
                ring.step(timer, task);
            }
            next += TimeUnit.MILLISECONDS.toNanos(1);
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
        ring.cancelAll(timer);
    }

    /**
     * The share of recorded probes later than {@code nanos}, in percent. On a loaded machine this moves less from run to
     * run than the p99 it decides: the p99 lands wherever this share crosses 1%, and the late probes' own spread (up to
     * a busy neighbour's scheduler slice) then moves it by a millisecond.
     */
    static String percentOver(Histogram h, long nanos) {
        long total = h.getTotalCount();
        if (total == 0) {
            return "0.000";
        }
        long over = total - h.getCountBetweenValues(0, nanos);
        return String.format(Locale.ROOT, "%.3f", 100.0 * over / total);
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    /** Collects the probes' lateness; the probes run on the peers' threads. */
    static final class Recorder {
        final Histogram histogram = new Histogram(3);
        final AtomicLong fired = new AtomicLong();
        long early;
        long earliestNanos;

        synchronized void record(long latenessNanos) {
            if (latenessNanos < 0) {
                early++;
                earliestNanos = Math.max(earliestNanos, -latenessNanos);
            } else {
                histogram.recordValue(latenessNanos);
            }
        }
    }

    /**
     * One probe timer: knows when it is due, and which record it goes to (the warm-up's or the measured one), so that
     * its task runs the same code in both.
     */
    static final class Probe extends Task {
        private final Recorder recorder;
        private final long dueNanos;

        Probe(Recorder recorder, long dueNanos) {
            this.recorder = recorder;
            this.dueNanos = dueNanos;
        }

        @Override
        public void run() {
            long lateness = System.nanoTime() - dueNanos;
            recorder.record(lateness);
            recorder.fired.incrementAndGet();
        }
    }
}

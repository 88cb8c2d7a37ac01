package dev.tickwheel.bench;

import dev.tickwheel.bench.peer.TickwheelAdapter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 23's firing figures, shot by shot: 1M timers due within 100 ms (whole-millisecond delays 0-99, uniformly
 * random, the expiry benchmark's shot) from one or two producers, with, for each shot, its time and its <b>lag</b>:
 * how long after the later of the latest deadline and the end of the producers' loop the last timer fired. The task
 * adds to a {@link LongAdder} (a striped counter: the figure is the timer's, not the task's contention), and a
 * watcher thread notes when the count is complete: it looks every millisecond until the producers' loops have ended
 * and the window's end is {@link #FINE_LEAD_MS} ms away, then every 100 µs (so the lag is within 0.1 ms of the last
 * fire). Until session 38 it looked every 100 µs throughout: 10,000 wake-ups a second of a thread that is not the
 * timer's, on the cores the shot needs, which cost Tickwheel's one-producer shot 10-20% on 2 vCPUs and Netty's
 * nothing measurable (the README's session 38 entry). The latest deadline is known within one sampling interval: the
 * producers read the clock every 1,024 schedules, and a timer's schedule time is bounded by the next reading.
 *
 * <p>A shot is its <b>window</b> and then its lag: the window ends at the later of the latest deadline and the end
 * of the producers' loops, so a shot is at least the producers' loop plus its longest delay, 99 ms. Each shot's loop
 * (from the start to the last producer's end, wall time) is reported beside the producers' CPU in it: where the
 * producers share the cores with the timer's own threads, the loop takes longer than its CPU, and the shot with it.
 *
 * <p>Each configuration runs in its own child JVM (fixed heap flags), {@code --warmup} shots then {@code --shots}
 * measured ones; the parent prints the medians. The default warm-up, {@link #DEFAULT_WARMUP} shots, is what the
 * slowest peer here needs to reach its steady state on 2 vCPUs: Tickwheel's first shots run while the JIT compiles,
 * and recompiles after deoptimizations, its pool's and owner's loops, on the cores the shot itself needs (the
 * README's results section has the measured curve; Netty 1 ms is steady from its second shot). So that the warm-up
 * is shown rather than hidden, the median of the fresh JVM's first {@link #FIRST_SHOTS} shots is reported beside the
 * steady figure ({@code first 5 ms}). Configurations: the peers named by {@code --peers}, and the
 * Tickwheel worker sweep {@code --workers 1,2,4,8,16,32} (the default builder but for its pool size, a JVM each).
 * {@code --sweep 1,2,4,8,16,32} instead runs every size in turn in the JVM it is started in (see {@code sweepChild});
 * the suite runs that in several child JVMs. {@code --busy N} starts N busy-spinning processes beside the timer (what
 * a loaded box looks like); they are stopped afterwards.
 *
 * <p>Each configuration also reports the CPU time per fired timer of the threads involved (from
 * {@code ThreadMXBean}, over the measured shots): the owner thread (Tickwheel's), the timer's other threads (its
 * pool; a peer's own threads) and the producers' scheduling loops. Where cores are few the shot cannot take less than
 * their sum divided by the cores: that is the limit beside the fire rate on a small machine.
 *
 * <p>The same CPU, read shot by shot, gives the limit beside the lag: the <b>lag floor</b> of a shot is how far
 * past its window's end (the later of the latest deadline and the producers' end) the shot's own work reaches at
 * best: {@code max(0, max(all its CPU / cores, its busiest thread's CPU) - window)}, the CPU being that of the timer's
 * threads and the producers' loops during the shot. No scheduling of that work ends the shot sooner; a lag above its
 * floor is time the cores were not all at work on it (or worked on something else, such as busy neighbours), and a
 * lag below a target needs a floor below it: less CPU per fire, or more cores.
 *
 * <p>Tickwheel's configurations also count, over the measured shots, per million fired timers: the pool's pushes (each
 * a chain of batches), its worker wake-ups, and the commands that went past the command queues' rings ({@code past
 * ring}: {@code TimerMetrics#commandQueueSpills}). A burst that outruns the owner thread leaves that many starts in
 * JCTools' linked chunks, a reference each (4 bytes with compressed references, plus a chunk's header per 1,024),
 * which are garbage once the owner has taken them: the share of the allocation per fired timer above the timer's own
 * 48 bytes that the queues account for.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.FiringShots --peers TICKWHEEL,NETTY_1MS,JDK_STPE
 *      --producers 1,2 --workers 1,2,4,8,16,32 [--shots 7] [--warmup 20] [--busy 0]
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.FiringShots --sweep 1,2,4,8,16,32 [--rounds 2]
 *      [--shots 7] [--warmup 20]
 * </pre>
 */
public final class FiringShots {

    static final int TIMERS = ExpiryBenchmark.TIMERS;
    static final int WINDOW_MS = ExpiryBenchmark.WINDOW_MS;
    /** Schedules between two clock readings of a producer. */
    static final int SAMPLE = 1024;
    /** The fresh JVM's first shots (of the warm-up), whose median is reported as the warm-up's figure. */
    public static final int FIRST_SHOTS = 5;
    /** Warm-up shots unless {@code --warmup} says otherwise: enough for every peer here to reach its steady state. */
    public static final int DEFAULT_WARMUP = 20;
    /** How long before the window's end the watcher turns from looks a millisecond apart to looks 100 µs apart. */
    static final long FINE_LEAD_MS = 2;
    /** The watcher's look interval while the window's end is further than {@link #FINE_LEAD_MS} away. */
    static final long COARSE_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Unmeasured shots a sweep size's fresh timer runs before its measured ones: its workers start in the first. */
    static final int SWEEP_FRESH_SHOTS = 1;
    /** The watcher's look interval near the window's end: the lag's resolution. */
    static final long FINE_LOOK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private FiringShots() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        if (opts.containsKey("sweep")) {
            sweepChild(opts);
            return;
        }
        if (opts.containsKey("child")) {
            child(opts);
            return;
        }
        String shots = opts.getOrDefault("shots", "7");
        String warmup = opts.getOrDefault("warmup", Integer.toString(DEFAULT_WARMUP));
        int busy = Integer.parseInt(opts.getOrDefault("busy", "0"));
        List<String[]> configs = new ArrayList<>(); // {label, peer, workers, producers}
        for (String producers : opts.getOrDefault("producers", "1").split(",")) {
            if (!opts.getOrDefault("peers", "").isEmpty()) {
                for (String peer : opts.get("peers").split(",")) {
                    configs.add(new String[] {Peer.valueOf(peer).label() + ", " + producers + "p", peer, "0",
                            producers});
                }
            }
            if (!opts.getOrDefault("workers", "").isEmpty()) {
                for (String w : opts.get("workers").split(",")) {
                    configs.add(new String[] {"Tickwheel, workerThreads " + w + ", " + producers + "p", "TICKWHEEL",
                            w, producers});
                }
            }
        }
        List<Process> hogs = BusyNeighbours.start(busy);
        try {
            System.out.println("FiringShots: " + TIMERS + " timers due within " + WINDOW_MS + " ms a shot, " + warmup
                    + " warm-up + " + shots + " measured shots per configuration, " + busy + " busy processes beside"
                    + "; CPU " + dev.tickwheel.bench.suite.RunEnvironment.cpuModel() + ", " + Runtime.getRuntime().availableProcessors()
                    + " CPUs, load " + dev.tickwheel.bench.suite.RunEnvironment.loadAverage() + ", JDK " + Runtime.version());
            System.out.printf("%-46s %10s %10s %10s %10s %12s %14s %16s %14s %14s %14s %24s%n", "configuration",
                    "shot ms", "M fires/s", "first 5 ms", "lag ms", "lag max ms", "lag floor ms", "loop ms (CPU)",
                    "pushes per 1M", "wake-ups /1M", "past ring /1M", "CPU ns/fire own+pool+prod");
            for (String[] c : configs) {
                List<Map<String, String>> rs = ChildJvm.run(FiringShots.class, List.of("--child", "true", "--peer",
                        c[1], "--workers", c[2], "--producers", c[3], "--shots", shots, "--warmup", warmup));
                Map<String, String> r = rs.get(rs.size() - 1);
                double shotMs = Double.parseDouble(r.get("shotMedianMs"));
                System.out.printf("%-46s %10.1f %10.2f %10s %10.2f %12.2f %14.2f %16s %14s %14s %14s %24s%n", c[0],
                        shotMs, TIMERS / shotMs / 1000.0, r.get("firstShotsMedianMs"),
                        Double.parseDouble(r.get("lagMedianMs")), Double.parseDouble(r.get("lagMaxMs")),
                        Double.parseDouble(r.get("lagFloorMedianMs")), String.format("%.1f (%.1f)",
                                Double.parseDouble(r.get("loopMedianMs")), loopCpuMs(r)),
                        r.get("handOffsPer1M"), r.get("wakeupsPer1M"),
                        r.get("spillsPer1M"),
                        r.get("ownerCpuNs") + "+" + r.get("poolCpuNs") + "+" + r.get("producerCpuNs"));
                ChildJvm.report(Map.of("config", c[0].replace(' ', '_'), "shotMedianMs", r.get("shotMedianMs"),
                        "lagMedianMs", r.get("lagMedianMs"), "lagMaxMs", r.get("lagMaxMs"), "lagFloorMedianMs",
                        r.get("lagFloorMedianMs"), "loopMedianMs", r.get("loopMedianMs"), "shots", r.get("shotsMs")));
            }
        } finally {
            BusyNeighbours.stop(hogs);
        }
    }

    /**
     * @param r a child's report
     * @return the producers' CPU in one shot's loop, ms, all producers together (the report's CPU per fired timer)
     */
    public static double loopCpuMs(Map<String, String> r) {
        return Double.parseDouble(r.get("producerCpuNs")) * TIMERS / 1e6;
    }

    /** @return each producer's delays, ms (the same for every shot and every configuration) */
    private static long[][] delays(int producers) {
        long[][] delays = new long[producers][];
        for (int p = 0; p < producers; p++) {
            SplittableRandom random = new SplittableRandom(0xE4B1 + p);
            delays[p] = new long[TIMERS / producers];
            for (int i = 0; i < delays[p].length; i++) {
                delays[p][i] = random.nextInt(WINDOW_MS);
            }
        }
        return delays;
    }

    /**
     * The worker sweep in one (child) JVM: every pool size of {@code --sweep} in turn, {@code --rounds} times
     * (forward, then backward, so that drift falls on every size), each turn a fresh Tickwheel timer of the default
     * builder with that pool size: {@link #SWEEP_FRESH_SHOTS} unmeasured shot (its workers start), then {@code --shots}
     * measured ones, then closed. A warm-up round first gives every size its share of {@code --warmup} shots, for the
     * JIT. One producer. Reports each size's median shot ({@code sweepMs}, {@code size:ms} pairs).
     *
     * <p>Why in one JVM: the sweep asks whether adding workers slows firing, a comparison between sizes. Run a JVM per
     * size, the same build's JVMs read up to 1.4x apart on 2 vCPUs (the JIT's choices, the kernel's placement of the
     * threads for a JVM's life), and that spread, not the pool's size, decided the verdict (session 38's records).
     * Here every size runs under the same JIT and in the same stretch of time, and the suite repeats it in several
     * JVMs and takes each size's median over them.
     */
    private static void sweepChild(Map<String, String> opts) throws Exception {
        String[] names = opts.get("sweep").split(",");
        int[] sizes = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            sizes[i] = Integer.parseInt(names[i]);
            if (sizes[i] < 1) {
                throw new IllegalArgumentException("--sweep " + opts.get("sweep") + ": pool size " + sizes[i]
                        + " is below 1");
            }
        }
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "2"));
        int shots = Integer.parseInt(opts.getOrDefault("shots", "7"));
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", Integer.toString(DEFAULT_WARMUP)));
        if (rounds < 1 || shots < 1 || warmup < 0) {
            throw new IllegalArgumentException("--rounds " + rounds + ", --shots " + shots + ", --warmup " + warmup
                    + ": rounds and shots must be at least 1, warm-up at least 0");
        }
        long[][] delays = delays(1);
        double[][] ms = new double[sizes.length][rounds * shots];
        int warmEach = (warmup + sizes.length - 1) / sizes.length;
        for (int r = -1; r < rounds; r++) { // round -1: the warm-up
            for (int k = 0; k < sizes.length; k++) {
                int i = r % 2 == 0 ? k : sizes.length - 1 - k;
                TimerAdapter timer = new TickwheelAdapter(false, dev.tickwheel.WheelTimer.DEFAULT_TICK_NANOS,
                        sizes[i]);
                try {
                    for (int w = 0; w < (r < 0 ? warmEach : SWEEP_FRESH_SHOTS); w++) {
                        shot(timer, delays);
                    }
                    for (int n = 0; r >= 0 && n < shots; n++) {
                        ms[i][r * shots + n] = shot(timer, delays)[0];
                    }
                } finally {
                    timer.close();
                }
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < sizes.length; i++) {
            out.append(i == 0 ? "" : ",").append(sizes[i]).append(':')
                    .append(String.format(java.util.Locale.ROOT, "%.2f", median(ms[i])));
        }
        ChildJvm.report(Map.of("sweepMs", out.toString()));
    }

    /**
     * Parses a sweep child's report.
     *
     * @param sweepMs {@code size:ms} pairs, comma-separated
     * @return the median shot ms by pool size, in the report's order
     */
    public static Map<Integer, Double> sweepMedians(String sweepMs) {
        Map<Integer, Double> m = new LinkedHashMap<>();
        for (String pair : sweepMs.split(",")) {
            int colon = pair.indexOf(':');
            m.put(Integer.parseInt(pair.substring(0, colon)), Double.parseDouble(pair.substring(colon + 1)));
        }
        return m;
    }

    /** One configuration's shots, in this (child) JVM. */
    private static void child(Map<String, String> opts) throws Exception {
        Peer peer = Peer.valueOf(opts.get("peer"));
        int workers = Integer.parseInt(opts.get("workers"));
        int producers = Integer.parseInt(opts.get("producers"));
        int shots = Integer.parseInt(opts.get("shots"));
        int warmup = Integer.parseInt(opts.get("warmup"));
        java.util.Set<Thread> existing = java.util.Set.copyOf(Thread.getAllStackTraces().keySet());
        TimerAdapter timer = workers > 0 ? new TickwheelAdapter(false, dev.tickwheel.WheelTimer.DEFAULT_TICK_NANOS,
                workers) : peer.create();
        long[][] delays = delays(producers);
        double[] shotMs = new double[shots];
        double[] lagMs = new double[shots];
        double[] floorMs = new double[shots];
        double[] loopMs = new double[shots];
        double[] firstMs = new double[Math.min(FIRST_SHOTS, warmup)];
        int cores = Runtime.getRuntime().availableProcessors();
        double producerCpuNs = 0;
        long[] before = null;
        long[] after = null;
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Map<String, Long> cpuAtStart = null;
        Map<String, Long> cpuAtEnd = null;
        try {
            for (int s = -warmup; s < shots; s++) {
                if (s == 0) {
                    before = timer.handOffCounts();
                    cpuAtStart = cpuByRole(mx, existing);
                }
                Map<Thread, Long> cpuBefore = s >= 0 ? cpuByThread(mx, existing) : null;
                double[] r = shot(timer, delays);
                if (s + warmup < firstMs.length) {
                    firstMs[s + warmup] = r[0];
                }
                if (s >= 0) {
                    shotMs[s] = r[0];
                    lagMs[s] = r[1];
                    loopMs[s] = r[5];
                    producerCpuNs += r[2];
                    floorMs[s] = lagFloorMs(cpuBefore, cpuByThread(mx, existing), r[2], r[3], r[4], cores);
                }
            }
            after = timer.handOffCounts();
            cpuAtEnd = cpuByRole(mx, existing);
        } finally {
            timer.close();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if (before != null && after != null) {
            double perMillion = 1e6 / Math.max(1, after[0] - before[0]);
            out.put("handOffsPer1M", String.format("%.0f", (after[1] - before[1]) * perMillion));
            out.put("wakeupsPer1M", String.format("%.0f", (after[2] - before[2]) * perMillion));
            out.put("spillsPer1M", String.format("%.0f", (after[3] - before[3]) * perMillion));
        } else {
            out.put("handOffsPer1M", "-");
            out.put("wakeupsPer1M", "-");
            out.put("spillsPer1M", "-");
        }
        if (cpuAtStart != null && cpuAtEnd != null) {
            // CPU per fired timer: the owner thread (Tickwheel's), the timer's other threads (its workers; a peer's
            // own threads), and the producers' scheduling loops. On a machine with few cores the shot cannot be
            // shorter than their sum over the cores.
            double perTimer = 1.0 / shots / TIMERS;
            out.put("ownerCpuNs", String.format("%.1f", (cpuAtEnd.getOrDefault("owner", 0L)
                    - cpuAtStart.getOrDefault("owner", 0L)) * perTimer));
            out.put("poolCpuNs", String.format("%.1f", (cpuAtEnd.getOrDefault("pool", 0L)
                    - cpuAtStart.getOrDefault("pool", 0L)) * perTimer));
        }
        out.put("producerCpuNs", String.format("%.1f", producerCpuNs * perTimer(shots)));
        out.put("shotMedianMs", String.format("%.2f", median(shotMs)));
        out.put("firstShotsMedianMs", firstMs.length == FIRST_SHOTS ? String.format("%.2f", median(firstMs)) : "-");
        out.put("lagMedianMs", String.format("%.3f", median(lagMs)));
        out.put("lagMaxMs", String.format("%.3f", Arrays.stream(lagMs).max().orElse(0)));
        out.put("lagFloorMedianMs", String.format("%.3f", median(floorMs)));
        out.put("loopMedianMs", String.format("%.2f", median(loopMs)));
        StringBuilder all = new StringBuilder();
        for (int s = 0; s < shots; s++) {
            all.append(s == 0 ? "" : ",").append(String.format("%.1f/%.2f/%.2f", shotMs[s], lagMs[s], floorMs[s]));
        }
        out.put("shotsMs", all);
        ChildJvm.report(out);
    }

    /**
     * A shot's lag floor (see the class comment), in ms.
     *
     * @param <K> what names a thread (the thread itself, or its id)
     * @param before the timer's threads' CPU ns by thread, before the shot
     * @param after the same after it (a thread that appeared during the shot counts from 0)
     * @param producerCpu the producers' loops' CPU ns in the shot
     * @param busiestProducer the CPU ns of the busiest producer's loop
     * @param windowNanos from the shot's start to the later of its latest deadline and the producers' end
     * @param cores the CPUs this JVM may use
     */
    static <K> double lagFloorMs(Map<K, Long> before, Map<K, Long> after, double producerCpu, double busiestProducer,
            double windowNanos, int cores) {
        double all = producerCpu;
        double busiest = busiestProducer;
        for (Map.Entry<K, Long> e : after.entrySet()) {
            double used = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            all += used;
            busiest = Math.max(busiest, used);
        }
        return Math.max(0, Math.max(all / cores, busiest) - windowNanos) / 1e6;
    }

    /**
     * @return {shot ms, lag ms, producers' CPU ns, the busiest producer's CPU ns, window ns, the producers' loop ms (from
     *         the start to the last producer's end)}
     */
    private static double[] shot(TimerAdapter timer, long[][] delays) throws Exception {
        int producers = delays.length;
        LongAdder fired = new LongAdder();
        Task task = new Task() {
            @Override
            public void run() {
                fired.increment();
            }
        };
        CountDownLatch go = new CountDownLatch(1);
        // Counted down by each producer once its loop's end and latest deadline are stored: the watcher's count of 0
        // (a volatile read) makes them visible to it.
        CountDownLatch loopsDone = new CountDownLatch(producers);
        long[] loopEnd = new long[producers];
        long[] producerCpu = new long[producers];
        long[] latest = new long[producers];
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int me = p;
            Thread t = new Thread(() -> {
                long[] d = delays[me];
                long[] samples = new long[d.length / SAMPLE + 2];
                int[] lastIndex = new int[WINDOW_MS];
                awaitQuietly(go);
                java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
                long cpu0 = mx.getCurrentThreadCpuTime();
                samples[0] = System.nanoTime();
                for (int i = 0; i < d.length; i++) {
                    timer.schedule(task, d[i]);
                    lastIndex[(int) d[i]] = i;
                    if ((i & (SAMPLE - 1)) == SAMPLE - 1) {
                        samples[(i >> 10) + 1] = System.nanoTime();
                    }
                }
                long end = System.nanoTime();
                producerCpu[me] = mx.getCurrentThreadCpuTime() - cpu0;
                loopEnd[me] = end;
                long l = Long.MIN_VALUE;
                for (int delay = 0; delay < WINDOW_MS; delay++) {
                    int slot = (lastIndex[delay] >> 10) + 1; // the reading taken after that schedule, or the end
                    long upper = slot < samples.length && samples[slot] != 0 ? samples[slot] : end;
                    l = Math.max(l, upper + TimeUnit.MILLISECONDS.toNanos(delay));
                }
                latest[me] = l;
                loopsDone.countDown();
            }, "shot-producer-" + p);
            threads.add(t);
            t.start();
        }
        long start = System.nanoTime();
        go.countDown();
        long done;
        long fineFrom = Long.MAX_VALUE; // known once every producer's loop has ended
        for (;;) {
            if (fired.sum() >= TIMERS) {
                done = System.nanoTime();
                break;
            }
            long now = System.nanoTime();
            if (fineFrom == Long.MAX_VALUE && loopsDone.getCount() == 0) {
                long windowEnd = Long.MIN_VALUE;
                for (int p = 0; p < producers; p++) {
                    windowEnd = Math.max(windowEnd, Math.max(latest[p], loopEnd[p]));
                }
                fineFrom = windowEnd - TimeUnit.MILLISECONDS.toNanos(FINE_LEAD_MS);
            }
            // The last timer cannot fire before the window's end, less the deadline's sampling error (far below
            // FINE_LEAD_MS), so the coarse looks before it cost the figures nothing.
            LockSupport.parkNanos(fineFrom != Long.MAX_VALUE && now - fineFrom >= 0 ? FINE_LOOK_NANOS
                    : COARSE_LOOK_NANOS);
            if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(60)) {
                throw new IllegalStateException(fired.sum() + " of " + TIMERS + " fired after 60 s");
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        long due = Long.MIN_VALUE;
        for (int p = 0; p < producers; p++) {
            due = Math.max(due, Math.max(latest[p], loopEnd[p]));
        }
        long cpu = 0;
        long busiest = 0;
        long loop = 0;
        for (int p = 0; p < producers; p++) {
            cpu += producerCpu[p];
            busiest = Math.max(busiest, producerCpu[p]);
            loop = Math.max(loop, loopEnd[p] - start);
        }
        return new double[] {(done - start) / 1e6, Math.max(0, done - due) / 1e6, cpu, busiest, due - start,
                loop / 1e6};
    }

    /**
     * The CPU ns so far of the threads the timer made, by role: the owner (a name ending in "-owner"), the rest of
     * them as "pool"; threads that ended are not counted.
     */
    private static Map<String, Long> cpuByRole(java.lang.management.ThreadMXBean mx, java.util.Set<Thread> existing) {
        Map<String, Long> m = new java.util.TreeMap<>();
        cpuByThread(mx, existing).forEach((t, ns) -> m.merge(t.getName().endsWith("-owner") ? "owner" : "pool", ns,
                Long::sum));
        return m;
    }

    /** The CPU ns so far of each thread the timer made (not the producers'); threads that ended are not counted. */
    private static Map<Thread, Long> cpuByThread(java.lang.management.ThreadMXBean mx,
            java.util.Set<Thread> existing) {
        Map<Thread, Long> m = new java.util.HashMap<>();
        for (Thread t : ThreadCpu.appearedSince(existing)) {
            if (t.getName().startsWith("shot-producer")) {
                continue;
            }
            long ns = mx.getThreadCpuTime(t.getId());
            if (ns > 0) {
                m.put(t, ns);
            }
        }
        return m;
    }

    private static double perTimer(int shots) {
        return 1.0 / shots / TIMERS;
    }

    public static double median(double[] xs) {
        double[] c = xs.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    private static void awaitQuietly(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got '" + args[i] + "'");
            }
            m.put(args[i].substring(2), args[++i]);
        }
        return m;
    }
}

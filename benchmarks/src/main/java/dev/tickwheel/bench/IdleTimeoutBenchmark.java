package dev.tickwheel.bench;

import dev.tickwheel.TimerFuture;
import dev.tickwheel.WheelTimer;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 13's idle-timeout workload: {@code connections} connections, each with an idle timeout ({@code idleMillis},
 * 30 s by default) that is pushed back on every read; one thread reads from the connections round-robin, as fast as
 * it can, so no timeout ever fires. A Tickwheel reschedule to a later deadline only defers its timer, and the owner
 * moves it when its old deadline comes: with 30 s that happens after the run, so a short timeout ({@code -p
 * idleMillis=100}, or {@code --idle-ms} for {@link #main}) is the one that shows the owner's moves and wake-ups. Each operation is one read's reset: Tickwheel's in-place {@code reschedule} against cancel + schedule on
 * Tickwheel, on Netty's 1 ms {@code HashedWheelTimer} (as {@code IdleStateHandler} does) and on the JDK's
 * {@code ScheduledThreadPoolExecutor} (remove-on-cancel). Throughput (resets per microsecond) with JMH's GC
 * profiler (bytes per reset); {@link #main} measures the CPU per reset of the whole process (the reading thread
 * and the timer's own threads), which is what a server pays.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar IdleTimeoutBenchmark -prof gc
 * java -cp benchmarks/target/benchmarks.jar dev.tickwheel.bench.IdleTimeoutBenchmark [--idle-ms 30000,100]
 *                                                                     # CPU per reset, whole process
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Xmn256m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
@State(Scope.Thread)
public class IdleTimeoutBenchmark {

    /** How a read pushes its connection's timeout back. */
    public enum Way {
        /** {@code TimerFuture.reschedule}: the same timer, moved in place. */
        TICKWHEEL_RESCHEDULE,
        /** Tickwheel, cancel + schedule: a new timer per read. */
        TICKWHEEL_CANCEL_SCHEDULE,
        /** Netty's 1 ms {@code HashedWheelTimer}, cancel + newTimeout (what {@code IdleStateHandler} does). */
        NETTY_1MS,
        /** {@code ScheduledThreadPoolExecutor(1)} with remove-on-cancel, cancel + schedule. */
        JDK_STPE,
        /**
         * Not a timer: the floor under any reset that reads the clock and publishes a new deadline with one CAS
         * ({@code System.nanoTime()}, then a CAS of a word in the connection's own object), for scale.
         */
        FLOOR_CLOCK_AND_CAS
    }

    @Param({"TICKWHEEL_RESCHEDULE", "TICKWHEEL_CANCEL_SCHEDULE", "NETTY_1MS", "JDK_STPE", "FLOOR_CLOCK_AND_CAS"})
    public Way way;

    @Param({"10000"})
    public int connections;

    /** The idle timeout, pushed back on every read. */
    @Param({"30000"})
    public long idleMillis;

    private Connections conns;

    @Setup(Level.Trial)
    public void open() {
        conns = new Connections(way, connections, idleMillis);
    }

    @TearDown(Level.Trial)
    public void close() {
        conns.close();
    }

    /** One read on the next connection: its idle timeout is pushed back. */
    @Benchmark
    public Object reset() {
        return conns.read();
    }

    /** The connections and their timeouts, for one way of resetting them. */
    static final class Connections {
        private static final Runnable IDLE = () -> {
            throw new IllegalStateException("an idle timeout fired: the reads should keep every connection alive");
        };
        private final Way way;
        private final long idleMillis;
        private final Object[] timeouts;
        private WheelTimer wheel;
        private HashedWheelTimer netty;
        private ScheduledThreadPoolExecutor jdk;
        private int next;

        Connections(Way way, int connections, long idleMillis) {
            this.way = way;
            this.idleMillis = idleMillis;
            this.timeouts = new Object[connections];
            switch (way) {
                case TICKWHEEL_RESCHEDULE:
                case TICKWHEEL_CANCEL_SCHEDULE:
                    wheel = WheelTimer.builder().daemon(true).build();
                    break;
                case NETTY_1MS:
                    netty = new HashedWheelTimer(daemon("netty-idle"), 1, TimeUnit.MILLISECONDS);
                    break;
                case FLOOR_CLOCK_AND_CAS:
                    break;
                default:
                    jdk = new ScheduledThreadPoolExecutor(1, daemon("jdk-idle"));
                    jdk.setRemoveOnCancelPolicy(true);
            }
            for (int i = 0; i < connections; i++) {
                timeouts[i] = schedule();
            }
        }

        private Object schedule() {
            switch (way) {
                case TICKWHEEL_RESCHEDULE:
                case TICKWHEEL_CANCEL_SCHEDULE:
                    return wheel.schedule(IDLE, idleMillis, TimeUnit.MILLISECONDS);
                case NETTY_1MS:
                    return netty.newTimeout(t -> IDLE.run(), idleMillis, TimeUnit.MILLISECONDS);
                case FLOOR_CLOCK_AND_CAS:
                    return new Deadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(idleMillis));
                default:
                    return jdk.schedule(IDLE, idleMillis, TimeUnit.MILLISECONDS);
            }
        }

        private static ThreadFactory daemon(String name) {
            return r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            };
        }

        Object read() {
            int i = next;
            next = i + 1 == timeouts.length ? 0 : i + 1;
            Object t = timeouts[i];
            switch (way) {
                case TICKWHEEL_RESCHEDULE:
                    if (!((TimerFuture<?>) t).reschedule(idleMillis, TimeUnit.MILLISECONDS)) {
                        throw new IllegalStateException("a pending idle timeout could not be moved");
                    }
                    return t;
                case FLOOR_CLOCK_AND_CAS:
                    ((Deadline) t).push(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(idleMillis));
                    return t;
                case TICKWHEEL_CANCEL_SCHEDULE:
                case JDK_STPE:
                    ((ScheduledFuture<?>) t).cancel(false);
                    break;
                default:
                    ((Timeout) t).cancel();
            }
            Object n = schedule();
            timeouts[i] = n;
            return n;
        }

        void close() {
            if (wheel != null) {
                wheel.shutdownNow();
            }
            if (netty != null) {
                netty.stop();
            }
            if (jdk != null) {
                jdk.shutdownNow();
            }
        }
    }

    /** The floor's connection state: one deadline word, moved by a CAS. */
    static final class Deadline {
        private static final java.lang.invoke.VarHandle WORD;

        static {
            try {
                WORD = java.lang.invoke.MethodHandles.lookup().findVarHandle(Deadline.class, "word", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private volatile long word;

        Deadline(long deadline) {
            word = deadline;
        }

        void push(long deadline) {
            long w = word;
            if (!WORD.compareAndSet(this, w, deadline)) {
                throw new IllegalStateException("one reader: the CAS cannot fail");
            }
        }
    }

    /**
     * CPU per reset of the whole process, each way in turn in this JVM: 3 s of warm-up, then 5 s measured, reading
     * {@code OperatingSystemMXBean.getProcessCpuTime} (every thread: the reader, the timer's, the JVM's own).
     */
    public static void main(String[] args) {
        int connections = Integer.parseInt(ChildJvm.arg(args, "--connections", "10000"));
        String idles = ChildJvm.arg(args, "--idle-ms", "30000,100");
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (String idle : idles.split(",")) {
            long idleMillis = Long.parseLong(idle.trim());
            System.out.printf(Locale.ROOT, "%-28s %14s %14s%n", "way (" + connections + " conns, " + idleMillis
                    + " ms)", "resets/us", "CPU ns/reset");
            for (Way way : Way.values()) {
                Connections c = new Connections(way, connections, idleMillis);
                try {
                    run(c, TimeUnit.SECONDS.toNanos(3));
                    long cpu0 = os.getProcessCpuTime();
                    long t0 = System.nanoTime();
                    long ops = run(c, TimeUnit.SECONDS.toNanos(5));
                    long wall = System.nanoTime() - t0;
                    long cpu = os.getProcessCpuTime() - cpu0;
                    System.out.printf(Locale.ROOT, "%-28s %14.2f %14.1f%n", way, ops / (wall / 1000.0),
                            (double) cpu / ops);
                    System.out.println("RESULT scenario=idle way=" + way + " connections=" + connections
                            + " idleMillis=" + idleMillis
                            + " cpuNsPerReset=" + String.format(Locale.ROOT, "%.1f", (double) cpu / ops));
                } finally {
                    c.close();
                }
            }
        }
    }

    private static long run(Connections c, long nanos) {
        long end = System.nanoTime() + nanos;
        long ops = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) {
                c.read();
            }
            ops += 1000;
        }
        return ops;
    }
}

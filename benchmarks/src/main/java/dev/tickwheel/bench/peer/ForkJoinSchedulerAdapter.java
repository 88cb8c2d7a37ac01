package dev.tickwheel.bench.peer;

import dev.tickwheel.bench.Task;
import dev.tickwheel.bench.TimerAdapter;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@link ForkJoinPool} as a {@link ScheduledExecutorService}, which it is from JDK 25 on: what a user on a
 * current JDK gets without a library. A schedule or a cancel pushes the task onto a lock-free (CAS) stack that one
 * delay-scheduler thread per pool drains into a 4-ary heap; when a task is due, that thread hands it to the pool's
 * workers, which run it. {@code cancel(false)} also pushes the task, so that the scheduler takes it out of the heap
 * at once rather than at its deadline (no option to set, unlike {@code setRemoveOnCancelPolicy}).
 *
 * <p>The benchmarks compile with {@code --release 17}, so the pool is found to be a scheduler at run time; on an
 * older JDK {@link #supported()} is false and the factories throw, naming the JDK needed.
 *
 * <p>Two forms: {@link #dedicated()}, a {@code new ForkJoinPool(1)} that the adapter owns, shuts down and waits
 * for, as the other peers; and {@link #common()}, the common pool, which cannot be shut down: {@link #close()}
 * then leaves its threads running and any timer still pending in its heap until its deadline.
 */
public final class ForkJoinSchedulerAdapter implements TimerAdapter {
    /** What the peers need, for the note that stands in for their figures on an older JDK. */
    public static final String REQUIREMENT = "needs JDK 25 (ForkJoinPool is a ScheduledExecutorService from 25 on)";

    private final ForkJoinPool pool;
    private final ScheduledExecutorService scheduler;
    private final boolean owned;

    private ForkJoinSchedulerAdapter(ForkJoinPool pool, boolean owned) {
        if (!(pool instanceof ScheduledExecutorService ses)) {
            throw new IllegalStateException("ForkJoinPool is not a ScheduledExecutorService on this JVM");
        }
        this.pool = pool;
        this.scheduler = ses;
        this.owned = owned;
    }

    /** @return whether this JVM's ForkJoinPool is a ScheduledExecutorService (JDK 25 and later) */
    public static boolean supported() {
        return ScheduledExecutorService.class.isAssignableFrom(ForkJoinPool.class);
    }

    /**
     * A pool of its own with parallelism 1: one worker runs the due tasks, as the JDK peer's
     * {@code ScheduledThreadPoolExecutor(1)}, Netty's worker and Kafka's executor each run them on one thread (on
     * two CPUs the common pool's parallelism is 1 as well), plus the pool's delay-scheduler thread.
     *
     * @throws UnsupportedOperationException before JDK 25
     */
    public static ForkJoinSchedulerAdapter dedicated() {
        requireSupported();
        return new ForkJoinSchedulerAdapter(new ForkJoinPool(1), true);
    }

    /**
     * {@link ForkJoinPool#commonPool()}, parallelism CPUs - 1 unless set by system property, shared with whatever
     * else in the JVM uses it.
     *
     * @throws UnsupportedOperationException before JDK 25
     */
    public static ForkJoinSchedulerAdapter common() {
        requireSupported();
        return new ForkJoinSchedulerAdapter(ForkJoinPool.commonPool(), false);
    }

    private static void requireSupported() {
        if (!supported()) {
            throw new UnsupportedOperationException("a ForkJoinPool peer " + REQUIREMENT + "; this JVM is "
                    + System.getProperty("java.version"));
        }
    }

    @Override
    public Object schedule(Task task, long delayMs) {
        return scheduler.schedule(task, delayMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void cancel(Object handle) {
        ((ScheduledFuture<?>) handle).cancel(false);
    }

    /** @return the pool the timers go to (for tests: its delayed-task count shows what the heap holds) */
    public ForkJoinPool pool() {
        return pool;
    }

    /** Shuts a dedicated pool down (dropping its pending timers) and waits for it; no effect on the common pool. */
    @Override
    public void close() {
        if (owned) {
            pool.shutdownNow();
            Shutdowns.await(pool);
        }
    }
}

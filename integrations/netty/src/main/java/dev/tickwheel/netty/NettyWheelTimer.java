package dev.tickwheel.netty;

import dev.tickwheel.TimerMetrics;
import dev.tickwheel.WheelTimer;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Netty's {@link Timer} on a Tickwheel {@link WheelTimer}: a drop-in for {@code io.netty.util.HashedWheelTimer}
 * wherever a library takes an {@code io.netty.util.Timer} (AsyncHttpClient's {@code setNettyTimer}, Lettuce's
 * {@code ClientResources.timer}, and the like). One line changes:
 *
 * <pre>{@code
 * Timer timer = new HashedWheelTimer();   // before
 * Timer timer = new NettyWheelTimer();    // after
 * }</pre>
 *
 * <h2>As HashedWheelTimer does</h2>
 * <ul>
 *   <li>{@link #newTimeout} returns a {@link Timeout}: {@code cancel()} returns true only if it moved the timeout
 *   from pending to cancelled (its task then never runs), and false for a timeout already expired, running or
 *   cancelled; {@code isExpired()} is true once the task has started; {@code task()} and {@code timer()} never
 *   change. The task receives that same {@code Timeout}.</li>
 *   <li>{@link #stop()} returns the timeouts that had neither expired nor been cancelled, each now cancelled, exactly
 *   once (later calls return an empty set), and waits for running tasks to end. Called from one of this timer's
 *   tasks it throws {@link IllegalStateException}.</li>
 *   <li>After {@code stop()}, {@code newTimeout} throws {@link IllegalStateException}, as Netty's {@code Timer}
 *   documents and {@code HashedWheelTimer} does (not {@link RejectedExecutionException}).</li>
 *   <li>With {@link Builder#maxPendingTimeouts}, a {@code newTimeout} beyond the limit throws
 *   {@link RejectedExecutionException} naming it.</li>
 *   <li>A task that throws is logged at WARN through Netty's logging (logger {@code dev.tickwheel.netty.NettyWheelTimer})
 *   and the timer carries on.</li>
 *   <li>A delay of zero or less runs the task at once; any delay up to {@code Long.MAX_VALUE} in any unit is
 *   accepted (such a timeout simply stays pending). A null task or unit throws {@link NullPointerException}.</li>
 *   <li>Threads are non-daemon unless your {@link ThreadFactory} makes them otherwise, and none starts before the
 *   first timeout: stop the timer to let the JVM exit.</li>
 * </ul>
 *
 * <h2>Where it differs</h2>
 * <ul>
 *   <li><b>Never early, by contract</b>: a task runs no earlier than its delay after {@code newTimeout} (by
 *   {@link System#nanoTime()}), normally within one tick after it. The tick is 1 ms by default, against
 *   {@code HashedWheelTimer}'s 100 ms.</li>
 *   <li><b>No idle cost</b>: when nothing is due, the timer's thread parks until the next deadline instead of
 *   waking every tick; a 1 ms {@code HashedWheelTimer} burns CPU on every tick whether or not anything is due.</li>
 *   <li><b>Tasks run on a pool</b> (by default max(2, CPUs) threads, started on demand), not on the timer's single
 *   thread: a slow task no longer delays every other timeout, and tasks due together may run at the same time and in
 *   any order. If your tasks rely on running one at a time, use {@link Builder#runTasksOnTimerThread()}, which runs
 *   them on the timer's thread as {@code HashedWheelTimer} does (keep them short, then), or give them your own
 *   {@link Builder#taskExecutor}.</li>
 *   <li>{@code cancel()} frees its place under {@code maxPendingTimeouts} at once ({@code HashedWheelTimer} frees it
 *   at its next tick), and {@link #pendingTimeouts()} reads 0 after {@code stop()} ({@code HashedWheelTimer}'s keeps
 *   counting what {@code stop()} returned). {@code newTimeout} and {@code cancel} take no lock; a timeout is one
 *   object of 56 bytes.</li>
 *   <li>{@code stop()} interrupts tasks running on the timer's own threads, as {@code HashedWheelTimer} interrupts
 *   its worker, but once: a task that ignores the interrupt is waited for.</li>
 *   <li>{@code ticksPerWheel} and leak detection have no counterpart: the hierarchical wheel holds any delay, and
 *   an unused instance holds no thread.</li>
 * </ul>
 */
public final class NettyWheelTimer implements Timer {

    /**
     * The adapter's default tick: 1 ms, as a {@code HashedWheelTimer} user tunes it for timeouts (the
     * {@link WheelTimer}'s own default is finer, for the JDK's lateness; Netty's timeouts favour throughput).
     */
    public static final long DEFAULT_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The timer underneath. Final. */
    private final WheelTimer wheel;
    /** Netty's limit as given (0 or less: none), for the rejection's message. Final. */
    private final long maxPendingTimeouts;
    /** Every thread the timer made, so that stop() from one of its tasks fails instead of waiting for itself. */
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    /** Per instance, so that a test can hand Netty's logging a factory of its own before building a timer. */
    private final InternalLogger logger = InternalLoggerFactory.getInstance(NettyWheelTimer.class);

    /**
     * A timer with the defaults: 1 ms tick, tasks on a pool of max(2, CPUs) non-daemon threads started on demand, no
     * limit on pending timeouts.
     */
    public NettyWheelTimer() {
        this(builder());
    }

    /**
     * A timer with the defaults whose threads {@code threadFactory} makes, as {@code new HashedWheelTimer(threadFactory)}.
     *
     * @param threadFactory makes the timer's thread and its pool's
     */
    public NettyWheelTimer(ThreadFactory threadFactory) {
        this(builder().threadFactory(threadFactory));
    }

    private NettyWheelTimer(Builder b) {
        ThreadFactory factory = b.threadFactory != null ? b.threadFactory : defaultThreads();
        ThreadFactory tracked = r -> {
            Thread t = factory.newThread(r);
            if (t != null) {
                threads.add(t);
            }
            return t;
        };
        WheelTimer.Builder w = WheelTimer.builder().threadNamePrefix("tickwheel-netty").threadFactory(tracked)
                .tick(b.tickNanos, TimeUnit.NANOSECONDS);
        if (b.taskExecutor != null) {
            w.executor(b.taskExecutor);
        } else if (b.onTimerThread) {
            w.runTasksOnOwnerThread();
        } else if (b.workers > 0) {
            w.workerThreads(b.workers);
        }
        if (b.maxPendingTimeouts > 0) {
            w.maxPending(b.maxPendingTimeouts);
        }
        this.maxPendingTimeouts = b.maxPendingTimeouts;
        this.wheel = w.build();
    }

    /** @return a builder for a configured timer */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default threads: non-daemon, as {@code HashedWheelTimer}'s, named {@code tickwheel-netty-N-owner} and
     * {@code tickwheel-netty-N-worker-M} after the role the timer names in each thread's Runnable.
     */
    private static ThreadFactory defaultThreads() {
        AtomicInteger workers = new AtomicInteger();
        return r -> {
            String role = r.toString();
            return new Thread(r, role.endsWith("-worker") ? role + "-" + workers.incrementAndGet() : role);
        };
    }

    /**
     * Schedules {@code task} to run once after the delay: never earlier, normally within one tick after it. Safe from
     * any thread, including a task of this timer; takes no lock; allocates the returned {@link Timeout} only.
     *
     * @throws NullPointerException if task or unit is null
     * @throws IllegalStateException if this timer has been stopped
     * @throws RejectedExecutionException if {@code maxPendingTimeouts} timeouts are already pending
     */
    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(unit, "unit");
        TickwheelTimeout timeout = new TickwheelTimeout(this, task);
        try {
            timeout.start(delay, unit);
        } catch (RejectedExecutionException e) {
            if (wheel.isShutdown()) {
                throw new IllegalStateException("the timer is stopped: no new timeouts", e);
            }
            throw new RejectedExecutionException("maxPendingTimeouts " + maxPendingTimeouts
                    + " timeouts are already pending", e);
        }
        return timeout;
    }

    /**
     * Stops the timer: no new timeouts; returns the timeouts that had neither expired nor been cancelled, each now
     * cancelled (their tasks never run), and waits until the tasks still running have ended (they are interrupted
     * once). Only the first call returns the timeouts; later calls return an empty set. An interrupt while waiting
     * is kept for the caller.
     *
     * @return the unprocessed timeouts, cancelled by this call (a mutable set of its own)
     * @throws IllegalStateException if called from a task of this timer, which would wait for itself
     */
    @Override
    public Set<Timeout> stop() {
        if (threads.contains(Thread.currentThread())) {
            throw new IllegalStateException(NettyWheelTimer.class.getSimpleName()
                    + ".stop() cannot be called from one of its own TimerTasks");
        }
        List<Runnable> handedBack = wheel.shutdownNow();
        Set<Timeout> unprocessed = new HashSet<>();
        for (Runnable r : handedBack) {
            TickwheelTimeout t = (TickwheelTimeout) r; // the only timers this WheelTimer is ever given
            if (t.cancel()) {
                unprocessed.add(t);
            }
        }
        boolean interrupted = false;
        for (;;) {
            try {
                if (wheel.awaitTermination(1, TimeUnit.DAYS)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return unprocessed;
    }

    /** @return timeouts scheduled and not yet expired or cancelled, as {@code HashedWheelTimer.pendingTimeouts()} */
    public long pendingTimeouts() {
        return wheel.metrics().pending();
    }

    /** @return the underlying timer's counters: pending, scheduled, fired, cancelled, rejected, owner lag */
    public TimerMetrics metrics() {
        return wheel.metrics();
    }

    /**
     * Turns the underlying timer's lateness record ({@code metrics().lateness()}) on or off; off by default, as
     * {@link WheelTimer#recordLateness(boolean)} says (a clock read per run). The Micrometer binder turns it on.
     *
     * @param on whether expiries that start from now on record how late they start
     */
    public void recordLateness(boolean on) {
        wheel.recordLateness(on);
    }

    WheelTimer wheelTimer() {
        return wheel;
    }

    /** A task threw: log it (Netty's logging, WARN) and carry on. */
    void taskFailed(TimerTask task, Throwable t) {
        if (logger.isWarnEnabled()) {
            logger.warn("TimerTask " + task + " threw; the timer carries on", t);
        }
    }

    @Override
    public String toString() {
        return "NettyWheelTimer[" + wheel + "]";
    }

    /**
     * Configures a {@link NettyWheelTimer}. Each setter checks its argument at once and throws
     * {@link IllegalArgumentException} naming a bad value. Where tasks run ({@link #workerThreads},
     * {@link #runTasksOnTimerThread}, {@link #taskExecutor}) are alternatives: the last one set wins.
     */
    public static final class Builder {
        private long tickNanos = DEFAULT_TICK_NANOS;
        private int workers;
        private boolean onTimerThread;
        private Executor taskExecutor;
        private long maxPendingTimeouts;
        private ThreadFactory threadFactory;

        private Builder() {
        }

        /**
         * The tick (default 1 ms, against {@code HashedWheelTimer}'s 100 ms): deadlines are rounded up to it, so a
         * task runs up to one tick after its delay. A finer tick costs no idle CPU.
         *
         * @param duration the tick, at least {@link WheelTimer#MIN_TICK_NANOS} nanoseconds
         * @param unit its unit
         * @return this builder
         * @throws IllegalArgumentException if the tick is not positive or below the minimum
         */
        public Builder tick(long duration, TimeUnit unit) {
            WheelTimer.builder().tick(duration, unit); // checks, naming a bad value
            this.tickNanos = unit.toNanos(duration);
            return this;
        }

        /**
         * Tasks run on a pool of this many threads, started on demand (default max(2, CPUs)).
         *
         * @param threads from 1 to {@link WheelTimer.Builder#MAX_WORKER_THREADS}
         * @return this builder
         * @throws IllegalArgumentException if threads is outside that range
         */
        public Builder workerThreads(int threads) {
            WheelTimer.builder().workerThreads(threads); // checks, naming a bad value
            this.workers = threads;
            this.onTimerThread = false;
            this.taskExecutor = null;
            return this;
        }

        /**
         * Tasks run on the timer's own thread, one at a time, as {@code HashedWheelTimer} runs them: for code that
         * relies on that, and for tiny tasks (no hand-off: the fastest expiry). A slow task delays every other
         * timeout.
         *
         * @return this builder
         */
        public Builder runTasksOnTimerThread() {
            this.onTimerThread = true;
            this.taskExecutor = null;
            return this;
        }

        /**
         * Tasks run on this executor, as with {@code HashedWheelTimer}'s {@code taskExecutor}. A task the executor
         * rejects never runs: its timeout reads expired and, as the {@link java.util.concurrent.Future} it also is,
         * fails with the rejection (not logged). {@code stop()} does not wait for tasks already handed to it, and
         * may be called from them.
         *
         * @param executor the executor
         * @return this builder
         */
        public Builder taskExecutor(Executor executor) {
            this.taskExecutor = Objects.requireNonNull(executor, "executor");
            this.onTimerThread = false;
            return this;
        }

        /**
         * The most timeouts pending at once; {@code newTimeout} beyond it throws
         * {@link RejectedExecutionException}. Exact under concurrency. As {@code HashedWheelTimer}'s: 0 or less
         * means no limit (the default).
         *
         * @param max the limit, or 0 or less for none
         * @return this builder
         */
        public Builder maxPendingTimeouts(long max) {
            this.maxPendingTimeouts = max;
            return this;
        }

        /**
         * Makes the timer's thread and its pool's (default: non-daemon threads named {@code tickwheel-netty-N-owner}
         * and {@code tickwheel-netty-N-worker-M}). The Runnable handed to it names its role in {@code toString()}.
         *
         * @param factory the thread factory
         * @return this builder
         */
        public Builder threadFactory(ThreadFactory factory) {
            this.threadFactory = Objects.requireNonNull(factory, "threadFactory");
            return this;
        }

        /**
         * @return a timer; it starts its first thread at the first {@code newTimeout}
         * @throws IllegalStateException if the thread factory fails (see {@link WheelTimer.Builder#threadFactory})
         */
        public NettyWheelTimer build() {
            return new NettyWheelTimer(this);
        }
    }
}

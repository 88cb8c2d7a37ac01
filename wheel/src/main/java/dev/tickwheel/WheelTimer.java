package dev.tickwheel;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * A {@link ScheduledExecutorService} on a hierarchical timing wheel, for many threads starting and cancelling
 * many timers at once: request timeouts, retries, leases, idle reaping.
 *
 * <pre>{@code
 * try (WheelTimer timer = WheelTimer.create()) {
 *     ScheduledFuture<?> timeout = timer.schedule(() -> request.fail("timed out"), 30, TimeUnit.SECONDS);
 *     // ... the response arrives first:
 *     timeout.cancel(false);
 * }
 * }</pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Never early.</b> A task runs no earlier than its delay after {@code schedule} was called, measured by
 *   the time source ({@link System#nanoTime()} by default). It normally runs within one tick of that (1 µs by
 *   default), plus the owner thread's wake-up latency and the time the worker pool takes to reach it. Delays are
 *   rounded up to whole ticks; {@link java.util.concurrent.ScheduledFuture#getDelay} reports that rounded deadline.</li>
 *   <li><b>Cancel</b> keeps {@link java.util.concurrent.FutureTask}'s contract, as the JDK's executor does:
 *   {@code cancel} returns true for a task that has not completed, running or not, and the future is then cancelled
 *   ({@code get} throws {@link java.util.concurrent.CancellationException}). A task that had not started never
 *   starts; a running one runs on, interrupted if {@code mayInterruptIfRunning}, and that interrupt never reaches
 *   the next task its thread runs. Every method returns a {@link TimerFuture}, whose
 *   {@link TimerFuture#cancelIfNotStarted()} is the strict cancel: true if and only if the task had not started and
 *   now never will (for a periodic timer: no run in progress and none to come). In every race between it and the
 *   fire exactly one wins. Cancel is safe from any thread, never blocks, and the cancelled timer is unlinked from
 *   the wheel by the owner thread soon after (within a tick under load, within about 10 ms when idle), so
 *   cancelled timers do not pile up.</li>
 *   <li><b>Shutdown.</b> {@link #shutdown()} rejects new work, lets already-scheduled one-shot timers run at their
 *   time (a reschedule racing it leaves the timer at its new deadline or its old one, never ends it), and ends the
 *   periodic ones before it returns: no periodic run starts afterwards, and each periodic future not in a run then
 *   reads cancelled. One whose run is in progress reads not done until that run returns, and then cancelled, with no
 *   further run (as with the JDK's executor, whose futures never read done while the task runs); a {@code cancel}
 *   meanwhile returns true and reads cancelled at once. {@link #awaitTermination} returns, and
 *   {@link #isTerminated} reads true, only once every such run has returned, on whatever thread it runs (the own
 *   pool, your executor, the owner thread). {@link #shutdownNow()} returns every accepted timer that
 *   had neither started nor been cancelled, exactly once; none of them will then be run by this timer (the caller
 *   may run them). Running tasks on the timer's own pool are interrupted. A {@code schedule} racing a shutdown
 *   either throws {@link RejectedExecutionException} (and its task never runs) or its timer is accounted for: a
 *   one-shot runs or is handed back, a periodic one is ended by the shutdown. Nothing accepted is lost.</li>
 *   <li><b>Threads</b>, as the JDK's executor: non-daemon by default, so a {@code main} that schedules a task and
 *   returns still sees it run (shut the timer down to let the JVM exit). No thread starts until the first task;
 *   then the owner thread (for a task due now on the own pool, only a worker), and pool workers on demand: one more
 *   whenever a hand-off finds every started worker busy, until the pool is full.</li>
 *   <li><b>Everything else</b> follows {@link java.util.concurrent.ScheduledThreadPoolExecutor}: fixed-rate runs
 *   never overlap and catch up after a late run; an exception from a one-shot task completes its future
 *   exceptionally; an exception from a periodic task ends it with that exception (unless the timer was built
 *   with {@link Builder#continuePeriodicOnFailure}).</li>
 * </ul>
 *
 * <h2>Architecture</h2>
 * Producer threads never touch the wheel. {@code schedule} allocates the timer (the future, which is also the
 * wheel's node: one object per timer) and offers it to a JCTools MPSC start queue (VarHandle-based: no
 * {@code sun.misc.Unsafe}); {@code cancel} flips the timer's
 * state with one CAS and offers it to a cancel queue. Neither takes a lock. One owner thread drains both queues
 * in bounded batches, inserts into and unlinks from the {@link TimingWheel}, advances the wheel to the current
 * tick (a bounded advance, so a clump of same-tick timers cannot hold it), and hands the expired timers to the
 * worker pool: by default the timer's own pool, or an {@link Executor} you supply, or (opt-in, for tiny tasks) the
 * owner thread itself. The own pool takes no lock and allocates nothing per task: the owner chains a step's due
 * timers through the timers themselves and pushes the chain to the pool's queue in one atomic swap, waking at most
 * one parked worker for it (none if a worker is spinning or max(1, CPUs - 1) are awake); a worker that takes a
 * timer and leaves more queued wakes one more within the same limit; at most one idle worker spins, briefly, and
 * the rest park. Work due now ({@code execute},
 * {@code submit}, a delay of zero or less) goes from its producer straight to that queue, never through the owner.
 * If your executor rejects a timer, its future completes exceptionally with the rejection.
 *
 * <p>When nothing is due the owner parks until the wheel's next event, not every tick, so an idle timer costs
 * next to no CPU. A producer whose deadline precedes the owner's planned wake-up wakes it.
 *
 * <p><b>Blocked workers.</b> The own pool wakes workers for the owner's batches up to max(1, CPUs - 1) awake at
 * once (more runnable threads than cores only slow the owner); a task due now always gets an idle worker. If the
 * awake workers block in their tasks, the owner's watchdog adds one more within about 100 µs of the queue not
 * moving (10 ms if they are runnable, i.e. busy computing or waiting for a CPU). If every worker of the pool is busy,
 * due tasks wait in the pool's queue in the order they were handed out. The owner keeps time regardless (its lag
 * stays 0), but each task starts late by as long as it waits for a worker, without bound if tasks block for good;
 * until it starts, {@code cancel} still wins. Give blocking tasks their own executor or enough workers.
 *
 * <h2>Concurrency</h2>
 * The races (fire vs cancel, lost wake-ups, schedule vs shutdown) are decided by CAS on the timer's state (see
 * {@link TimerFuture}) and by two handshakes between producers and the owner, written out where they live: in the
 * command port that this class extends. The package documentation draws how a timer flows and which thread
 * owns which object.
 *
 * <h2>Failure of the owner thread</h2>
 * Tasks never run inside the owner's bookkeeping, so a task's exception cannot reach it. If the owner's own loop
 * throws all the same (a bug, or {@link OutOfMemoryError}), the timer fails loudly rather than going silently
 * dead: it moves to the stopped state, completes every pending future exceptionally with an
 * {@link IllegalStateException} whose cause is the failure, rejects every later {@code schedule} naming that
 * cause, and rethrows the failure to the owner thread's uncaught-exception handler.
 */
public final class WheelTimer extends CommandPort implements ScheduledExecutorService, AutoCloseable {

    /**
     * The default tick: 1 µs, so that deadlines round up by at most a microsecond and tasks fire about as late as
     * the JDK's executor fires them (a 1 ms tick adds up to a millisecond; see the README's configuration section
     * for when a coarser tick pays: mass expiry at a high rate).
     */
    public static final long DEFAULT_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(1);

    /** The smallest tick: 1 µs. Finer ticks only add owner work; no clock is that steady. */
    public static final long MIN_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(1);

    private static final AtomicInteger TIMER_IDS = new AtomicInteger();

    /** Where due tasks run. Final. */
    private final TaskDispatch dispatch;
    /**
     * Whether work due now goes straight to the pool ({@link TaskDispatch#takesWorkDueNow()}), whose queue then owns
     * a handed-off timer's link until a worker takes it (only the pool may claim such a timer's run). Final.
     */
    final boolean poolQueuesHandOffs;
    /** The owner's work and state; runs on the owner thread (or, in manual drive, on the test's). Final. */
    final OwnerLoop loop;
    /**
     * Where a periodic task's failure goes when periodic timers go on after one; null for the default policy (the
     * timer ends). Final; read by the threads that run periodic tasks.
     */
    final BiConsumer<? super TimerFuture<?>, ? super Throwable> periodicFailureHandler;
    /** How late runs start; recorded lock-free by the threads that run tasks, while {@link #recordsLateness}. Final. */
    private final LatenessHistogram lateness = new LatenessHistogram();
    /**
     * Whether runs record their lateness: off unless the builder or {@link #recordLateness(boolean)} turned it on.
     * Volatile: written rarely, from any thread; read once per run by the thread that starts it, which then reads
     * the clock only if it is on. Nothing is published through it: a run that races a switch is recorded or not.
     */
    private volatile boolean recordsLateness;

    private WheelTimer(Builder b, String name) {
        super(new TickClock(b.timeSource, b.tickNanos), new TimerCounters(b.maxPending), b.pooledChunks, b.queueShape,
                b.manual ? null : factoryFor(b, name + "-owner"),
                name + "-owner");
        this.periodicFailureHandler = b.periodicFailureHandler;
        this.recordsLateness = b.recordLateness; // before the timer is published
        if (b.runOnOwner) {
            this.dispatch = TaskDispatch.ownerThread();
        } else if (b.executor != null) {
            this.dispatch = TaskDispatch.executor(b.executor);
        } else {
            this.dispatch = TaskDispatch.ownPool(b.workers, factoryFor(b, name + "-worker"), name + "-worker");
        }
        this.poolQueuesHandOffs = dispatch.takesWorkDueNow();
        if (dispatch instanceof WorkerPool) {
            // Published with the timer (set before it is). The watchdog's look comes within the stall, or a tick.
            long watchTicks = Math.max(1, PoolOwnerSide.STALL_NANOS / clock.tickNanos);
            ((WorkerPool) dispatch).ownerNudge = () -> nudgeForWatch(watchTicks);
        }
        this.loop = new OwnerLoop(this, dispatch, TickClock.levelBitsFor(b.tickNanos, b.levelBits), b.batch,
                b.stepHook);
        if (dispatch instanceof WorkerPool && !b.manual) {
            ((WorkerPool) dispatch).standbySlot.host = loop.ownerPark; // a worker stands by for the next due timer
        }
    }

    private static WheelTimer build(Builder b) {
        TickClock.levelBitsFor(b.tickNanos, b.levelBits); // checked before any thread is made
        String name = b.namePrefix + "-" + TIMER_IDS.incrementAndGet();
        return new WheelTimer(b, name);
    }

    /** The factory for the owner or the workers: the user's or the default one, around which a slice is applied. */
    private static ThreadFactory factoryFor(Builder b, String defaultPrefix) {
        ThreadFactory f = b.threadFactory != null ? b.threadFactory : TimerThreads.named(defaultPrefix, b.daemon);
        return b.slice == null ? f : b.slice.around(f);
    }

    /**
     * @return a timer with the defaults: 1 µs tick, its own pool of up to max(2, CPUs) non-daemon workers started
     *         on demand, no limit. Like the JDK's executor, it starts no thread until the first task, and from then
     *         on keeps the JVM alive until it is shut down
     */
    public static WheelTimer create() {
        return builder().build();
    }

    /** @return a builder for a configured timer */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    void runOwner() {
        loop.run();
    }

    @Override
    void ownerStartFailed(Throwable e) {
        loop.fail(e); // as if the owner's loop had failed at once: nothing else will ever poll the queues
    }

    // ==========================================================================================================
    // Scheduling: any thread

    @Override
    public TimerFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(unit, "unit");
        ScheduledTimer<Void> t = new ScheduledTimer<>(this, command, 0, clock.firstKey(delay, unit));
        return delay <= 0 && poolQueuesHandOffs ? acceptNow(t, dispatch) : accept(t, false);
    }

    @Override
    public <V> TimerFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        Objects.requireNonNull(callable, "callable");
        Objects.requireNonNull(unit, "unit");
        ScheduledTimer<V> t = new ScheduledTimer<>(this, callable, ScheduledTimer.KIND_CALLABLE,
                clock.firstKey(delay, unit));
        return delay <= 0 && poolQueuesHandOffs ? acceptNow(t, dispatch) : accept(t, false);
    }

    /**
     * As {@link ScheduledExecutorService#scheduleAtFixedRate}: runs never overlap; after a late run the missed
     * runs follow at once, one after another.
     *
     * @throws IllegalArgumentException if period &lt;= 0
     */
    @Override
    public TimerFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return schedulePeriodic(command, initialDelay, period, unit, true);
    }

    /**
     * As {@link ScheduledExecutorService#scheduleWithFixedDelay}.
     *
     * @throws IllegalArgumentException if delay &lt;= 0
     */
    @Override
    public TimerFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return schedulePeriodic(command, initialDelay, delay, unit, false);
    }

    private TimerFuture<?> schedulePeriodic(Runnable command, long initialDelay, long period, TimeUnit unit,
                                            boolean fixedRate) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(unit, "unit");
        if (period <= 0) {
            throw new IllegalArgumentException((fixedRate ? "period " : "delay ") + period + " " + unit
                    + " must be positive");
        }
        long periodNanos = unit.toNanos(period);
        long first = clock.dueNanos(initialDelay, unit);
        long key = initialDelay <= 0 ? clock.ticksIn(first) : clock.keyOf(first);
        return accept(new PeriodicTimer(this, command, first, key, fixedRate ? periodNanos : -periodNanos), true);
    }

    /**
     * Runs the command at once: a timer of delay 0. On the timer's own pool it goes straight to the workers (one
     * hand-off, in submission order: with one worker, tasks run in the order {@code execute} was called), never
     * through the owner thread; with an executor of yours, or on the owner thread, it takes the owner's path.
     */
    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public TimerFuture<?> submit(Runnable task) {
        return schedule(task, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public <T> TimerFuture<T> submit(Runnable task, T result) {
        Objects.requireNonNull(task, "task");
        return schedule(Executors.callable(task, result), 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public <T> TimerFuture<T> submit(Callable<T> task) {
        return schedule(task, 0, TimeUnit.NANOSECONDS);
    }

    /** A timer's {@code get()} is about to block on it ({@link TaskDispatch#beforeAwait}). */
    void beforeAwait(ScheduledTimer<?> t) {
        dispatch.beforeAwait(t);
    }

    /** @return why the owner failed, or null (lv) */
    Throwable ownerFailure() {
        return termination.failure();
    }

    // ==========================================================================================================
    // Lifecycle

    /**
     * Rejects new timers; one-shot timers already scheduled still run at their time (a {@code reschedule} from now on
     * returns false and leaves the old time; one racing this call leaves the new time or the old, and never ends the
     * timer). Periodic timers end before this returns: no run of theirs starts afterwards, and each future not in a
     * run reads cancelled. A periodic timer whose run is in progress reads not done until that run returns, then
     * cancelled (a {@code cancel} meanwhile returns true and reads cancelled at once); termination waits for that run,
     * wherever it runs (this call's marking does; after {@code shutdownNow} alone, a run already handed to your
     * executor is that executor's to finish). Termination, once reached, stays reached. Returns without waiting for
     * the one-shots or the runs; use {@link #awaitTermination} to wait.
     */
    @Override
    public void shutdown() {
        // A hold on termination while this call marks the runs in progress, taken before the run state: an owner
        // that sees SHUTDOWN may exit at once, and awaitTermination must not return before a run is marked.
        termination.hold();
        try {
            advanceRunState(SHUTDOWN);
            // Every caller, so that none returns before they have ended; after a racing shutdownNow too, for a run
            // a worker had claimed (the handed-back ones are the shutdownNow caller's, and endByShutdown leaves them).
            endPeriodicTimers();
        } finally {
            termination.release();
        }
        wakeOwnerNow();
    }

    /**
     * Rejects new timers and returns every accepted timer that had neither started nor been cancelled, exactly
     * once; the timer runs none of them (the caller may). Tasks running on the timer's own pool, or on the owner
     * thread, are interrupted. Tasks already handed to a user-supplied executor are that executor's to run. Only
     * the first call returns the timers; later calls return an empty list.
     */
    @Override
    public List<Runnable> shutdownNow() {
        boolean won = advanceRunState(STOP);
        wakeOwnerNow();
        if (!won) {
            return new java.util.ArrayList<>();
        }
        if (owner == null || Thread.currentThread() == owner) {
            if (!termination.ownerDone()) {
                loop.stopNow();
            }
        } else {
            if (dispatch.runsOnOwner()) {
                owner.interrupt(); // a task running on the owner thread
            }
            termination.awaitOwnerExit();
        }
        if (termination.exitedWithoutHandBack()) {
            // The owner exited on its own (an earlier shutdown() completed) before it saw STOP: collect what is
            // left, which the owner no longer touches (its exit happens-before the latch release we waited on).
            loop.stopNow();
        }
        return termination.takeHandedBack();
    }

    @Override
    public boolean isShutdown() {
        return runState() != ACTIVE;
    }

    @Override
    public boolean isTerminated() {
        return termination.isTerminated(dispatch);
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return termination.awaitTermination(timeout, unit, dispatch);
    }

    /**
     * Shuts down and waits for termination, as {@code ExecutorService.close()} does from Java 19 on: an interrupt
     * while waiting turns it into {@link #shutdownNow()}, and since nobody receives that call's list, the timers it
     * hands back are cancelled (their {@code get()} throws {@link java.util.concurrent.CancellationException}
     * rather than waiting forever); the interrupt is kept. Called from a task of this timer, it shuts down without
     * waiting for itself.
     */
    @Override
    public void close() {
        Thread me = Thread.currentThread();
        termination.close(this, dispatch, me == owner || dispatch.isPoolThread(me) || runsPeriodicTask(me)
                || termination.runsMarkedRun(me));
    }

    /**
     * @return whether {@code me} is inside a run of one of this timer's periodic tasks (on a user executor's thread,
     *         which the timer cannot tell apart otherwise): termination would wait for that run, so close() from it
     *         must not wait for itself
     */
    private boolean runsPeriodicTask(Thread me) {
        for (PeriodicTimer t : periodics) {
            if (t.phase() == ScheduledTimer.RUNNING && t.runnerThread() == me) {
                return true;
            }
        }
        return false;
    }

    /** @return a snapshot of the counters */
    public TimerMetrics metrics() {
        return counters.snapshot(starts, cancels, dispatch, lateness.snapshot());
    }

    /** Starts {@link TimerMetrics#lateness()} afresh: later snapshots count only the runs that start after it. */
    public void resetLateness() {
        lateness.reset();
    }

    /**
     * Turns the lateness record ({@link TimerMetrics#lateness()}) on or off, from any thread, at any time; off by
     * default (see {@link Builder#recordLateness()} for its cost). Runs that start while it is off are not counted;
     * what was recorded stays. The Micrometer binder turns it on.
     *
     * @param on whether runs that start from now on record how late they start
     */
    public void recordLateness(boolean on) {
        recordsLateness = on;
    }

    /** @return whether runs record how late they start (see {@link #recordLateness(boolean)}) */
    public boolean recordsLateness() {
        return recordsLateness;
    }

    /**
     * Records how late a run dispatched for the tick {@code key} starts, if the record is on: by the thread that
     * starts it.
     */
    void noteLateness(long key) {
        if (!recordsLateness) {
            return;
        }
        long late;
        try {
            late = -clock.nanosUntilTick(key);
        } catch (RuntimeException e) {
            return; // a time source that throws costs this run its record, never the run itself
        }
        lateness.record(late);
    }

    /** Test seam: the timer's own pool, or null if tasks run elsewhere (jcstress races its hand-offs). */
    WorkerPool pool() {
        return dispatch instanceof WorkerPool ? (WorkerPool) dispatch : null;
    }

    /** @return the tick length in nanoseconds */
    public long tickNanos() {
        return clock.tickNanos;
    }

    @Override
    public String toString() {
        String state = termination.ownerDone() ? "terminated" : runState() == ACTIVE ? "running" : "shutting down";
        return "WheelTimer[" + state + ", tick=" + clock.tickNanos + "ns, " + metrics() + "]";
    }

    // ==========================================================================================================

    /**
     * Configures a {@link WheelTimer}. Every setter checks its argument at once and throws
     * {@link IllegalArgumentException} naming a bad value. The worker choices ({@link #workerThreads},
     * {@link #executor}, {@link #runTasksOnOwnerThread}) are alternatives: the last one set wins.
     */
    public static final class Builder {
        private long tickNanos = DEFAULT_TICK_NANOS;
        private int[] levelBits;
        private int workers = Math.max(2, Runtime.getRuntime().availableProcessors());
        private Executor executor;
        private boolean runOnOwner;
        private BiConsumer<? super TimerFuture<?>, ? super Throwable> periodicFailureHandler;
        private ThreadFactory threadFactory;
        private boolean daemon;
        private String namePrefix = "tickwheel";
        private long maxPending = Long.MAX_VALUE;
        private TimeSource timeSource = TimeSource.SYSTEM;
        private boolean manual;
        private int batch = 16_384;
        private int pooledChunks = POOLED_CHUNKS;
        private CommandPort.QueueShape queueShape = CommandPort.QueueShape.DEFAULT;
        private Runnable stepHook;
        private boolean recordLateness;
        private SchedulerSlice slice;

        /** The most worker threads the timer's own pool may have. */
        public static final int MAX_WORKER_THREADS = 4096;
        /** The most chunks {@link #pooledQueueChunks} may keep per queue (16 MB a queue). */
        public static final int MAX_POOLED_QUEUE_CHUNKS = 4096;

        private Builder() {
        }

        /**
         * The tick: timers are due at tick boundaries, so a task runs up to one tick after its delay. Default 1 µs.
         *
         * @param duration the tick length, positive
         * @param unit the unit of duration
         * @return this builder
         * @throws IllegalArgumentException if the tick is not positive or is shorter than {@link #MIN_TICK_NANOS}
         */
        public Builder tick(long duration, TimeUnit unit) {
            Objects.requireNonNull(unit, "unit");
            if (duration <= 0) {
                throw new IllegalArgumentException("tick " + duration + " " + unit + " must be positive");
            }
            long nanos = unit.toNanos(duration);
            if (nanos < MIN_TICK_NANOS) {
                throw new IllegalArgumentException("tick " + duration + " " + unit + " is shorter than the minimum "
                        + MIN_TICK_NANOS + " ns");
            }
            this.tickNanos = nanos;
            return this;
        }

        /**
         * The wheel's bits per level (see {@link TimingWheel}). By default two levels of 9 bits, then levels of 6, as
         * many as the tick needs to hold any delay up to {@code Long.MAX_VALUE} nanoseconds (a timer due within 2^18
         * ticks then comes down the levels at most once); {@link #build()} rejects fewer bits.
         *
         * @param bits bits per level, lowest level first
         * @return this builder
         * @throws IllegalArgumentException if a level is outside [1, 12] bits or the sum exceeds 62
         */
        public Builder levelBits(int... bits) {
            new TimingWheel<>(bits); // validates, naming the bad value
            this.levelBits = bits.clone();
            return this;
        }

        /**
         * Run tasks on the timer's own pool of this many threads (the default, with max(2, CPUs) threads).
         *
         * @param threads from 1 to {@value #MAX_WORKER_THREADS}
         * @return this builder
         * @throws IllegalArgumentException if threads is outside that range
         */
        public Builder workerThreads(int threads) {
            if (threads < 1 || threads > MAX_WORKER_THREADS) {
                throw new IllegalArgumentException("workerThreads " + threads + " is outside [1, "
                        + MAX_WORKER_THREADS + "]");
            }
            this.workers = threads;
            this.executor = null;
            this.runOnOwner = false;
            return this;
        }

        /**
         * How many chunks of 1,024 references each of the two command queues (starts and cancels) may keep, rounded
         * up to a power of two: 4 KB a chunk with compressed references. A queue allocates its first 8 chunks (or
         * all, if fewer) up front, 64 KB a timer for both. While the owner thread is behind (on a busy machine it may
         * wait for a CPU), commands pile up in the queues. With more than 8, a backlog beyond the first ring goes into
         * spare rings, each as large as all the ones before it, allocated the first time a backlog reaches them and
         * then kept, so a backlog of that size again allocates nothing. Beyond the kept chunks (by default, beyond the
         * first ring), producers allocate chunks that become garbage (4 bytes a command). The default, 8, keeps no
         * spare ring. Raise it (1,024: up to 4 MB a queue) where garbage under sustained overload matters more than
         * memory kept after a burst and than the speed of a burst: on the README's 2-vCPU machine, 1,024 brought a
         * saturated schedule + cancel at a million pending timers from 48.5-49.5 to 48.0-48.1 bytes per operation (the
         * timer is 48), while a burst of a million timers fired 12-23% slower (kept rings are cold in the cache, fresh
         * chunks are not). {@link TimerMetrics#commandQueueSpills()} counts the commands that spilled.
         *
         * @param chunks from 2 to {@value #MAX_POOLED_QUEUE_CHUNKS}
         * @return this builder
         * @throws IllegalArgumentException if chunks is outside that range
         */
        public Builder pooledQueueChunks(int chunks) {
            if (chunks < 2 || chunks > MAX_POOLED_QUEUE_CHUNKS) {
                throw new IllegalArgumentException("pooledQueueChunks " + chunks + " is outside [2, "
                        + MAX_POOLED_QUEUE_CHUNKS + "]: a producer wakes the owner at one chunk of backlog, so the"
                        + " pool needs room beyond it");
            }
            this.pooledChunks = chunks;
            return this;
        }

        /**
         * Run tasks on this executor. If it rejects a task, the task's future completes exceptionally with the
         * rejection. If it runs the task and then throws, the task's outcome stands and the exception is dropped.
         * The timer does not shut it down, and shutdownNow does not reach into it: tasks already handed to it are
         * its to run.
         *
         * @param executor the executor
         * @return this builder
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            this.runOnOwner = false;
            return this;
        }

        /**
         * Periodic timers go on after a run that throws an {@link Exception}, instead of ending as they do by default
         * (and in the JDK's executor). Each such failure is passed to {@code handler}, with the timer's future, on
         * the thread that ran the task, before the next period is scheduled, and counted in
         * {@link TimerMetrics#periodicFailures()}. An {@link Error} still ends the timer (its future then holds it).
         * A run that a {@code cancel} or {@code shutdown} has already ended is not reported. If the handler throws,
         * what it threw goes to the thread's uncaught-exception handler and the timer goes on.
         *
         * @param handler where each failure goes
         * @return this builder
         * @throws NullPointerException if handler is null
         */
        public Builder continuePeriodicOnFailure(BiConsumer<? super TimerFuture<?>, ? super Throwable> handler) {
            this.periodicFailureHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * {@link #continuePeriodicOnFailure(BiConsumer)}, reporting each failure to the uncaught-exception handler
         * of the thread that ran the task (by default, the stack trace on standard error).
         *
         * @return this builder
         */
        public Builder continuePeriodicOnFailure() {
            this.periodicFailureHandler = PeriodicTimer::reportToThread;
            return this;
        }

        /**
         * Run tasks on the owner thread itself: no hand-off, for tiny non-blocking tasks only, since a slow task
         * there delays every other timer.
         * @return this builder
         */
        public Builder runTasksOnOwnerThread() {
            this.runOnOwner = true;
            this.executor = null;
            return this;
        }

        /**
         * Creates the owner and worker threads. Default: non-daemon threads named {@code tickwheel-N-owner} and
         * {@code tickwheel-N-worker-M}. The timer creates its owner thread in {@link #build()} and starts it at the
         * first task; it creates workers on demand, one more whenever a hand-off finds every started worker busy,
         * until the pool is full (the JDK's {@link ThreadPoolExecutor} starts one per task below its core size, busy
         * or not: the count of threads may differ, never whether a task waits while a worker could run it). To tell the two apart, the {@link Runnable} handed to the factory names
         * its role in its {@code toString()}: {@code tickwheel-N-owner} for the owner thread (which runs the
         * wheel, never a task unless {@link #runTasksOnOwnerThread()} is set) and {@code tickwheel-N-worker} for a
         * pool worker ({@code tickwheel} being the {@link #threadNamePrefix}). {@link #build()} throws
         * {@link IllegalStateException} if the factory throws, returns null or returns a started thread for the
         * owner; for a worker the same failure completes the future of the task being handed off exceptionally.
         *
         * @param factory the thread factory
         * @return this builder
         */
        public Builder threadFactory(ThreadFactory factory) {
            this.threadFactory = Objects.requireNonNull(factory, "threadFactory");
            return this;
        }

        /**
         * Records how late each run starts, from the first run on, for {@link TimerMetrics#lateness()} (the
         * Micrometer binder's {@code tickwheel.timers.lateness} meters); off by default, as Caffeine's
         * {@code recordStats()} is. Its cost is a clock read and a histogram count per run, on the thread that runs
         * it: in the expiry shot on an Intel Xeon VM (a clock read there costs 32-46 ns), 118-150 ns of the pool's
         * CPU per fire without it against 187-198 with it. {@link WheelTimer#recordLateness(boolean)} switches it
         * at any time.
         *
         * @return this builder
         */
        public Builder recordLateness() {
            this.recordLateness = true;
            return this;
        }

        /**
         * Asks the Linux kernel for a shorter scheduler slice for every thread the timer starts (the owner and the
         * pool's workers, from the default factory or the {@link #threadFactory}), as each starts: {@code
         * sched_setattr} with the thread's policy and nice unchanged and {@code sched_runtime} set to the slice,
         * which Linux 6.12 and later read as a fair task's slice (EEVDF), with no privilege needed. Off by default.
         *
         * <p>For machines whose cores are all busy. There a thread that wakes for a due timer waits out the running
         * thread's protected slice (1.4 ms at 2 CPUs, longer on more) unless the kernel owes it time or it asks for
         * a shorter slice than the running thread's; a shorter slice lets the timer's wake-ups preempt at once.
         * Measured on the README's 2-vCPU machine with two busy processes beside the timer, on JDK 25: 100 and
         * 200 µs brought the lateness p99 from 1.95 to 0.57 and 0.59 ms (the JDK's executor: 0.84). On a quiet
         * machine JDK 25 showed no cost; on JDK 17 (the same call made from a script) 100 µs cost tail (p99.9 1.26
         * against 0.50 ms) and 200 to 300 µs nothing measurable. The README's "which tick, which pool" guide has
         * the figures.
         *
         * <p>It needs JDK 22 or later (the foreign function API, reached by reflection: the library still runs on
         * Java 17), native access enabled for this library ({@code --enable-native-access=dev.tickwheel} on the
         * module path, {@code ALL-UNNAMED} on the class path), and Linux 6.12 or later on x86-64 or AArch64. This
         * method checks all of it at once, on a short-lived probe thread that applies the slice and reads it back,
         * and throws rather than let a timer start without what it asked for. A timer thread whose own request
         * the kernel refuses later runs with the default slice.
         *
         * @param slice from 100 µs to 100 ms, the range in which Linux takes a fair task's slice
         * @return this builder
         * @throws IllegalArgumentException if the slice is outside that range
         * @throws UnsupportedOperationException if this JVM, its flags or the kernel cannot set it (the message says
         *         which)
         */
        public Builder schedulerSlice(java.time.Duration slice) {
            Objects.requireNonNull(slice, "slice");
            long nanos;
            try {
                nanos = slice.toNanos();
            } catch (ArithmeticException e) {
                nanos = Long.MAX_VALUE; // outside the range: named as such below
            }
            this.slice = SchedulerSlice.of(nanos);
            return this;
        }

        /**
         * Whether the default thread factory makes daemon threads. Default false, as the JDK's executors: a
         * {@code main} that schedules a task and returns keeps the JVM alive until the task has run and the timer
         * is shut down. With true, the JVM may exit with timers pending, which then never run.
         * @param daemon whether the threads are daemon threads
         * @return this builder
         */
        public Builder daemon(boolean daemon) {
            this.daemon = daemon;
            return this;
        }

        /**
         * The name prefix of the default thread factory's threads (default {@code tickwheel}).
         * @param prefix the name prefix
         * @return this builder
         */
        public Builder threadNamePrefix(String prefix) {
            this.namePrefix = Objects.requireNonNull(prefix, "prefix");
            return this;
        }

        /**
         * The most timers that may be pending at once; past it {@code schedule} throws
         * {@link RejectedExecutionException} naming the limit. Exact under concurrency. Default: no limit.
         *
         * @param max the limit, at least 1
         * @return this builder
         * @throws IllegalArgumentException if max &lt; 1
         */
        public Builder maxPending(long max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxPending " + max + " must be at least 1");
            }
            this.maxPending = max;
            return this;
        }

        /**
         * The clock (default {@link TimeSource#SYSTEM}).
         * @param source the time source
         * @return this builder
         */
        public Builder timeSource(TimeSource source) {
            this.timeSource = Objects.requireNonNull(source, "timeSource");
            return this;
        }

        /** Test seam: no owner thread; the test steps the owner through {@link OwnerLoop#of(WheelTimer)}. */
        Builder manualDrive() {
            this.manual = true;
            return this;
        }

        /** Test seam: the most commands drained and timers expired per step. */
        Builder ownerBatch(int batch) {
            if (batch < 1 || batch > 1 << 20) {
                throw new IllegalArgumentException("ownerBatch " + batch + " must be at least 1");
            }
            this.batch = batch;
            return this;
        }

        /**
         * Test seam: the command queues' shape, so that a jcstress state can fill them and hold a producer at a
         * spill: the first ring's capacity (a power of two of at least 2, instead of the default), the rings' room
         * (0: from {@link #pooledQueueChunks}; else a power of two of at least the first ring: no spare ring when
         * equal), the overflow's chunk (a power of two in [2, 1024]), and a deliberate flaw (only for the broken
         * variants; see {@link CommandQueue.Flaw}).
         */
        Builder commandQueues(int firstRing, int ringRoom, int overflowChunk, CommandQueue.Flaw flaw) {
            if (Integer.bitCount(firstRing) != 1 || firstRing < 2) {
                throw new IllegalArgumentException("first ring " + firstRing + " is not a power of two of at least 2");
            }
            if (ringRoom != 0 && (Integer.bitCount(ringRoom) != 1 || ringRoom < firstRing)) {
                throw new IllegalArgumentException("rings' room " + ringRoom + " is neither 0 nor a power of two of "
                        + "at least the first ring " + firstRing);
            }
            if (Integer.bitCount(overflowChunk) != 1 || overflowChunk < 2 || overflowChunk > CommandPort.CHUNK) {
                throw new IllegalArgumentException("overflow chunk " + overflowChunk + " is not a power of two in [2, "
                        + CommandPort.CHUNK + "]");
            }
            this.queueShape = new CommandPort.QueueShape(firstRing, ringRoom, overflowChunk, queueShape.chains(),
                    Objects.requireNonNull(flaw, "flaw"));
            return this;
        }

        /**
         * Test seam: whether commands whose timer can lend a field go into a {@link TimerChain} once the rings are
         * full (the default), or into the overflow's chunks as every other command does (for the tests of the
         * overflow itself).
         */
        Builder commandChains(boolean chains) {
            CommandPort.QueueShape q = queueShape;
            this.queueShape = new CommandPort.QueueShape(q.firstRing(), q.ringRoom(), q.overflowChunk(), chains,
                    q.flaw());
            return this;
        }

        /** Test seam: runs at the start of each owner step (failure injection). */
        Builder stepHook(Runnable hook) {
            this.stepHook = hook;
            return this;
        }

        /**
         * @return the timer (its owner thread starts at the first task)
         * @throws IllegalArgumentException if the level bits cannot hold every delay at this tick
         * @throws IllegalStateException    if the thread factory returns null, throws, or returns a thread that cannot
         *                                  be started (one already started); no thread is left running
         */
        public WheelTimer build() {
            return WheelTimer.build(this);
        }
    }
}

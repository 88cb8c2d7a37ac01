package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;

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
 *   the time source ({@link System#nanoTime()} by default). It normally runs within one tick of that (1 ms by
 *   default), plus the owner thread's wake-up latency and the time the worker pool takes to reach it. Delays are
 *   rounded up to whole ticks; {@link ScheduledFuture#getDelay} reports that rounded deadline.</li>
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
 *   time, and ends the periodic ones before it returns: each of their futures then reads cancelled and no periodic
 *   run starts afterwards (one in progress may finish). {@link #shutdownNow()} returns every accepted timer that
 *   had neither started nor been cancelled, exactly once; none of them will then be run by this timer (the caller
 *   may run them). Running tasks on the timer's own pool are interrupted. A {@code schedule} racing a shutdown
 *   either throws {@link RejectedExecutionException} or its timer is accounted for: it runs, is handed back, or
 *   ends cancelled. Nothing accepted is lost.</li>
 *   <li><b>Threads</b>, as the JDK's executor: non-daemon by default, so a {@code main} that schedules a task and
 *   returns still sees it run (shut the timer down to let the JVM exit). No thread starts until the first task;
 *   then the owner thread, and pool workers one per hand-off until the pool is full.</li>
 *   <li><b>Everything else</b> follows {@link java.util.concurrent.ScheduledThreadPoolExecutor}: fixed-rate runs
 *   never overlap and catch up after a late run; an exception from a one-shot task completes its future
 *   exceptionally; an exception from a periodic task ends it with that exception.</li>
 * </ul>
 *
 * <h2>Architecture</h2>
 * Producer threads never touch the wheel. {@code schedule} allocates the timer (the future, which is also the
 * wheel's node: one object per timer) and offers it to a JCTools MPSC start queue; {@code cancel} flips the timer's
 * state with one CAS and offers it to a cancel queue. Neither takes a lock. One owner thread drains both queues
 * in bounded batches, inserts into and unlinks from the {@link TimingWheel}, advances the wheel to the current
 * tick (a bounded advance, so a clump of same-tick timers cannot hold it), and hands the expired timers to the
 * worker pool: by default the timer's own pool, or an {@link Executor} you supply, or (opt-in, for tiny tasks) the
 * owner thread itself. If the executor rejects a timer, its future completes exceptionally with the rejection.
 *
 * <p>When nothing is due the owner parks until the wheel's next event, not every tick, so an idle timer costs
 * next to no CPU. A producer whose deadline precedes the owner's planned wake-up wakes it.
 *
 * <p><b>Blocked workers.</b> If every worker is busy, due tasks wait in the pool's queue in the order the owner
 * handed them out. The owner keeps time regardless (its lag stays 0), but each task starts late by as long as it
 * waits for a worker, without bound if tasks block for good; until it starts, {@code cancel} still wins. Give
 * blocking tasks their own executor or enough workers.
 *
 * <h2>Concurrency</h2>
 * <ul>
 *   <li><b>Fire vs cancel</b>: the timer's state CAS (see {@link ScheduledTimer}). A cancelled timer still in the
 *   wheel is skipped when it expires, and unlinked when the owner drains its cancel command.</li>
 *   <li><b>Lost wake-ups</b>: a Dekker handshake. The owner stores its planned wake-up tick ({@code wakeupTick},
 *   volatile), drains the start queue once more and then loads the queue's producer index before parking; a producer
 *   claims its queue index with an atomic add and then loads {@code wakeupTick}. These are all volatile accesses,
 *   so at least one side sees the other: either the owner finds the index claimed and does not park, or the
 *   producer sees the plan, and if its deadline is earlier it CASes the plan to "awake" and unparks the owner
 *   (only the CAS winner unparks). The owner judges by the index, not the element, because the element is stored
 *   after the index with only a release.</li>
 *   <li><b>Schedule vs shutdown</b>: the same handshake on {@code runState}. The shutdown stores the new state and
 *   then the owner drains; a producer offers and then re-reads the state, and if it changed, revokes its timer by
 *   the NEW &rarr; CANCELLED CAS and throws. If the revoke CAS fails, the owner already took the timer (it ran, or
 *   was handed back), so the producer returns it normally.</li>
 * </ul>
 *
 * <h2>Failure of the owner thread</h2>
 * Tasks never run inside the owner's bookkeeping, so a task's exception cannot reach it. If the owner's own loop
 * throws all the same (a bug, or {@link OutOfMemoryError}), the timer fails loudly rather than going silently
 * dead: it moves to the stopped state, completes every pending future exceptionally with an
 * {@link IllegalStateException} whose cause is the failure, rejects every later {@code schedule} naming that
 * cause, and rethrows the failure to the owner thread's uncaught-exception handler.
 */
public final class WheelTimer extends AbstractExecutorService implements ScheduledExecutorService, AutoCloseable {

    /** The default tick: 1 ms. */
    public static final long DEFAULT_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The smallest tick: 1 µs. Finer ticks only add owner work; no clock is that steady. */
    public static final long MIN_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(1);

    static final long AWAKE = Long.MIN_VALUE;
    /** {@code wakeupTick} before the owner thread is started: the first producer (or shutdown) starts it. */
    static final long UNSTARTED = Long.MIN_VALUE + 1;
    static final long NO_EVENT = Long.MAX_VALUE;
    /**
     * The longest the owner backs off, once yielding has not helped, while a producer sits between its queue index
     * claim and its element store: short, since the owner keeps every other timer waiting meanwhile.
     */
    static final long MID_OFFER_BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    static final int ACTIVE = 0;
    static final int SHUTDOWN = 1;
    static final int STOP = 2;

    /** How long an idle owner may leave cancelled timers in the wheel before a cancel wakes it. */
    static final long REAP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Elements per chunk of the start and cancel queues. */
    static final int CHUNK = 1024;
    /**
     * Chunks each queue allocates up front and recycles by default (8 x 1024 references: 32 KB a queue with
     * compressed references). A backlog that outgrows them makes the producers allocate chunks that become garbage.
     */
    static final int POOLED_CHUNKS = 8;
    /**
     * Commands a queue may gather behind a parked owner before the producer that offers the next one wakes it: one
     * chunk, which leaves the owner six pooled chunks of slack to wake up in before a producer must allocate.
     */
    static final long WAKE_BACKLOG = CHUNK;

    private static final VarHandle WAKEUP_TICK;
    private static final VarHandle RUN_STATE;
    private static final AtomicInteger TIMER_IDS = new AtomicInteger();

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WAKEUP_TICK = lookup.findVarHandle(WheelTimer.class, "wakeupTick", long.class);
            RUN_STATE = lookup.findVarHandle(WheelTimer.class, "runState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // ---- configuration: final, safely published with the timer ----
    private final TimeSource time;
    private final long originNanos;
    private final long tickNanos;
    private final long reapTicks;
    private final int batch;
    private final long maxPending;
    private final Executor executor;
    private final ThreadPoolExecutor ownPool;
    private final Thread owner;
    private final Runnable stepHook;
    /**
     * The own pool's threads, so that close() from one of its tasks does not wait for itself. Added (concurrent
     * set) by whichever thread makes the pool create a worker; read by close().
     */
    private final Set<Thread> poolThreads = ConcurrentHashMap.newKeySet();
    /**
     * The periodic timers not yet ended, so that {@code shutdown()} can end them before it returns, from its own
     * thread. Added by the scheduling thread before its start offer and its re-read of runState; removed by
     * whichever thread ends the timer. A concurrent set: periodic timers are few and long-lived, and this costs the
     * one-shot path nothing.
     */
    private final Set<PeriodicTimer> periodics = ConcurrentHashMap.newKeySet();

    // ---- the queues: MPSC; any thread offers, only the owner (or, once it is gone, the shutdownNow winner) polls ----
    private final MpscUnboundedXaddArrayQueue<ScheduledTimer<?>> starts;
    private final MpscUnboundedXaddArrayQueue<ScheduledTimer<?>> cancels;

    // ---- owner-confined: read and written by the owner thread only (plain) ----
    private final TimingWheel<ScheduledTimer<?>> wheel;
    /** Timers due now, collected during a step and dispatched at its end, outside the wheel's advance. */
    private final ScheduledTimer<?>[] due;
    private int dueCount;
    private long fired;
    private boolean shutdownSeen;
    private boolean reapedLastStep;
    /** Consecutive park plans abandoned because a producer was between its index claim and element store. */
    private int midOfferPlans;
    private final MessagePassingQueue.Consumer<ScheduledTimer<?>> starter = this::ownerStart;
    private final MessagePassingQueue.Consumer<ScheduledTimer<?>> reaper = this::ownerReap;
    private final Consumer<ScheduledTimer<?>> expirer = this::ownerExpire;

    // ---- shared state ----
    /** ACTIVE, SHUTDOWN or STOP; only increases. cas by shutdown callers and the failing owner; lv by everyone. */
    private volatile int runState;
    /**
     * The tick the parked owner plans to wake at, or AWAKE, or UNSTARTED until the owner thread is started. sv by
     * the owner (plan, then AWAKE after waking); cas to AWAKE by the producer that wakes it (or starts it); lv by
     * producers after their offer.
     */
    private volatile long wakeupTick;
    /** The tick at which the owner planned its park. Plain: written by the owner before the sv of wakeupTick. */
    private long parkedAtTick;
    /**
     * The start and cancel queues' consumer indexes when the owner planned its park (before its last drains, so at
     * or behind where it stopped). Plain, as parkedAtTick: a producer that reads a stale one only wakes the owner
     * a little early or late; no wake-up depends on it for correctness (see wakeIfEarlier).
     */
    private long parkedStartsIndex;
    private long parkedCancelsIndex;
    /** Why the owner failed, or null. sv by the owner before it stores STOP; lv by producers. */
    private volatile Throwable failure;
    /** Set (sv) once the owner has exited, after which no thread polls the queues except the shutdownNow winner. */
    private volatile boolean ownerDone;
    private final CountDownLatch ownerExited = new CountDownLatch(1);
    /** The timers the owner collected for shutdownNow; sv before ownerExited counts down. */
    private volatile List<Runnable> handedBack;

    // ---- counters ----
    // schedule and cancel touch no counter of their own: the start and cancel queues' producer indexes (claimed by
    // the offer's atomic add) count every start and cancel command, and the adders below, touched only on rare
    // paths and when a timer runs, correct them (see metrics()). Each is incremented after the offer it corrects.
    /** Start commands that are a periodic timer's next period, not a new timer. */
    private final LongAdder resubmitted = new LongAdder();
    /** Accepted timers then revoked by a racing shutdown: rejected after all. */
    private final LongAdder revokedAccepts = new LongAdder();
    /** Cancel commands that are not a successful cancel from NEW (revocations, outside runs of a linked timer). */
    private final LongAdder nonCancelOffers = new LongAdder();
    /** Successful cancels that sent no cancel command (a periodic timer cancelled while running). */
    private final LongAdder cancelsWithoutOffer = new LongAdder();
    /** Timers ended other than by cancel, when maxPending is unlimited: ran, failed, revoked, handed back. */
    private final LongAdder endedOtherwise = new LongAdder();
    private final LongAdder rejectedCount = new LongAdder();
    /** Pending timers when maxPending is set: cas-reserved on accept so the limit is exact. */
    private final AtomicLong pendingLimited = new AtomicLong();
    /** sv by the owner after each step. */
    private volatile long firedPublished;
    private volatile long lagNanos;

    private WheelTimer(Builder b) {
        this.time = b.timeSource;
        this.originNanos = time.nanoTime();
        this.tickNanos = b.tickNanos;
        this.reapTicks = Math.max(1, REAP_NANOS / tickNanos);
        this.batch = b.batch;
        this.maxPending = b.maxPending;
        this.stepHook = b.stepHook;
        int needed = bitsForKeys(tickNanos);
        int[] bits = b.levelBits != null ? b.levelBits.clone() : defaultLevelBits(needed);
        int total = 0;
        for (int x : bits) {
            total += x;
        }
        if (total < needed) {
            throw new IllegalArgumentException("levelBits sum to " + total + " bits, but a tick of " + tickNanos
                    + " ns needs " + needed + " bits to hold any delay up to Long.MAX_VALUE ns");
        }
        this.wheel = new TimingWheel<>(bits);
        this.due = new ScheduledTimer<?>[3 * batch];
        this.starts = new MpscUnboundedXaddArrayQueue<>(CHUNK, b.pooledChunks);
        this.cancels = new MpscUnboundedXaddArrayQueue<>(CHUNK, b.pooledChunks);

        String name = b.namePrefix + "-" + TIMER_IDS.incrementAndGet();
        ThreadFactory factory = b.threadFactory != null ? b.threadFactory : new NamedThreads(name, b.daemon);
        if (b.runOnOwner) {
            this.executor = null;
            this.ownPool = null;
        } else if (b.executor != null) {
            this.executor = b.executor;
            this.ownPool = null;
        } else {
            ThreadFactory workers = b.threadFactory != null ? b.threadFactory : new NamedThreads(name + "-worker",
                    b.daemon);
            String workerRole = name + "-worker";
            // Workers start on demand, one per hand-off until there are b.workers of them, as in ThreadPoolExecutor.
            ThreadPoolExecutor pool = new ThreadPoolExecutor(b.workers, b.workers, 0L, TimeUnit.MILLISECONDS,
                    new LinkedBlockingQueue<>(), r -> {
                        // A broken factory throws here rather than return null: the pool would queue the task with
                        // no worker to run it. The exception reaches the owner's hand-off, which fails that timer's
                        // future with it.
                        Thread t;
                        try {
                            t = workers.newThread(new Role(workerRole, r));
                        } catch (RuntimeException | Error e) {
                            throw new IllegalStateException("the ThreadFactory threw while creating a worker thread",
                                    e);
                        }
                        if (t == null) {
                            throw new IllegalStateException("the ThreadFactory returned null for a worker thread");
                        }
                        if (t.getState() != Thread.State.NEW) {
                            throw new IllegalStateException("the ThreadFactory returned a worker thread that was"
                                    + " already started (" + t + ")");
                        }
                        poolThreads.add(t);
                        return t;
                    });
            this.executor = pool;
            this.ownPool = pool;
        }
        if (b.manual) {
            this.owner = null;
            this.wakeupTick = AWAKE;
        } else {
            // Created now, so that a bad ThreadFactory fails the build; started by the first schedule (or shutdown),
            // so that a timer that is never used costs no thread and, like the JDK's executor, keeps no JVM alive.
            Thread t;
            Runnable loop = new Role(name + "-owner", this::ownerLoop);
            try {
                t = (b.threadFactory != null ? factory : new NamedThreads(name + "-owner", b.daemon)).newThread(loop);
            } catch (RuntimeException | Error e) {
                if (ownPool != null) {
                    ownPool.shutdownNow();
                }
                throw new IllegalStateException("the ThreadFactory threw while creating the owner thread", e);
            }
            if (t == null || t.getState() != Thread.State.NEW) {
                if (ownPool != null) {
                    ownPool.shutdownNow();
                }
                throw new IllegalStateException(t == null ? "the ThreadFactory returned null for the owner thread"
                        : "the ThreadFactory returned a thread that was already started (" + t + ")");
            }
            this.owner = t;
            this.wakeupTick = UNSTARTED;
        }
    }

    /**
     * Starts the owner thread if nobody has: called by a producer (or shutdown) that finds it UNSTARTED. Only the
     * CAS winner starts it; the thread's start happens-before everything it does, so it sees every earlier offer.
     */
    private void startOwner() {
        if (!WAKEUP_TICK.compareAndSet(this, UNSTARTED, AWAKE)) {
            return;
        }
        try {
            owner.start();
        } catch (RuntimeException | Error e) { // no native thread to be had
            // Fail loudly, as if the owner's loop had failed at once: nothing else will ever poll the queues.
            failOwner(e);
        }
    }

    /**
     * @return a timer with the defaults: 1 ms tick, its own pool of up to max(2, CPUs) non-daemon workers started
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

    // ==========================================================================================================
    // Producers: any thread

    @Override
    public TimerFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(unit, "unit");
        return accept(new ScheduledTimer<Void>(this, command, 0, firstKey(delay, unit)));
    }

    @Override
    public <V> TimerFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        Objects.requireNonNull(callable, "callable");
        Objects.requireNonNull(unit, "unit");
        return accept(new ScheduledTimer<V>(this, callable, ScheduledTimer.KIND_CALLABLE, firstKey(delay, unit)));
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
    public TimerFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
                                                 TimeUnit unit) {
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
        long first = dueNanos(initialDelay, unit);
        long key = initialDelay <= 0 ? first / tickNanos : keyOf(first);
        PeriodicTimer t = new PeriodicTimer(this, command, first, key, fixedRate ? periodNanos : -periodNanos);
        // Registered before accept's offer and its re-read of runState (the schedule-vs-shutdown handshake), so a
        // shutdown either finds it here and ends it, or is seen by accept, which revokes it.
        periodics.add(t);
        try {
            return accept(t);
        } catch (RuntimeException | Error e) {
            periodics.remove(t);
            throw e;
        }
    }

    /** Runs the command at once, on the executor, through the owner thread (it is a timer of delay 0). */
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
        return schedule(java.util.concurrent.Executors.callable(task, result), 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public <T> TimerFuture<T> submit(Callable<T> task) {
        return schedule(task, 0, TimeUnit.NANOSECONDS);
    }

    private <T extends ScheduledTimer<?>> T accept(T t) {
        if (runState != ACTIVE) {
            throw rejected("the timer is shut down");
        }
        if (maxPending != Long.MAX_VALUE) {
            for (;;) {
                long p = pendingLimited.get();
                if (p >= maxPending) {
                    throw rejected("maxPending " + maxPending + " timers are already pending");
                }
                if (pendingLimited.compareAndSet(p, p + 1)) {
                    break;
                }
            }
        }
        long key = t.key; // read before the offer: the owner may rewrite it afterwards
        starts.offer(t); // counts the timer as scheduled (the producer index)
        wakeIfEarlier(key);
        if (runState != ACTIVE && t.revoke()) {
            // A shutdown raced this schedule and nobody took the timer: it is rejected. The cancel command lets
            // the owner unlink it if it already reached the wheel.
            offerRevocation(t);
            revokedAccepts.increment();
            if (maxPending != Long.MAX_VALUE) {
                pendingLimited.decrementAndGet();
            }
            throw rejected("the timer was shut down while scheduling");
        }
        return t;
    }

    private RejectedExecutionException rejected(String why) {
        rejectedCount.increment();
        Throwable f = failure;
        if (f != null) {
            return new RejectedExecutionException("the timer's owner thread failed: " + f, f);
        }
        return new RejectedExecutionException(why);
    }

    /**
     * A timer revoked by a racing shutdown: the owner must unlink it if it reached the wheel, and must not sleep
     * past that, since it may be all that keeps a shut-down owner from terminating (a revoked hour-long timer would
     * otherwise hold termination for its cascade; one of Long.MAX_VALUE, forever). The cancel offer claims its index
     * (atomic add) before the load of the plan in {@link #wakeNow()}: the same Dekker handshake as a start.
     */
    private void offerRevocation(ScheduledTimer<?> t) {
        cancels.offer(t);
        nonCancelOffers.increment();
        wakeNow();
    }

    /** Wakes (or starts) the owner unless it is awake already; only the CAS winner unparks. */
    private void wakeNow() {
        long planned = wakeupTick;
        if (planned == UNSTARTED) {
            startOwner();
        } else if (planned != AWAKE && WAKEUP_TICK.compareAndSet(this, planned, AWAKE)) {
            unparkOwner();
        }
    }

    /** The producer's half of the wake-up handshake, after its offer: wake the owner if it would sleep too long. */
    private void wakeIfEarlier(long key) {
        // The offer claimed its queue index with an atomic add (a volatile read-modify-write) before this volatile
        // load; the owner stores its plan and then loads that index (planPark). The element itself is stored with
        // only a release, so the owner must not judge by the element alone: it checks the index too.
        // The backlog test is a heuristic on top: it keeps a parked owner from letting the queue outgrow its pooled
        // chunks (a producer's index load reads the line its own add just wrote).
        long planned = wakeupTick;
        if (planned != AWAKE) {
            if (planned == UNSTARTED) {
                startOwner();
            } else if ((key < planned || starts.currentProducerIndex() - parkedStartsIndex >= WAKE_BACKLOG)
                    && WAKEUP_TICK.compareAndSet(this, planned, AWAKE)) {
                unparkOwner();
            }
        }
    }

    /**
     * Wakes an owner that plans a long sleep, so a cancelled timer is unlinked within about REAP_NANOS, or that has
     * a chunk of cancel commands waiting.
     */
    private void wakeForCancel() {
        long planned = wakeupTick;
        // After shutdown the unlink may be the last thing that keeps the owner from terminating: wake it at once.
        if (planned != AWAKE && planned != UNSTARTED && (planned - parkedAtTick > reapTicks
                || cancels.currentProducerIndex() - parkedCancelsIndex >= WAKE_BACKLOG || runState != ACTIVE)
                && WAKEUP_TICK.compareAndSet(this, planned, AWAKE)) {
            unparkOwner();
        }
    }

    /** Wakes the owner unconditionally (shutdown), starting it first if nobody has. */
    private void wakeOwnerNow() {
        if (wakeupTick == UNSTARTED) {
            startOwner(); // it starts awake
            return;
        }
        wakeupTick = AWAKE;
        unparkOwner();
    }

    private void unparkOwner() {
        Thread t = owner;
        if (t != null) {
            java.util.concurrent.locks.LockSupport.unpark(t);
        }
    }

    /** Called by a periodic timer's runner after moving it back to NEW: the next period's start command. */
    void resubmit(PeriodicTimer t) {
        long key = t.startKey();
        starts.offer(t);
        resubmitted.increment();
        wakeIfEarlier(key);
        if (runState != ACTIVE && t.revoke()) {
            periodics.remove(t);
            offerRevocation(t);
            releasePending();
        }
    }

    // ---- accounting, from whichever thread ends a timer; each timer ends exactly once ----

    void onEnded(ScheduledTimer<?> t, boolean failed) {
        if (t.isPeriodic()) {
            periodics.remove(t);
        }
        releasePending();
        // Still linked: its public run() was called while it waited in the wheel. Have the owner unlink it now,
        // as for a cancel, rather than keep it until its deadline (which would also delay termination after
        // shutdown()). A racy plain read of the owner's link field: a timer the owner dispatched was unlinked
        // before the hand-off, so it reads false; for an outside run a stale false keeps the old behaviour (it is
        // unlinked at its deadline) and a stale true costs a no-op reap.
        if (t.isInWheel()) {
            cancels.offer(t);
            nonCancelOffers.increment();
            wakeForCancel();
        }
    }

    /**
     * A successful cancel from {@code fromPhase}: NEW (pending), RUNNING (a run claimed or in progress, which
     * unlinked it from the wheel unless it was run from outside) or RETURNED (handed back: already accounted for).
     */
    void onCancelled(ScheduledTimer<?> t, int fromPhase) {
        if (fromPhase == ScheduledTimer.RETURNED) {
            return; // handed back by shutdownNow: already ended for this timer
        }
        if (t.isPeriodic()) {
            periodics.remove(t);
        }
        if (maxPending != Long.MAX_VALUE) {
            pendingLimited.decrementAndGet();
        }
        if (fromPhase == ScheduledTimer.NEW) {
            cancels.offer(t); // counts the cancel (the producer index)
            wakeForCancel();
        } else {
            cancelsWithoutOffer.increment();
            if (t.isInWheel()) { // racy plain read, as in onEnded: a run from outside of a timer still linked
                cancels.offer(t);
                nonCancelOffers.increment();
                wakeForCancel();
            }
        }
    }

    void onPeriodicEndedByShutdown(PeriodicTimer t) {
        periodics.remove(t);
        releasePending();
    }

    /** @return why the owner failed, or null (lv) */
    Throwable ownerFailure() {
        return failure;
    }

    /**
     * shutdown()'s end of the periodic timers, from the calling thread, before it returns: each one still pending,
     * claimed or running moves to CANCELLED, so no run starts after shutdown() returns (one in progress may finish).
     * One pending in the wheel is unlinked by the owner, through a cancel command (not counted as a cancel).
     */
    private void endPeriodicTimers() {
        for (PeriodicTimer t : periodics) {
            int from = t.endByShutdown();
            if (from < 0) {
                continue;
            }
            periodics.remove(t);
            releasePending();
            if (from == ScheduledTimer.NEW || t.isInWheel()) {
                cancels.offer(t);
                nonCancelOffers.increment();
            }
        }
    }

    /** A timer ended other than by cancel (ran, failed, revoked, handed back). */
    private void releasePending() {
        if (maxPending != Long.MAX_VALUE) {
            pendingLimited.decrementAndGet();
        } else {
            endedOtherwise.increment();
        }
    }

    // ==========================================================================================================
    // Time

    long elapsedNanos() {
        return time.nanoTime() - originNanos;
    }

    /** The deadline of a delay from now, in nanoseconds since the origin, saturating at Long.MAX_VALUE. */
    private long dueNanos(long delay, TimeUnit unit) {
        long now = elapsedNanos();
        return delay <= 0 ? now : saturatedAdd(now, unit.toNanos(delay));
    }

    /** A key due now for delay &lt;= 0, else the first tick that starts at or after the deadline. */
    private long firstKey(long delay, TimeUnit unit) {
        return delay <= 0 ? elapsedNanos() / tickNanos : keyOf(dueNanos(delay, unit));
    }

    /** The first tick starting at or after a time since the origin: never early. */
    long keyOf(long nanosSinceOrigin) {
        long k = nanosSinceOrigin / tickNanos;
        return nanosSinceOrigin % tickNanos == 0 ? k : k + 1;
    }

    long nanosUntilTick(long key) {
        long at = key > Long.MAX_VALUE / tickNanos ? Long.MAX_VALUE : key * tickNanos;
        return at - elapsedNanos();
    }

    static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (b < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }

    /** Key bits needed so that every key up to ceil(Long.MAX_VALUE / tick) fits the wheel's window. */
    static int bitsForKeys(long tickNanos) {
        long maxKey = Long.MAX_VALUE / tickNanos + 1;
        return 64 - Long.numberOfLeadingZeros(maxKey);
    }

    private static int[] defaultLevelBits(int needed) {
        int levels = (needed + 5) / 6;
        int[] bits = new int[levels];
        java.util.Arrays.fill(bits, 6);
        bits[levels - 1] = needed - 6 * (levels - 1);
        return bits;
    }

    // ==========================================================================================================
    // The owner thread

    private void ownerLoop() {
        try {
            while (!ownerDone) {
                boolean more = step();
                if (!more && !ownerDone) {
                    park();
                }
            }
        } catch (Throwable e) {
            failOwner(e);
            if (e instanceof Error) {
                throw (Error) e;
            }
            throw new IllegalStateException("the WheelTimer owner thread failed", e);
        }
    }

    /**
     * One iteration of the owner: drain (bounded) the cancel and start queues into the wheel, advance the wheel
     * to the current tick (bounded), and dispatch what expired. Owner thread only.
     *
     * @return whether work is left over (a full batch was drained or expired), so the owner must not park
     */
    boolean step() {
        if (ownerDone) {
            return false;
        }
        int rs = runState;
        if (rs >= STOP) {
            stopNow();
            return false;
        }
        if (rs == SHUTDOWN && !shutdownSeen) {
            shutdownSeen = true; // shutdown() itself ended the periodic timers; their cancel commands unlink them
        }
        if (stepHook != null) {
            stepHook.run();
        }
        long tick = elapsedNanos() / tickNanos;
        int reaped = cancels.drain(reaper, batch);
        int started = starts.drain(starter, batch);
        long target = tick + 1;
        int room = due.length - dueCount;
        if (room > 0) {
            wheel.increaseMinAllowedKey(target, Math.min(batch, room), expirer);
        }
        dispatchDue();
        reapedLastStep = reaped > 0;
        long behind = target - wheel.minAllowedKey();
        lagNanos = behind > 0 ? behind * tickNanos : 0L;
        firedPublished = fired;
        if (ownerDone) {
            return false; // a task run on this thread called shutdownNow
        }
        if (rs == SHUTDOWN && wheel.isEmpty() && starts.isEmpty()) {
            exitOwner(null);
            return false;
        }
        return reaped == batch || started == batch || behind > 0;
    }

    private void ownerStart(ScheduledTimer<?> t) {
        if (t.phase() != ScheduledTimer.NEW) {
            return; // cancelled or revoked before reaching the wheel; already accounted for
        }
        // shutdown() ends periodic timers; after shutdownNow (STOP, which may have landed during this step) they
        // are linked like any other, so that stopNow hands them back.
        if (t.isPeriodic() && runState == SHUTDOWN) {
            if (t.revoke()) {
                periodics.remove(t);
                releasePending();
            }
            return;
        }
        if (t.isInWheel()) {
            wheel.remove(t); // its public run() was called while it waited in the wheel: this is its next period
        }
        long key = t.startKey(); // a periodic's next period: its runner never writes the key the wheel reads
        long min = wheel.minAllowedKey();
        if (key >= min) {
            wheel.add(t, key);
        } else if (dueCount < due.length) {
            due[dueCount++] = t;
        } else {
            // The due buffer is full (a flood of already-due timers): the earliest key the wheel takes is at most
            // the current tick + 1, so the timer still runs at the next step's advance, in key order.
            wheel.add(t, min);
        }
    }

    private void ownerReap(ScheduledTimer<?> t) {
        wheel.remove(t);
    }

    private void ownerExpire(ScheduledTimer<?> t) {
        due[dueCount++] = t; // step() bounds the advance by the room left in the buffer
    }

    private void dispatchDue() {
        for (int i = 0; i < dueCount; i++) {
            ScheduledTimer<?> t = due[i];
            if (t != null && runState >= STOP) {
                return; // shutdownNow: the next step's stopNow hands the rest back (it skips the nulled entries)
            }
            due[i] = null;
            if (t == null || t.phase() != ScheduledTimer.NEW) {
                continue; // cancelled, not yet reaped
            }
            fired++;
            if (executor == null) {
                t.run();
                Thread.interrupted(); // a task's interrupt must not reach the owner's park
            } else {
                try {
                    executor.execute(t);
                } catch (Throwable e) {
                    t.fail(e);
                }
            }
        }
        dueCount = 0;
    }

    /** Plans a park until the next event, re-checks the queues (the Dekker handshake), then parks. */
    private void park() {
        long planned = planPark();
        if (planned == AWAKE) {
            return;
        }
        if (planned == NO_EVENT) {
            java.util.concurrent.locks.LockSupport.park(this);
        } else {
            long nanos = nanosUntilTick(planned);
            if (nanos > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(this, nanos);
            }
        }
        wakeupTick = AWAKE;
        Thread.interrupted(); // shutdownNow signals through runState; a stray interrupt must not spin the park
    }

    /**
     * The owner's decision to park: publishes the planned wake-up tick, then drains what producers offered before
     * they could see it. Owner thread only (a test seam in manual mode).
     *
     * @return the planned tick (NO_EVENT for an indefinite park), or AWAKE if the owner must not park
     */
    long planPark() {
        long tick = elapsedNanos() / tickNanos;
        long planned = wheel.nextEventAtOrBefore(NO_EVENT);
        if (reapedLastStep) {
            planned = Math.min(planned, tick + reapTicks);
        }
        int rs = runState;
        parkedAtTick = tick;
        parkedStartsIndex = starts.currentConsumerIndex();
        parkedCancelsIndex = cancels.currentConsumerIndex();
        wakeupTick = planned; // sv, then the queues' producer indexes (lv, in isEmpty): the Dekker handshake
        int reaped = cancels.drain(reaper, batch);
        int started = starts.drain(starter, batch);
        // A producer may have claimed an index without its element being visible yet (the drain then stops short):
        // isEmpty compares the indexes, so such an offer keeps the owner awake instead of being slept past.
        boolean midOffer = !starts.isEmpty() || !cancels.isEmpty();
        if (dueCount > 0 || reaped == batch || started == batch || midOffer || runState != rs
                || wheel.nextEventAtOrBefore(planned) < planned || planned <= tick
                || (rs == SHUTDOWN && wheel.isEmpty()) // the drain above may have taken the last work: exit
                // A shutdown the steps have not acted on yet: its unpark may be used up already, by a park inside
                // a task on this thread or inside the executor's execute, so the next step must see it now.
                || (rs == SHUTDOWN && !shutdownSeen) || rs >= STOP) {
            wakeupTick = AWAKE;
            if (midOffer && dueCount == 0 && reaped < batch && started < batch) {
                // A producer sits between its index claim and its element store: let it finish. Yield at first;
                // if it stays stuck (descheduled on a busy machine), back off a tick at a time instead of spinning.
                if (++midOfferPlans > 100 && owner != null) {
                    java.util.concurrent.locks.LockSupport.parkNanos(this, midOfferBackoffNanos(tickNanos));
                } else {
                    Thread.yield();
                }
            } else {
                midOfferPlans = 0;
            }
            return AWAKE;
        }
        return planned;
    }

    /**
     * How long the owner backs off while a producer stays stuck between its index claim and its element store: a
     * tick at most, and never more than {@link #MID_OFFER_BACKOFF_NANOS}, since every other timer waits meanwhile
     * (a whole tick would add up to a tick of lateness, a second with a coarse tick).
     */
    static long midOfferBackoffNanos(long tickNanos) {
        return Math.min(tickNanos, MID_OFFER_BACKOFF_NANOS);
    }

    /** shutdownNow's collection: every timer not started nor cancelled, claimed as RETURNED exactly once. */
    private void stopNow() {
        List<Runnable> out = new ArrayList<>();
        handedBack = out; // published first: if anything below throws, what was claimed still reaches the caller
        // poll, not drain: drain stops at a slot whose producer has claimed the index but not yet stored the
        // element, stranding every timer offered after it; poll compares the indexes and waits for that store.
        for (ScheduledTimer<?> t; (t = starts.poll()) != null; ) {
            claim(t, out);
        }
        for (int i = 0; i < dueCount; i++) {
            ScheduledTimer<?> t = due[i];
            due[i] = null;
            if (t != null) {
                claim(t, out);
            }
        }
        dueCount = 0;
        wheel.removeAll(t -> claim(t, out));
        cancels.drain(t -> { });
        if (ownPool != null) {
            for (Runnable r : ownPool.shutdownNow()) {
                if (r instanceof ScheduledTimer) {
                    claim((ScheduledTimer<?>) r, out);
                }
            }
        }
        exitOwner(out);
    }

    private void claim(ScheduledTimer<?> t, List<Runnable> out) {
        if (t.claimReturned()) {
            out.add(t);
            if (t.isPeriodic()) {
                periodics.remove(t);
            }
            releasePending();
        }
    }

    private void exitOwner(List<Runnable> returned) {
        if (returned != null) {
            handedBack = returned;
        }
        try {
            if (ownPool != null) {
                ownPool.shutdown();
            }
        } finally {
            // Whatever the pool's shutdown does, waiters in shutdownNow and awaitTermination are released.
            ownerDone = true;
            ownerExited.countDown();
        }
    }

    /** The owner loop threw: fail loudly, never silently dead. */
    private void failOwner(Throwable e) {
        failure = e;
        advanceRunState(STOP);
        IllegalStateException cause = new IllegalStateException("the WheelTimer owner thread failed", e);
        try {
            for (ScheduledTimer<?> t; (t = starts.poll()) != null; ) {
                t.fail(cause); // poll, not drain: see stopNow
            }
            for (int i = 0; i < dueCount; i++) {
                ScheduledTimer<?> t = due[i];
                due[i] = null;
                if (t != null) {
                    t.fail(cause);
                }
            }
            dueCount = 0;
            wheel.removeAll(t -> t.fail(cause));
            if (ownPool != null) {
                // Hand-offs the pool has not started: they fail too, rather than run after the failure. Running
                // tasks finish; a periodic one then ends failed (PeriodicTimer.run reads the failure).
                List<Runnable> queued = new ArrayList<>();
                ownPool.getQueue().drainTo(queued);
                for (Runnable r : queued) {
                    if (r instanceof ScheduledTimer) {
                        ((ScheduledTimer<?>) r).fail(cause);
                    }
                }
            }
            for (PeriodicTimer t : periodics) {
                t.fail(cause); // pending anywhere else (a user executor's queue): NEW -> FAILED; else a no-op
            }
        } catch (Throwable again) {
            e.addSuppressed(again);
        } finally {
            exitOwner(null); // allocates nothing; shutdownNow answers an empty list when none was published
        }
    }

    private boolean advanceRunState(int target) {
        for (;;) {
            int rs = runState;
            if (rs >= target) {
                return false;
            }
            if (RUN_STATE.compareAndSet(this, rs, target)) {
                return true;
            }
        }
    }

    // ==========================================================================================================
    // Lifecycle

    /**
     * Rejects new timers; one-shot timers already scheduled still run at their time, periodic ones end. Returns at
     * once; use {@link #awaitTermination} to wait.
     */
    @Override
    public void shutdown() {
        advanceRunState(SHUTDOWN);
        if (runState == SHUTDOWN) {
            endPeriodicTimers(); // every caller, so that none returns before they have ended
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
            return new ArrayList<>();
        }
        if (owner == null || Thread.currentThread() == owner) {
            if (!ownerDone) {
                stopNow();
            }
        } else {
            if (executor == null) {
                owner.interrupt(); // a task running on the owner thread
            }
            boolean interrupted = false;
            for (;;) {
                try {
                    ownerExited.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        List<Runnable> out = handedBack;
        if (out == null && failure == null) {
            // The owner exited on its own (an earlier shutdown() completed) before it saw STOP: collect what is
            // left, which the owner no longer touches (its exit happens-before the latch release we waited on).
            stopNow();
            out = handedBack;
        }
        handedBack = null;
        return out == null ? new ArrayList<>() : out;
    }

    @Override
    public boolean isShutdown() {
        return runState != ACTIVE;
    }

    @Override
    public boolean isTerminated() {
        return ownerDone && (ownPool == null || ownPool.isTerminated());
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        long deadline = System.nanoTime() + nanos;
        if (!ownerExited.await(nanos, TimeUnit.NANOSECONDS)) {
            return false;
        }
        if (ownPool != null) {
            // A timeout near Long.MIN_VALUE would wrap the remaining time around to centuries: no wait is no wait.
            return ownPool.awaitTermination(nanos <= 0 ? 0 : deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        }
        return true;
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
        shutdown();
        if (Thread.currentThread() == owner || poolThreads.contains(Thread.currentThread())) {
            return; // a task of this timer: waiting would wait for itself
        }
        boolean interrupted = false;
        while (!isTerminated()) {
            try {
                if (awaitTermination(1, TimeUnit.DAYS)) {
                    break;
                }
            } catch (InterruptedException e) {
                if (!interrupted) {
                    // Nobody receives this list, so end its timers rather than leave their get() waiting forever.
                    for (Runnable r : shutdownNow()) {
                        ((Future<?>) r).cancel(false);
                    }
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return a snapshot of the counters */
    public TimerMetrics metrics() {
        // Read without stopping anything, in an order that can only make pending read high, never low, while
        // timers move: ends before starts (a timer's start offer happens before whatever ends it); the cancel
        // corrections after the cancel index and the start corrections before the start index (each correction is
        // incremented after the offer it corrects, so a correction read first is already in the index read next).
        long cancelled = cancels.currentProducerIndex();
        cancelled += cancelsWithoutOffer.sum() - nonCancelOffers.sum();
        long ended = endedOtherwise.sum();
        long notNew = resubmitted.sum() + revokedAccepts.sum();
        long scheduled = starts.currentProducerIndex() - notNew;
        long pending = maxPending != Long.MAX_VALUE ? pendingLimited.get() : scheduled - cancelled - ended;
        return new TimerMetrics(pending, scheduled, firedPublished, cancelled, rejectedCount.sum(), lagNanos);
    }

    /** @return the tick length in nanoseconds */
    public long tickNanos() {
        return tickNanos;
    }

    @Override
    public String toString() {
        String state = ownerDone ? "terminated" : runState == ACTIVE ? "running" : "shutting down";
        return "WheelTimer[" + state + ", tick=" + tickNanos + "ns, " + metrics() + "]";
    }

    // ==========================================================================================================
    // Test seams (package-private)

    /** Whether a producer has woken the owner since its last {@link #planPark()}. */
    boolean isAwake() {
        return wakeupTick == AWAKE;
    }

    /** The owner's wheel, for tests that inspect it between steps from the stepping thread. */
    TimingWheel<ScheduledTimer<?>> wheel() {
        return wheel;
    }

    // ==========================================================================================================

    /**
     * What a {@link ThreadFactory} is handed to run: the owner loop or a pool worker, named by its
     * {@link #toString()} ({@code tickwheel-N-owner}, {@code tickwheel-N-worker}), so that a user's factory can tell
     * the two apart.
     */
    private static final class Role implements Runnable {
        private final String role;
        private final Runnable body;

        Role(String role, Runnable body) {
            this.role = role;
            this.body = body;
        }

        @Override
        public void run() {
            body.run();
        }

        @Override
        public String toString() {
            return role;
        }
    }

    private static final class NamedThreads implements ThreadFactory {
        private final String prefix;
        private final boolean daemon;
        private final AtomicInteger count = new AtomicInteger();

        NamedThreads(String prefix, boolean daemon) {
            this.prefix = prefix;
            this.daemon = daemon;
        }

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, prefix.endsWith("-owner") ? prefix : prefix + "-" + count.incrementAndGet());
            t.setDaemon(daemon);
            return t;
        }
    }

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
        private ThreadFactory threadFactory;
        private boolean daemon;
        private String namePrefix = "tickwheel";
        private long maxPending = Long.MAX_VALUE;
        private TimeSource timeSource = TimeSource.SYSTEM;
        private boolean manual;
        private int batch = 16_384;
        private int pooledChunks = POOLED_CHUNKS;
        private Runnable stepHook;

        /** The most worker threads the timer's own pool may have. */
        public static final int MAX_WORKER_THREADS = 4096;
        /** The most chunks {@link #pooledQueueChunks} may keep per queue (16 MB a queue). */
        public static final int MAX_POOLED_QUEUE_CHUNKS = 4096;

        private Builder() {
        }

        /**
         * The tick: timers are due at tick boundaries, so a task runs up to one tick after its delay. Default 1 ms.
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
         * The wheel's bits per level (see {@link TimingWheel}). By default levels of 6 bits, as many as the tick
         * needs to hold any delay up to {@code Long.MAX_VALUE} nanoseconds; {@link #build()} rejects fewer bits.
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
         * How many chunks of 1,024 references each of the two command queues (starts and cancels) allocates up
         * front and recycles: 4 KB a chunk with compressed references, so the default of 8 costs 64 KB a timer.
         * While the owner thread is behind (on a busy machine it may wait for a CPU), commands pile up in the
         * queues; beyond the pooled chunks the producers allocate chunks that become garbage (4 bytes a command).
         * Raise it to cut that garbage at very high start/cancel rates: on the machine of the README's benchmarks,
         * 32 brought the allocation per schedule+cancel from 50.2 to 48.1 bytes (the timer is 48) at 1,000 pending
         * timers and from 53.3 to 49.8 at 1,000,000, in one run each.
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
         * first task; it creates workers on demand, one per hand-off until the pool is full, as
         * {@link ThreadPoolExecutor} does. To tell the two apart, the {@link Runnable} handed to the factory names
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

        /** Test seam: no owner thread; the test calls {@link WheelTimer#step()} and {@link #planPark()}. */
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

        /** Test seam: runs at the start of each owner step (failure injection). */
        Builder stepHook(Runnable hook) {
            this.stepHook = hook;
            return this;
        }

        /**
         * @return a started timer
         * @throws IllegalArgumentException if the level bits cannot hold every delay at this tick
         * @throws IllegalStateException    if the thread factory returns null, throws, or returns a thread that cannot
         *                                  be started (one already started); no thread is left running
         */
        public WheelTimer build() {
            return new WheelTimer(this);
        }
    }
}

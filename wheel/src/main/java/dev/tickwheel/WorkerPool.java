package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.jctools.queues.MpmcUnboundedXaddArrayQueue;

/**
 * The timer's own pool, its default: a fixed number of workers, started on demand, that take due timers from one
 * lock-free queue. The owner thread is its only producer; it offers each due timer (no lock, no allocation once the
 * queue's pooled chunks are warm) and, once per batch, wakes at most one parked worker. A worker that takes a timer
 * and sees more waiting wakes the next one, so a burst spreads over the pool without the owner paying a wake-up per
 * timer. A worker that finds the queue empty polls briefly, then parks.
 *
 * <h2>The contract it keeps</h2>
 * A slow or blocked task holds only its worker, never the owner. A task's exception stays in its future (a
 * {@link Throwable} that escapes {@code run()} anyway goes to the worker's uncaught-exception handler, and the
 * worker goes on). Every timer offered is taken by exactly one consumer: a worker, which runs it, or
 * {@link #handBack} (shutdownNow) or {@link #failQueued} (owner failure), which claim it; the timer's own state word
 * then decides whether it runs, is returned or fails. shutdownNow interrupts every worker, as the JDK's pool does.
 *
 * <h2>Waking a parked worker: the handshake</h2>
 * A worker parks only after it has stored {@link #PARKED} in its state (a volatile store) and then found the queue
 * empty (volatile loads of the queue's indexes). The owner, after its offers (each a full-fence XADD on the
 * producer index), issues a full fence and reads the workers' states: if none is {@link #SEARCHING} it moves one
 * from {@link #PARKED} to {@link #ACTIVE} by CAS and unparks it. Both sides store then load, so at least one of them
 * sees the other: a worker that parks has a waker, or it saw the offer and did not park (jcstress: WakeVsPark).
 */
final class WorkerPool extends TaskDispatch {

    /** Polls of an empty queue before a worker parks: a few microseconds, enough to catch a step's next batch. */
    static final int SPINS = 256;
    /** Queue chunk length and how many emptied chunks are kept for reuse (so a steady flow allocates nothing). */
    private static final int CHUNK = 1024;
    private static final int POOLED_CHUNKS = 4;

    /** Worker states. ACTIVE: running a task, or woken and about to look. */
    static final int ACTIVE = 0;
    /** Looking at the queue in its spin: will see any offer without being woken. */
    static final int SEARCHING = 1;
    /** Parked, or about to park: needs a CAS to ACTIVE and an unpark to run again. */
    static final int PARKED = 2;
    /** Exited (shutdown, or an Error escaped its loop): never searching, never woken. */
    static final int EXITED = 3;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Worker.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Due timers handed off and not yet taken. Offered by the owner only; polled by workers and the hand-back. */
    private final MpmcUnboundedXaddArrayQueue<ScheduledTimer<?>> queue =
            new MpmcUnboundedXaddArrayQueue<>(CHUNK, POOLED_CHUNKS);
    /** Makes the workers (checked: throws rather than return null or a started thread). Final. */
    private final ThreadFactory factory;
    /**
     * Slot i holds the i-th worker started. Written by the owner (plain) before it publishes {@link #started}
     * (volatile store); read by other threads only below a {@code started} they read (volatile load).
     */
    private final Worker[] workers;
    /** How many workers were started (their slots are filled). Written by the owner only; sv, read lv. */
    private volatile int started;
    /**
     * Workers started and not yet exited; when it reaches 0 after shutdown the pool is terminated. Incremented by
     * the owner before a start, decremented by each worker as it exits (atomic). Guarded by no lock: see exited().
     */
    private final AtomicInteger live = new AtomicInteger();
    /** No more offers: workers exit once the queue is empty. sv by the owner's exit (or shutdownNow); lv by workers. */
    private volatile boolean shutdown;
    /** shutdownNow: workers run with their interrupt set, as the JDK's pool does, and exit. sv once, lv. */
    private volatile boolean stop;
    /** Counted down when the pool is shut down and every started worker has exited. */
    private final CountDownLatch terminated = new CountDownLatch(1);

    /**
     * @param size    the most workers, positive
     * @param factory the worker factory, checked (see {@link TimerThreads#checkedWorkers})
     */
    WorkerPool(int size, ThreadFactory factory) {
        this.workers = new Worker[size];
        this.factory = factory;
    }

    /** One worker: its thread and its state (see the class comment). */
    static final class Worker implements Runnable {
        private final WorkerPool pool;
        /**
         * The worker's thread. Written (plain) once by the owner before it starts the thread and before it
         * publishes the slot through {@code started} (volatile); read by wakers (unpark), isPoolThread and
         * handBack only below a {@code started} they loaded. Null for a test's detached worker.
         */
        Thread thread;
        /**
         * ACTIVE, SEARCHING, PARKED or EXITED. Written by the worker (volatile, or CAS from PARKED) and by a waker
         * (CAS).
         * A new worker starts SEARCHING (it looks at the queue first), published to it by Thread.start.
         */
        volatile int state = SEARCHING;

        Worker(WorkerPool pool) {
            this.pool = pool;
        }

        @Override
        public void run() {
            pool.work(this);
        }
    }

    // ---- owner side ----

    /**
     * Offers a due timer. As the JDK's fixed pool does, each hand-off starts one more worker until the pool is full
     * (so that as many tasks as workers may block at once). If the first worker cannot be started the timer fails
     * with the cause (it would wait forever otherwise); once one exists, a failed start only leaves the pool smaller
     * until the next hand-off retries. Wakes nobody: the owner calls {@link #afterBatch()} once the batch is offered.
     */
    @Override
    void dispatch(ScheduledTimer<?> t) {
        if (started < workers.length) {
            try {
                startWorker();
            } catch (Throwable e) {
                if (started == 0) {
                    t.fail(e);
                    return;
                }
            }
        }
        queue.offer(t);
    }

    /** Owner, after a batch: unless a worker is searching already, wake a parked one (one per batch). */
    @Override
    void afterBatch() {
        wakeOne();
    }

    private void startWorker() {
        Worker w = new Worker(this);
        Thread t = factory.newThread(w); // checked: throws rather than return null or a started thread
        w.thread = t;
        int n = started;
        workers[n] = w;
        live.incrementAndGet();
        try {
            t.start();
        } catch (Throwable e) {
            workers[n] = null;
            live.decrementAndGet();
            throw e;
        }
        started = n + 1; // publishes the slot
    }

    /**
     * Any thread, after an offer it made or saw: unless a worker is searching already, wakes one parked worker.
     *
     * @return whether a worker is searching or was woken (false: every started worker is busy, or none exists)
     */
    boolean wakeOne() {
        VarHandle.fullFence(); // the offers before, then the states after: see the handshake in the class comment
        int n = started;
        Worker[] ws = workers;
        for (int i = 0; i < n; i++) {
            if (ws[i].state == SEARCHING) {
                return true;
            }
        }
        for (int i = 0; i < n; i++) {
            Worker w = ws[i];
            if (w.state == PARKED && STATE.compareAndSet(w, PARKED, ACTIVE)) {
                LockSupport.unpark(w.thread);
                return true;
            }
        }
        return false;
    }

    // ---- worker side ----

    private void work(Worker w) {
        try {
            for (ScheduledTimer<?> t; (t = take(w)) != null; ) {
                runTask(t);
            }
        } finally {
            w.state = EXITED; // a worker that died must not pass for a searching one in wakeOne
            exited();
        }
    }

    /** @return the next timer to run, or null once the pool is shut down and the queue is empty */
    ScheduledTimer<?> take(Worker w) {
        int spins = 0;
        for (;;) {
            ScheduledTimer<?> t = queue.poll();
            if (t != null) {
                if (w.state != ACTIVE) {
                    w.state = ACTIVE;
                }
                if (!queue.isEmpty()) {
                    wakeOne(); // a burst: pass it on, so the owner woke one worker, not one per timer
                }
                return t;
            }
            if (shutdown && queue.isEmpty()) {
                return null; // shutdown is stored after the owner's last offer, so empty now means empty for good
            }
            if (spins < SPINS) {
                if (spins++ == 0) {
                    w.state = SEARCHING;
                }
                Thread.onSpinWait();
                continue;
            }
            spins = 0;
            if (awaitWork(w)) {
                continue;
            }
        }
    }

    /**
     * The park: store PARKED, re-check the queue and the shutdown flag, park until a waker moves the state to
     * ACTIVE. Package-private so that the jcstress test can race its first half against {@link #wakeOne()}.
     *
     * @return true (the caller looks again)
     */
    boolean awaitWork(Worker w) {
        if (!announcePark(w)) {
            return true;
        }
        while (w.state == PARKED) {
            LockSupport.park(this);
            if (Thread.interrupted() && stop) {
                Thread.currentThread().interrupt(); // shutdownNow: keep it; the loop above sees stop and the empty queue
                STATE.compareAndSet(w, PARKED, ACTIVE);
            }
        }
        return true;
    }

    /**
     * The worker's half of the handshake: PARKED, then a look at the queue and the shutdown flag.
     *
     * @return whether it may park (false: it saw work or shutdown, or was woken meanwhile, and is not PARKED)
     */
    boolean announcePark(Worker w) {
        w.state = PARKED; // volatile store, then volatile loads of the queue's indexes: the Dekker pair
        if (!queue.isEmpty() || shutdown) {
            STATE.compareAndSet(w, PARKED, ACTIVE); // fails only if a waker already did it
            return false;
        }
        return true;
    }

    /** As the JDK's pool: a stopping pool runs a task with its thread interrupted, a running one without. */
    private void runTask(ScheduledTimer<?> t) {
        Thread me = Thread.currentThread();
        if (stop) {
            if (!me.isInterrupted()) {
                me.interrupt();
            }
        } else if (Thread.interrupted() && stop) {
            // shutdownNow set stop and interrupted this worker between the read above and the clear: keep it, as
            // the JDK's pool re-checks here (the interrupt happens-before its detection, so stop reads true)
            me.interrupt();
        }
        try {
            t.run();
        } catch (Throwable e) {
            // run() keeps a task's exception in its future; what escapes anyway must not kill the worker
            Thread.UncaughtExceptionHandler h = me.getUncaughtExceptionHandler();
            if (h != null) {
                try {
                    h.uncaughtException(me, e);
                } catch (Throwable ignored) {
                    // a failing handler must not kill the worker either
                }
            }
        }
    }

    private void exited() {
        if (live.decrementAndGet() == 0 && shutdown) {
            terminated.countDown();
        }
    }

    // ---- lifecycle ----

    @Override
    boolean isPoolThread(Thread t) {
        int n = started;
        for (int i = 0; i < n; i++) {
            if (workers[i].thread == t) {
                return true;
            }
        }
        return false;
    }

    /** The owner exits (or, at shutdownNow, the collector): no more offers; workers finish the queue and exit. */
    @Override
    void shutdown() {
        shutdown = true;
        int n = started;
        for (int i = 0; i < n; i++) {
            Worker w = workers[i];
            if (STATE.compareAndSet(w, PARKED, ACTIVE)) {
                LockSupport.unpark(w.thread);
            }
        }
        if (live.get() == 0) {
            terminated.countDown(); // no worker left to count it down (or none ever started)
        }
    }

    /** shutdownNow: claim what no worker has taken, interrupt every worker (running tasks see it), let them exit. */
    @Override
    void handBack(Consumer<ScheduledTimer<?>> claim) {
        stop = true;
        shutdown = true;
        for (ScheduledTimer<?> t; (t = queue.poll()) != null; ) {
            claim.accept(t);
        }
        int n = started;
        for (int i = 0; i < n; i++) {
            Thread t = workers[i].thread;
            try {
                if (t != null) {
                    t.interrupt();
                }
            } catch (SecurityException ignored) {
                // as the JDK's pool: a worker we may not interrupt finishes its task uninterrupted
            }
        }
        shutdown();
    }

    @Override
    void failQueued(Throwable cause) {
        for (ScheduledTimer<?> t; (t = queue.poll()) != null; ) {
            t.fail(cause);
        }
    }

    @Override
    boolean isTerminated() {
        return terminated.getCount() == 0;
    }

    @Override
    boolean awaitTermination(long nanos) throws InterruptedException {
        return terminated.await(nanos, TimeUnit.NANOSECONDS);
    }

    // ---- test seams ----

    /** Offers without starting or waking anyone, as the first half of a dispatch (jcstress). */
    void enqueue(ScheduledTimer<?> t) {
        queue.offer(t);
    }

    /** A worker with no thread, whose steps a test runs on its own threads (jcstress); unparking it is a no-op. */
    Worker detachedWorker() {
        return new Worker(this);
    }

    /** Registers a detached worker as started, so {@link #wakeOne()} sees it (jcstress; before the race). */
    void register(Worker w) {
        int n = started;
        workers[n] = w;
        started = n + 1;
    }

    /** @return the next queued timer, or null: a worker's poll (jcstress) */
    ScheduledTimer<?> poll() {
        return queue.poll();
    }
}

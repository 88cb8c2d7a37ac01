package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The timer's own pool, its default: a fixed number of workers, started on demand, taking handed-off timers from one
 * {@link HandOffQueue}. Two kinds of producer feed it: the owner thread, which hands off each step's due timers in
 * batches of up to 64, as one chain (one atomic swap, one release store, at most one wake-up), and any thread that
 * submits work due now ({@code execute}, {@code submit}, a delay of zero or less), which pushes its timer here
 * directly, never through the owner. The owner's side of it (each step's chain, and the watchdog) is
 * {@link PoolOwnerSide}; the standby for the next due timer is {@link StandbySlot}; the batches workers hold, the
 * steals from them and the hand-back's look at them are {@link HeldBatches}; the idle workers (the one spinner, the
 * stack of parked workers, the awake count and its cap) and the wake-up handshake are {@link IdleWorkers}; each
 * worker's slot for the one task its running task submitted (a chain's next step, run next by the same worker) is
 * {@link ContinuationSlots}; this class is the workers' take-and-run loop, the producers' push, a worker's start, and
 * the lifecycle.
 *
 * <h2>The contract it keeps</h2>
 * A slow or blocked task holds only its worker, never the owner, and never the timers queued behind it or left in
 * its batch: a worker that takes a timer and leaves others queued or in the batch it holds recruits another worker
 * unless one is already looking, and that worker takes what is queued or steals from the batch (past the awake cap,
 * the owner's watchdog adds one when nothing moves). A task's exception
 * stays in its future (a {@link Throwable} that escapes {@code run()} anyway goes to the worker's
 * uncaught-exception handler, and the worker goes on). Every timer pushed is taken by exactly one consumer (a batch's timers
 * each by exactly one claim, through the batch's claim word: {@link HandOffBatch}): a worker, which runs it, or
 * {@link #handBack} (shutdownNow) or {@link #failQueued} (owner failure), which claim it, queued or left in a held
 * batch; the
 * timer's own state word then decides whether it runs, is returned or fails. A timer in a worker's continuation
 * slot is taken the same way, by exactly one CAS: its worker's, the watchdog's move, or the hand-back's. While a timer is queued here only the
 * pool may claim its run (see {@code ScheduledTimer.claimRun}): the queue owns the timer's link until it is taken.
 * That one taker is load-bearing since session 41: the worker that took a timer stores its thread into the timer
 * before its one claim CAS (DISPATCHED &rarr; RUNNING, {@code ScheduledTimer.claimIntoRun}), which is safe only
 * because no other run, hand-back or failure can reach that timer meanwhile; only a cancel can.
 * shutdownNow interrupts every worker, as the JDK's pool does.
 *
 * <h2>One worker stands by for the next due timer</h2>
 * The first worker to go idle while none stands by parks in the {@link StandbySlot} instead of on the idle stack,
 * until the tick of the owner's next due timer, and steps the owner's loop itself at that tick: a timer that fires
 * while the pool is idle waits for one thread's wake-up, not two in turn. A waker pops the idle stack first, then
 * takes the standby; once the standby's tick has come (it is then waiting for a CPU), it starts a new worker, if the
 * pool has room, before it takes the standby. The slot's handshakes and costs are in its class comment.
 *
 * <h2>Costs (the README's cost model counts them)</h2>
 * A hand-off of k due timers by the owner: what its side costs ({@link PoolOwnerSide}: k plain reference stores, one
 * getAndSet of the queue's tail, one release store), then volatile loads of {@code spinning} and {@code idle}
 * ({@link IdleWorkers}), and at most one CAS + unpark.
 * A task due now: the same with k = 1, plus the counters' add. A take of a single timer: one CAS and one release
 * store on the consumers' turn, an opaque store of the count of nodes handed out, and the loads of the recruit check.
 * A batch of k: one such turn for the whole batch (plus a release store of the head, two when it moves off the stub
 * first, and a getAndSet of the tail to push the stub when the batch is the last node), a release store arming its
 * claim word and one publishing it as the worker's; then per timer one CAS on the batch's claim word (a line no
 * other taker writes unless it steals) and the recruit check's loads; once per group of eight, the next seven timers'
 * state words loaded together; and one CAS to give the batch back. A steal: a volatile load of each other worker's
 * slot once per look (a look comes once per wake-up or empty queue, never in a loop), and for a half of h timers h/2
 * plain reference copies into the thief's own batch, one CAS on the victim's claim word and two release stores.
 */
final class WorkerPool extends TaskDispatch {

    /** Worker states. ACTIVE: running a task, taking, or spinning. */
    static final int ACTIVE = 0;
    /** In the {@link StandbySlot}, parked until the next due tick or about to: a waker takes it, or the tick. */
    static final int STANDBY = 1;
    /** On the idle stack, parked or about to: needs a waker (which pops it and stores ACTIVE) to run again. */
    static final int PARKED = 2;
    /** Exited (shutdown, or an Error escaped its loop): never woken. */
    static final int EXITED = 3;

    /** The worker the current thread is (set by each worker for its own thread), else null. */
    private static final ThreadLocal<Worker> CURRENT = new ThreadLocal<>();

    private static final VarHandle STARTING;
    private static final VarHandle TASK_SEQ;
    private static final VarHandle ENDED;
    private static final VarHandle SUBMITTED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STARTING = lookup.findVarHandle(WorkerPool.class, "starting", int.class);
            TASK_SEQ = lookup.findVarHandle(WorkerFields.class, "taskSeq", int.class);
            ENDED = lookup.findVarHandle(WorkerFields.class, "ended", long.class);
            SUBMITTED = lookup.findVarHandle(WorkerFields.class, "submitted", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Timers handed off and not yet taken. Final. */
    final HandOffQueue queue = new HandOffQueue();
    /** The workers' continuation slots: work due now from a task, kept for its own worker (see its class). Final. */
    final ContinuationSlots slots = new ContinuationSlots(this);
    /** Makes the workers (checked: throws rather than return null or a started thread). Final. */
    private final ThreadFactory factory;
    /**
     * Slot i holds the i-th worker started. Written (plain) by the thread that starts it, under {@link #starting},
     * before it publishes {@link #started} (volatile store) and before the worker's thread starts; read by other
     * threads only below a {@code started} they loaded, or through the idle stack (whose CAS the worker made after
     * its thread started).
     */
    private final Worker[] workers;
    /** How many workers were started (their slots are filled). sv by the starter, under {@link #starting}; lv. */
    private volatile int started;
    /** 1 while a thread is starting a worker: cas 0 -&gt; 1 to start one, sv 0 after. Starts are rare. */
    private volatile int starting;
    /**
     * Wakes the owner thread (so that its watchdog runs), for a task due now whose wake-up the cap held back. Set by
     * the timer once, before the timer is published; null for a test's pool. Plain: published with the timer.
     */
    Runnable ownerNudge;
    /** The batches workers hold: the steals, and the hand-back's look at them ({@link HeldBatches}). Final. */
    final HeldBatches held = new HeldBatches(this);
    /** The standby: one idle worker parked until the owner's next due tick (see its class comment). Final. */
    final StandbySlot standbySlot = new StandbySlot(this);
    /**
     * The owner's side: its step chain and its watchdog ({@link PoolOwnerSide}), whose fields the step token's holder
     * writes plain (the owner, or a standby worker stepping for it). In an object of their own, padded, because the
     * chain is written once per due timer: beside the pool's fields, which every take and push reads, they made each
     * take miss on a line the owner had just written. Final.
     */
    private final PoolOwnerSide own = new PoolOwnerSide(this);
    /**
     * The idle workers: the spinner, the stack of parked workers, the awake count and its cap, and the wake-up
     * handshake (see its class comment). Made in the constructor, after the worker slots and the standby slot. Final.
     */
    final IdleWorkers idleWorkers;
    /**
     * Workers started and not yet exited; when it reaches 0 after shutdown the pool is terminated. Incremented
     * before a start, decremented by each worker as it exits (atomic).
     */
    private final AtomicInteger live = new AtomicInteger();
    /** No more hand-offs from the owner: workers exit once the queue is empty. sv once; lv by workers. */
    private volatile boolean shutdown;
    /** shutdownNow: workers run with their interrupt set, as the JDK's pool does, and exit. sv once, lv. */
    private volatile boolean stop;
    /** Counted down when the pool is shut down and every started worker has exited. */
    private final CountDownLatch terminated = new CountDownLatch(1);

    /** Chains the owner pushed (metrics): added once per step that hands off, by the owner. */
    private final LongAdder batches = new LongAdder();
    /**
     * Wake-ups (metrics): a parked worker unparked by a signal (added by the waker), and the standby's timed wake-up
     * or its unpark to re-arm ({@link #countWakeup}); on the wake-up paths only.
     */
    private final LongAdder unparks = new LongAdder();

    /**
     * @param size    the most workers, positive
     * @param factory the worker factory, checked (see {@link TimerThreads#checkedWorkers})
     */
    WorkerPool(int size, ThreadFactory factory) {
        this(size, factory, Math.max(1, Runtime.getRuntime().availableProcessors() - 1));
    }

    /** @param awakeCap see {@link IdleWorkers#awakeCap}; at least 1 */
    WorkerPool(int size, ThreadFactory factory, int awakeCap) {
        this.workers = new Worker[size];
        this.factory = factory;
        this.idleWorkers = new IdleWorkers(this, workers, Math.max(1, awakeCap));
    }

    /** A worker's fields (see {@link Worker}, which pads after them). */
    abstract static class WorkerFields extends BatchHolder {
        final WorkerPool pool;
        /** Its slot in the pool's array, + 1 (the idle stack's name for it). Final. */
        final int id;
        /**
         * The worker's thread. Written (plain) once by its starter before the thread starts and before the slot is
         * published; read by wakers (unpark), isPoolThread and handBack. Null for a test's detached worker.
         */
        Thread thread;
        /**
         * ACTIVE, PARKED or EXITED. sv by the worker (PARKED before it pushes itself, EXITED as it leaves) and by the
         * waker that popped it (ACTIVE, before the unpark); lv by the worker's park loop.
         */
        volatile int state = ACTIVE;
        /** The id of the worker below it on the idle stack (0: none). Plain: written before the push's CAS. */
        int idleNext;
        /**
         * The worker's runs, counted twice each: odd while it is inside a task, even between tasks, so that two looks
         * that read the same odd value saw one task. Written by the worker at each task's start and end (opaque
         * stores of its plain value + 1: its own line, one writer, no ordering needed); read by the owner's watchdog
         * only (opaque), which takes a stale value for a moment's hint.
         */
        int taskSeq;
        /**
         * The last due tick this worker woke for as the standby (its own, plain): it does not stand by for the same
         * tick twice, but waits for the next plan.
         */
        long servedTick = StandbySlot.NO_READY;
        /**
         * The worker's continuation slot ({@link ContinuationSlots}): a timer due now that one of its tasks submitted,
         * DISPATCHED, or null. Made non-null only by the worker (a volatile store, inside a task); emptied by one CAS
         * to null by its worker after the task, the owner's watchdog, {@code get()} on it, or the hand-back.
         */
        ScheduledTimer<?> next;
        /**
         * One-shot timers this worker ran to their end, counted here instead of in the timer's shared adder (see
         * {@code CommandPort.onEndedInPool}). Written by the worker only (a release store after the run: the end it
         * counts comes before it); read by metrics (acquire), which sums every started worker's. A worker's slot is
         * never reused, so a worker that exited keeps its count.
         */
        long ended;
        /**
         * Timers due now that this worker's tasks submitted, counted here instead of in the timer's shared adder
         * ({@code TimerCounters.submittedNow}): written by the worker only, a release store before the fill or push
         * that hands the timer on (so any thread that sees the timer's end, through the worker that ran it, sees this
         * count); read by metrics (acquire), which sums every worker's.
         */
        long submitted;

        WorkerFields(WorkerPool pool, int id) {
            this.pool = pool;
            this.id = id;
        }
    }

    /**
     * One worker: its thread, its state, its link in the idle stack and the batch it holds. Padded on both sides
     * ({@link BatchHolder}'s padding before the fields, this class's after them): a worker writes its own fields on
     * every run ({@code taskSeq}, {@code ended}, {@code left}), and workers are made one after another, so unpadded
     * two workers' fields shared a line that both wrote per timer ({@code PoolOwnerSideLayoutTest}).
     */
    static final class Worker extends WorkerFields implements Runnable {
        long q00, q01, q02, q03, q04, q05, q06, q07;
        long q10, q11, q12, q13, q14, q15, q16, q17;

        Worker(WorkerPool pool, int id) {
            super(pool, id);
        }

        /**
         * @return the worker's run count ({@link #taskSeq}: odd inside a task; opaque, a hint for the owner's
         *         watchdog)
         */
        int taskSeqHint() {
            return (int) TASK_SEQ.getOpaque(this);
        }

        @Override
        public void run() {
            pool.work(this);
        }
    }

    // ---- producers: the owner's batch, and work due now ----

    /**
     * Owner: adds a due timer to this step's batch (plain stores); {@link #afterBatch} hands the step's chain off.
     */
    @Override
    void dispatch(ScheduledTimer<?> t) {
        own.add(t);
    }

    /**
     * Owner, after a step's hand-offs: the whole chain in one push, then at most one wake-up; none if
     * {@code stopping} (shutdownNow has begun: its hand-back takes the chain, and no worker should start on it).
     */
    @Override
    void afterBatch(boolean stopping) {
        afterBatch(stopping, false);
    }

    /**
     * As {@link #afterBatch(boolean)}; a chain of one pushed by the standby's own step ({@code selfTaking}) wakes
     * nobody: the standby takes it next.
     */
    @Override
    void afterBatch(boolean stopping, boolean selfTaking) {
        int pushed = own.pushStep();
        if (pushed > 0) {
            if (!stopping && !(selfTaking && pushed == 1)) {
                idleWorkers.signal(idleWorkers.awakeCap);
            }
            batches.increment();
        }
    }

    /** The step token's holder, as it plans a park: see {@link StandbySlot#readyAt}. */
    @Override
    boolean readyAt(long tick, boolean byStandby) {
        return standbySlot.readyAt(tick, byStandby);
    }

    @Override
    boolean takesWorkDueNow() {
        return true;
    }

    /**
     * Any thread: a timer due now (already DISPATCHED), pushed straight to the workers. From a thread outside the
     * pool, with the capped signal; if the cap held the wake-up back (the awake workers may all be blocked), the
     * owner is nudged awake so that its watchdog looks at the queue within {@link PoolOwnerSide#STALL_NANOS}. From
     * one of the pool's own tasks, uncapped (see below).
     */
    @Override
    void submitNow(ScheduledTimer<?> t, LongAdder countFromOutside) {
        Worker me = CURRENT.get();
        if (me != null && me.pool == this) {
            SUBMITTED.setRelease(me, me.submitted + 1); // before the fill or push that hands it on
            // From one of this pool's own tasks: kept in the worker's slot for it to run next when nothing waits
            // before it (see ContinuationSlots); else pushed, with an uncapped signal, as the JDK's pool gives a
            // submitted task an idle thread (the submitting task may wait for it). If no worker could be had
            // (another thread was starting one, whose worker may take other work first), the owner's watchdog looks.
            if (slots.fill(me, t)) {
                return;
            }
            queue.push(t);
            if (!idleWorkers.signal()) {
                nudgeOwner();
            }
        } else {
            if (countFromOutside != null) {
                countFromOutside.increment();
            }
            queue.push(t);
            if (!idleWorkers.signal(idleWorkers.awakeCap)) {
                nudgeOwner();
            }
        }
    }

    /**
     * {@code get()} on {@code t}, not done, about to block: if it waits in the calling worker's own slot, it is moved
     * to the queue with a wake-up ({@link ContinuationSlots#beforeAwait}).
     */
    @Override
    void beforeAwait(ScheduledTimer<?> t) {
        Worker me = CURRENT.get();
        if (me != null && me.pool == this) {
            slots.beforeAwait(me, t);
        }
    }

    /**
     * A worker filled its slot: have the owner's watchdog look within a stall, whether or not a worker could be
     * added (the watchdog moves a stalled worker's continuation to the queue). See {@link ContinuationSlots}.
     */
    void nudgeOwnerForSlot() {
        Runnable nudge = ownerNudge;
        if (nudge != null) {
            nudge.run();
        }
    }

    /** A continuation was moved from a slot to the queue: wake a worker for it, uncapped, or have the owner look. */
    void wakeForMoved() {
        if (!idleWorkers.signal()) {
            nudgeOwner();
        }
    }

    /**
     * The cap held a wake-up back: if the pool could still add a worker, have the owner's watchdog look. The push
     * came first (an atomic swap of the queue's tail), then this reads the owner's plan (in the nudge): the Dekker
     * pair with the owner, which publishes its plan, then looks at the queue ({@link #backlogToWatch}). Either the
     * nudge finds the plan (and wakes the owner, unless that plan ends within the stall: it then wakes by itself; see
     * CommandPort.nudgeForWatch), or the owner sees the push, steps again, and from then on parks at most a tick or
     * {@link PoolOwnerSide#STALL_NANOS} (the longer) between its watchdog's looks; the first look only notes the
     * queue's count of timers handed out, so a worker is added one stall after it at the soonest. jcstress:
     * CappedPushVsOwnerPark.
     */
    private void nudgeOwner() {
        Runnable nudge = ownerNudge;
        if (nudge != null && canAddWorker()) {
            nudge.run();
        }
    }

    /** Whether a worker is parked, stands by, or is still to start: one the watchdog could add (a hint). */
    boolean canAddWorker() {
        return idleWorkers.anyParked() || standbySlot.occupied() || started < workers.length;
    }

    @Override
    boolean backlogToWatch() {
        return slots.hint() || ((!queue.isEmpty() || queue.heldHint()) && canAddWorker());
    }

    /**
     * Owner, once a step: the watchdog's look at the slots ({@link ContinuationSlots#watch}: what it moves is queued
     * by the time the next look comes), then at the queue and the held batches ({@link PoolOwnerSide#watch}).
     */
    @Override
    boolean watch(long nowNanos) {
        boolean slotted = slots.watch(nowNanos);
        return own.watch(nowNanos) | slotted;
    }

    @Override
    long stallNanos() {
        return PoolOwnerSide.STALL_NANOS;
    }

    /**
     * Starts one more worker ({@link IdleWorkers#signal}, when no worker is parked or standing by) unless another
     * thread is starting one or the pool is full or shut down. If no worker could ever be started, what is queued
     * fails with the cause (it would wait forever otherwise); once one exists, a failed start only leaves the pool
     * smaller until the next hand-off that finds every worker busy.
     *
     * @return whether this call started a worker (false if another thread is starting one: its worker looks at the
     *         queue first thing, but may take other work first and then block in it)
     */
    boolean tryStartWorker() {
        if (starting != 0 || !STARTING.compareAndSet(this, 0, 1)) {
            return false;
        }
        boolean startedOne = false;
        Throwable failure = null;
        try {
            int n = started;
            if (n < workers.length) {
                // Counted live before the look at shutdown: the store-load pair with shutdown(), which stores the
                // flag and then reads live. Either shutdown() sees this worker coming (and leaves the count-down to
                // it), or this sees shutdown and starts nothing; never termination with a worker still to start.
                live.incrementAndGet();
                if (shutdown) {
                    workerGone();
                } else {
                    idleWorkers.addAwake(1); // a new worker starts awake, looking at the queue
                    try {
                        startWorker(n);
                        startedOne = true;
                    } catch (Throwable e) {
                        idleWorkers.addAwake(-1);
                        workerGone();
                        throw e;
                    }
                }
            }
        } catch (Throwable e) {
            failure = e;
        } finally {
            starting = 0;
        }
        if (failure != null && started == 0) {
            failQueued(failure);
        }
        return startedOne;
    }

    /** Under {@link #starting}, already counted in {@link #live}. */
    private void startWorker(int n) {
        Worker w = new Worker(this, n + 1);
        Thread t = factory.newThread(w); // checked: throws rather than return null or a started thread
        w.thread = t;
        workers[n] = w; // before the start: the worker finds its own slot (isPoolThread) from its first task on
        try {
            t.start();
        } catch (Throwable e) {
            workers[n] = null;
            throw e;
        }
        started = n + 1; // publishes the slot to other threads
    }

    // ---- worker side ----

    private void work(Worker w) {
        CURRENT.set(w);
        try {
            while (runSome(w)) {
                // each call returns after RUNS_PER_CALL runs: see runSome
            }
        } finally {
            try {
                slots.exit(w); // an Error out of the loop between a fill and its take: the continuation is queued
            } finally {
                w.state = EXITED;
                standbySlot.vacate(w); // an Error out of its standby: no waker takes a dead worker
                idleWorkers.addAwake(-1);
                workerGone();
            }
        }
    }

    /**
     * Runs in one call of {@link #runSome}. The worker's loop is that method, entered again every so many runs,
     * rather than one loop that never returns: compiled code replaces a running loop only by on-stack replacement,
     * and once the JIT throws that code away (for example when a path is first taken late), the loop runs in the
     * interpreter until a new replacement is compiled, each run crossing into compiled code through adapters and
     * running its VarHandle accesses interpreted (in one profiled expiry shot a worker's samples sat in those adapters
     * and the pool spent 544 ns a fire against about 200). A method that returns is entered again in its recompiled
     * form, whatever becomes of on-stack replacement.
     */
    static final int RUNS_PER_CALL = 256;

    /**
     * Takes and runs up to {@link #RUNS_PER_CALL} timers: the continuation the last task left in the worker's slot
     * first, else one from the queue or the held batches.
     *
     * @return false once the pool is shut down and the queue is empty (the worker exits)
     */
    private boolean runSome(Worker w) {
        for (int i = 0; i < RUNS_PER_CALL; i++) {
            ScheduledTimer<?> t = slots.take(w);
            if (t == null && (t = take(w)) == null) {
                return false;
            }
            int seq = w.taskSeq;
            TASK_SEQ.setOpaque(w, seq + 1); // odd: in a task
            if (runTask(t)) {
                ENDED.setRelease(w, w.ended + 1);
            }
            TASK_SEQ.setOpaque(w, seq + 2);
        }
        return true;
    }

    /**
     * @return the next timer to run, or null once the pool is shut down, the queue is empty and no batch held by a
     *         worker has timers left
     */
    ScheduledTimer<?> take(Worker w) {
        for (int retries = 0; ; ) {
            TimingWheel.Node n = queue.poll(w);
            if (n == HandOffQueue.RETRY) {
                // Another worker holds the turn for a few instructions, or a producer is mid-push: look again.
                if ((++retries & 63) == 0) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
                continue;
            }
            if (n == null) {
                retries = 0;
                n = held.steal(w);
            }
            if (n != null) {
                recruit(w);
                return (ScheduledTimer<?>) n;
            }
            if (shutdown && queue.isEmpty()) {
                // No owner hand-off comes after shutdown; a late direct push is revoked by its producer. Before the
                // worker exits, what other workers hold must be stolen or be theirs to run: wait out a steal in
                // flight (its half is published once it ends), then look again if any worker holds timers left.
                queue.awaitSteals();
                if (!held.anyLeftAtExit()) {
                    return null;
                }
                continue;
            }
            if (idleWorkers.spin() || shutdown) {
                continue;
            }
            // One more look at the holders after a spin that saw nothing: the spinner watched the queue only, and a
            // worker that left timers in its batch counted on the spinner when it did not wake anyone.
            n = held.steal(w);
            if (n != null) {
                recruit(w);
                return (ScheduledTimer<?>) n;
            }
            if (!standbySlot.standBy(w)) {
                idleWorkers.park(w);
            }
        }
    }

    /**
     * After a take that leaves work behind (in the batch this worker holds, or queued): wake one more worker, within
     * the cap, to steal or take it; if the cap held it back, the owner's watchdog looks instead, in case the awake
     * workers (this one included) block in their tasks.
     */
    private void recruit(Worker w) {
        if ((w.left > 0 || !queue.isEmpty()) && !idleWorkers.signal(idleWorkers.awakeCap)) {
            nudgeOwner();
        }
    }

    /** @return whether a worker stands by, or the spinner will (tests) */
    boolean standsBy() {
        return standbySlot.enabled() && (standbySlot.occupied() || idleWorkers.spinnerComing());
    }

    // ---- for the standby slot, the idle workers and the owner's side ----

    /** @return the worker with this id (its slot in {@link #workers}, + 1) */
    Worker worker(int id) {
        return workers[id - 1];
    }

    /**
     * @return whether a thread is starting a worker (a volatile load): its slot may be filled before the count of
     *         started workers includes it
     */
    boolean startingWorker() {
        return starting != 0;
    }

    /** @return how many workers were started: their ids are 1 to this (a volatile load) */
    int startedWorkers() {
        return started;
    }

    /**
     * Adds to the awake count ({@link IdleWorkers#addAwake}): a worker takes or leaves the standby slot, as the idle
     * stack's push and pop.
     */
    void addAwake(int delta) {
        idleWorkers.addAwake(delta);
    }

    /**
     * @return whether work is queued or the pool is shut down (the queue's volatile loads, then the flag's): a
     *         spinner stops, and a parking or standing-by worker must not park
     */
    boolean workOrShutdown() {
        return !queue.isEmpty() || shutdown;
    }

    /** @return the worker in slot {@code i} (0-based; null if never started), for a look at every slot */
    Worker slot(int i) {
        return workers[i];
    }

    /** @return the number of worker slots (the pool's size) */
    int size() {
        return workers.length;
    }

    /** @return whether shutdownNow has begun (a worker keeps its interrupt) */
    boolean stopping() {
        return stop;
    }

    /** @return whether a worker spins now ({@link IdleWorkers#spinnerComing}): it takes the slot if no work came */
    boolean spinnerComing() {
        return idleWorkers.spinnerComing();
    }

    /**
     * Counts a wake-up (metrics): a signal's unpark of a parked or standing-by worker, the standby's timed wake-up,
     * or an unpark to re-arm it.
     */
    void countWakeup() {
        unparks.increment();
    }

    /**
     * A worker about to park or stand by (already on the idle stack or in the slot): if a worker holds a batch with
     * timers left, nudge the owner, so that its watchdog adds a worker should the holder block. The taker's side of
     * this pair sets the held hint, then reads the idle stack and the slot (its capped recruit's nudge); this side
     * announced itself, then reads the hint and the holders: one of the two nudges (jcstress:
     * HandOffVsParkBehindBatch). It does not stay awake to steal: that would take a core from the owner past the
     * awake cap; within the cap the taker's recruit wakes a worker to steal.
     */
    void nudgeForHeld() {
        if (held.anyLeft()) {
            nudgeOwner();
        }
    }

    /**
     * As the JDK's pool: a stopping pool runs a task with its thread interrupted, a running one without.
     *
     * @return whether the run ended the timer and left its end for this worker to count
     */
    private boolean runTask(ScheduledTimer<?> t) {
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
            return t.runHandedOff();
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
            return false;
        }
    }

    /** A worker exited, or one counted in {@link #live} was not started after all. */
    private void workerGone() {
        if (live.decrementAndGet() == 0 && shutdown) {
            terminated.countDown();
        }
    }

    // ---- lifecycle ----

    /**
     * Every slot, not only those below {@code started}: a worker's first task may ask before its starter has
     * published {@code started}, and its own slot is visible to it (written before its thread started).
     */
    @Override
    boolean isPoolThread(Thread t) {
        for (Worker w : workers) {
            if (w != null && w.thread == t) {
                return true;
            }
        }
        return false;
    }

    /** The owner exits (or, at shutdownNow, the collector): no more owner hand-offs; workers finish the queue. */
    @Override
    void shutdown() {
        shutdown = true;
        while (idleWorkers.wakeOne()) {
            // every parked worker looks once more, sees shutdown and an empty queue, and exits
        }
        standbySlot.wake(); // the slot's CAS then the look at shutdown: either it sees the flag or it is taken here
        if (live.get() == 0) {
            terminated.countDown(); // no worker left to count it down (or none ever started)
        }
    }

    /** shutdownNow: claim what no worker has taken, interrupt every worker (running tasks see it), let them exit. */
    @Override
    void handBack(Consumer<ScheduledTimer<?>> claim) {
        stop = true;
        shutdown = true;
        slots.handBack(claim); // first: a continuation moved out of a slot before stop is queued for the drain
        held.handBack(claim);
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

    /**
     * The owner failed, or no worker could ever be started: every timer handed off and not yet claimed by a worker
     * fails, queued or left in a batch a worker holds (as the hand-back takes them).
     */
    @Override
    void failQueued(Throwable cause) {
        Consumer<ScheduledTimer<?>> fail = t -> t.fail(cause);
        slots.handBack(fail);
        held.handBack(fail);
    }

    @Override
    long ownerBatches() {
        return batches.sum();
    }

    @Override
    long wakeups() {
        return unparks.sum();
    }

    @Override
    long endedInPool() {
        // A slot read (plain) before its store holds no count yet, or a count this read misses: the sum only reads
        // low, so pending only reads high.
        return sumOverWorkers(ENDED);
    }

    @Override
    long submittedByWorkers() {
        // Read after the ends: a submit's count is stored (release) before the fill or push that hands its timer on,
        // so a snapshot that saw the timer's end (acquire) sees its submit too, and pending never reads low; a count
        // missed here belongs to a timer whose end the snapshot did not count either.
        return sumOverWorkers(SUBMITTED);
    }

    /**
     * The sum of one of the workers' own counts ({@code Worker.ended} or {@code Worker.submitted}), each read with
     * acquire, over every slot: a worker may count before its starter publishes the count of started workers.
     */
    private long sumOverWorkers(VarHandle count) {
        long sum = 0;
        for (Worker w : workers) {
            if (w != null) {
                sum += (long) count.getAcquire(w);
            }
        }
        return sum;
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

    /** @return batches made to be kept for reuse so far (tests; the owner's count, read by the test's thread) */
    int pooledBatches() {
        return own.pooledBatches;
    }

    /** A worker with no thread, whose steps a test runs on its own threads (jcstress); unparking it is a no-op. */
    Worker detachedWorker() {
        int n = started;
        Worker w = new Worker(this, n + 1);
        workers[n] = w;
        idleWorkers.addAwake(1);
        started = n + 1;
        return w;
    }

    /**
     * A detached worker inside a task on {@code thread} (tests: a runnable thread stands for a CPU-bound task, a
     * waiting one for a blocked task); {@link #nextTaskOf} moves it to its next task.
     */
    Worker detachedWorkerInTask(Thread thread) {
        Worker w = detachedWorker();
        w.thread = thread;
        TASK_SEQ.setOpaque(w, 1);
        return w;
    }

    /** A detached worker ends its task and starts the next one, as runSome does (tests). */
    void nextTaskOf(Worker w) {
        TASK_SEQ.setOpaque(w, w.taskSeq + 2);
    }

    /** @return continuations the watchdog moved out of a stalled worker's slot (tests) */
    long slotMoves() {
        return slots.moved();
    }

    /** Runs {@code r} on the calling thread as if inside a task of worker {@code w} (jcstress: a task's submit). */
    void runAsTaskOf(Worker w, Runnable r) {
        Worker before = CURRENT.get();
        CURRENT.set(w);
        try {
            r.run();
        } finally {
            CURRENT.set(before);
        }
    }

    /** @return what worker {@code w}'s slot holds (tests) */
    ScheduledTimer<?> slotOf(Worker w) {
        return w.next;
    }

    /** Worker {@code w} ends its task and takes its slot, as runSome does (jcstress). */
    ScheduledTimer<?> takeSlotAfterTask(Worker w) {
        nextTaskOf(w);
        return slots.take(w);
    }

    /** @return times the watchdog woke a worker past the cap (tests) */
    long stalls() {
        return own.stalls.sum();
    }

    /** An announced steal, as a worker's look makes it (jcstress: StealVsHandBack). */
    TimingWheel.Node stealFrom(Worker thief, Worker victim) {
        return held.stealFrom(thief, victim);
    }
}

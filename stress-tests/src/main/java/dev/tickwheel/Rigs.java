package dev.tickwheel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Builds the small timers the stress tests race on: manual drive (no owner thread: the actor that calls
 * {@link OwnerLoop#step()} is the owner for that sample), a {@link ManualClock} at 0 with a 1 ms tick (the tests'
 * delays are whole milliseconds), and a small owner batch so that each jcstress state stays cheap to allocate.
 */
final class Rigs {

    /** Small: a state holds one or two timers, and the batch sizes the owner's due array (3 x batch). */
    static final int BATCH = 8;

    /** {@link #ending}: the future completed normally (get() returned a value). */
    static final int COMPLETED = 0;
    /** {@link #ending}: the future is cancelled: isCancelled() and get() throws CancellationException. */
    static final int CANCELLED = 1;
    /** {@link #ending}: anything else: not done, failed, or isCancelled() and get() disagree. */
    static final int OTHER = 2;

    private Rigs() {
    }

    /** A manually driven timer that runs each task inside {@code step()}, on the stepping thread. */
    static WheelTimer direct(ManualClock clock) {
        return on(clock, Runnable::run);
    }

    /** A manually driven timer that hands each due task to {@code executor} from inside {@code step()}. */
    static WheelTimer on(ManualClock clock, Executor executor) {
        return WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive().ownerBatch(BATCH)
                .executor(executor).build();
    }

    /**
     * A manually driven timer on any time source (a 1 ms tick), running each task inside {@code step()}: for a race
     * where the stepping thread's clock reads later than a producer's (a producer descheduled between its clock
     * read and its CAS).
     */
    static WheelTimer direct(TimeSource time) {
        return WheelTimer.builder().timeSource(time).tick(1, TimeUnit.MILLISECONDS).manualDrive().ownerBatch(BATCH)
                .executor(Runnable::run).build();
    }

    /**
     * A manually driven timer (as {@link #direct(ManualClock)}) whose command queues' first ring holds 2 commands, so
     * that two queued starts fill it and the next start spills into a spare ring, which it installs. With
     * {@link CommandQueue.Flaw#BLIND_TO_SPARES}, the deliberately broken queues whose owner side looks only at the
     * first ring and the overflow.
     */
    static WheelTimer smallRings(ManualClock clock, CommandQueue.Flaw flaw) {
        return WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive().ownerBatch(BATCH)
                .commandQueues(2, 0, CommandPort.CHUNK, flaw).executor(Runnable::run).build();
    }

    /**
     * A manually driven timer (as {@link #direct(ManualClock)}) whose command queues have one ring of 2 commands and
     * no spare, and an overflow of chunks of 2 (JCTools' smallest): a chunk then holds one command before the next
     * offer, if the owner has not taken it, links a new chunk (a resize). No chains: every command, a new timer's
     * start too, goes into the overflow once the ring is full. With
     * {@link CommandQueue.Flaw#EMPTY_MID_RESIZE}, the deliberately broken queues whose index check reads a resize claim
     * as empty.
     */
    static WheelTimer tinyOverflow(ManualClock clock, CommandQueue.Flaw flaw) {
        return WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive().ownerBatch(BATCH)
                .commandQueues(2, 2, 2, flaw).commandChains(false).executor(Runnable::run).build();
    }

    /**
     * A manually driven timer (as {@link #direct(ManualClock)}) whose command queues have one ring of 2 commands and
     * no spare, with their chains (the default): past the ring a new timer's start and a cancel before any run go
     * into a {@link TimerChain}, every other command (a move) into the overflow. With
     * {@link CommandQueue.Flaw#BLIND_TO_CHAIN} or {@link CommandQueue.Flaw#MOVE_OVERTAKES_CHAIN}, the deliberately
     * broken owners.
     */
    static WheelTimer fullRingChained(ManualClock clock, CommandQueue.Flaw flaw) {
        return WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive().ownerBatch(BATCH)
                .commandQueues(2, 2, CommandPort.CHUNK, flaw).executor(Runnable::run).build();
    }

    /** A manually driven timer that runs tasks on the owner (the stepping thread), which clears their interrupts. */
    static WheelTimer onOwner(ManualClock clock) {
        return WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive().ownerBatch(BATCH)
                .runTasksOnOwnerThread().build();
    }

    /** A manually driven timer with its own pool: as many workers as the cap and one more, none started. */
    static WheelTimer ownPool(ManualClock clock) {
        int cap = Math.max(1, Runtime.getRuntime().availableProcessors() - 1); // the pool's awakeCap, by its rule
        return WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive().ownerBatch(BATCH)
                .workerThreads(cap + 1).build();
    }

    /**
     * Fills a timer's own pool ({@link #ownPool}) with detached workers: {@code awakeCap} of them awake (as if
     * blocked in their tasks), so that a capped signal wakes nobody, and the last on the idle stack.
     */
    static WorkerPool capFullWithOneParked(WheelTimer timer) {
        WorkerPool pool = timer.pool();
        for (int i = 0; i < pool.idleWorkers.awakeCap; i++) {
            pool.detachedWorker();
        }
        pool.idleWorkers.pushIdle(pool.detachedWorker());
        return pool;
    }

    /** An owner's park plan: 0 = it must not park, 1 = until a tick at most 1 (the watchdog's look), 2 = later. */
    static int planKind(long planned) {
        return planned == CommandPort.AWAKE ? 0 : planned <= 1 ? 1 : 2;
    }

    /** A due one-shot timer as the owner hands it to a pool (DISPATCHED, out of the wheel), whose task does nothing. */
    static ScheduledTimer<?> handedOff() {
        return handedOff(() -> { });
    }

    /** A due one-shot timer running {@code task}, as the owner hands it to a pool: DISPATCHED, out of the wheel. */
    static ScheduledTimer<?> handedOff(Runnable task) {
        ScheduledTimer<?>[] out = new ScheduledTimer<?>[1];
        WheelTimer timer = on(new ManualClock(), r -> out[0] = (ScheduledTimer<?>) r);
        timer.schedule(task, 0, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
        if (out[0] == null) {
            throw new IllegalStateException("the step handed nothing off");
        }
        return out[0];
    }

    /**
     * A one-shot timer due now running {@code task}, taken from its own pool's queue as a worker takes it: DISPATCHED,
     * so that its run ({@link ScheduledTimer#runHandedOff}) is the pool's one-CAS claim. The pool's one worker is
     * detached (the submit's signal starts no thread), and the owner is never stepped (manual drive).
     */
    static ScheduledTimer<?> takenFromOwnPool(Runnable task) {
        WheelTimer timer = WheelTimer.builder().timeSource(new ManualClock()).tick(1, TimeUnit.MILLISECONDS)
                .manualDrive().ownerBatch(BATCH).workerThreads(1).build();
        WorkerPool pool = timer.pool();
        pool.detachedWorker();
        timer.schedule(task, 0, TimeUnit.MILLISECONDS); // due now: straight to the pool's queue, DISPATCHED
        TimingWheel.Node n = pool.queue.poll();
        if (!(n instanceof ScheduledTimer) || ((ScheduledTimer<?>) n).phase() != ScheduledTimer.DISPATCHED
                || !timer.poolQueuesHandOffs) {
            throw new IllegalStateException("the pool's queue did not hold the DISPATCHED timer: " + n);
        }
        return (ScheduledTimer<?>) n;
    }

    /**
     * How a future ended, for an arbiter once every actor has returned: {@link #COMPLETED}, {@link #CANCELLED} or
     * {@link #OTHER}. Calls get() only on a done future, so it never blocks the harness.
     */
    static int ending(Future<?> f) {
        if (!f.isDone()) {
            return OTHER;
        }
        boolean cancelled = f.isCancelled();
        try {
            f.get();
            return cancelled ? OTHER : COMPLETED;
        } catch (CancellationException e) {
            return cancelled ? CANCELLED : OTHER;
        } catch (ExecutionException | InterruptedException e) {
            return OTHER;
        }
    }

    /**
     * For an arbiter: takes what is left in a pool's queue, in order, waiting out a RETRY (a million spins at most) and
     * taking at most 100 nodes, so that a broken queue fails the sample instead of hanging the arbiter.
     */
    static List<TimingWheel.Node> drain(HandOffQueue queue) {
        List<TimingWheel.Node> out = new ArrayList<>(4);
        for (int spins = 0; out.size() < 100 && spins < 1_000_000; ) {
            TimingWheel.Node n = queue.poll();
            if (n == HandOffQueue.RETRY) {
                spins++;
                Thread.onSpinWait();
                continue;
            }
            if (n == null) {
                break;
            }
            out.add(n);
        }
        return out;
    }

    /**
     * For an arbiter: whether a worker's take was the first of the timers and, with what the queue still held, every
     * timer was handed out exactly once.
     */
    static boolean firstTakenThenEachOnce(TimingWheel.Node[] timers, TimingWheel.Node took,
                                          List<TimingWheel.Node> left) {
        if (took != timers[0] || left.size() != timers.length - 1) {
            return false;
        }
        for (TimingWheel.Node t : timers) {
            int seen = took == t ? 1 : 0;
            for (TimingWheel.Node n : left) {
                seen += n == t ? 1 : 0;
            }
            if (seen != 1) {
                return false;
            }
        }
        return true;
    }
}

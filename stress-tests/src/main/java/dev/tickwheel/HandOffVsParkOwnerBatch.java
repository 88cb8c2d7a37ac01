package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race 30: the owner's batch hand-off vs a park. The owner's step dispatches three due timers into one
 * {@link HandOffBatch} ({@link WorkerPool#dispatch}) and hands the chain off ({@link WorkerPool#afterBatch}: one
 * swap of the queue's tail, one release store, then the capped {@code signal(awakeCap)}), while the pool's only
 * worker, which found the queue empty, announces its park ({@link IdleWorkers#announcePark}: PARKED, off the awake
 * count, onto the idle stack, then a second look at the queue). The cap is 1, so the owner's signal wakes nobody while
 * it still counts the worker awake: then the worker's look must see the batch (its node is the tail from the swap on).
 * HandOffVsPark and HandOffVsCappedPark push a single timer with {@code push} and call the signal themselves; this one
 * runs the owner's own path, with a batch as the pushed node.
 *
 * <p>Result: whether announcePark let the worker park (1), its state at the end (0 ACTIVE, 2 PARKED), how many timers
 * the arbiter then drains from the queue, and whether each was handed out exactly once, in order (1).
 */
@JCStressTest
@Description("Owner's batch hand-off (dispatch, afterBatch) vs the only worker announcing its park: no lost wake-up")
@Outcome(id = "0, 0, 3, 1", expect = ACCEPTABLE,
        desc = "the worker's second look saw the batch (the owner held back, counting it awake) and it popped itself, "
                + "or the owner found it on the idle stack and popped it first")
@Outcome(id = "1, 0, 3, 1", expect = ACCEPTABLE,
        desc = "the worker decided to park before the push; the owner's signal then found it off the awake count and "
                + "on the idle stack, and woke it")
@Outcome(id = "., 2, .*", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the worker stays parked, nobody woke it, and the batch waits in the queue")
@Outcome(id = "., [01], ., 0", expect = FORBIDDEN, desc = "a timer handed out twice, never, or out of order")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach (timers lost or taken twice)")
@State
public class HandOffVsParkOwnerBatch {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    }, 1);
    /** The pool's one worker, awake (the count is 1: the cap); its announcement run by actor {@link #worker}. */
    private final WorkerPool.Worker worker = pool.detachedWorker();
    private final ScheduledTimer<?>[] timers = {Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff()};
    /** Written by the worker actor, read by the arbiter. */
    private boolean parks;

    @Actor
    public void owner() {
        for (ScheduledTimer<?> t : timers) {
            pool.dispatch(t); // a step's due timers, into one batch
        }
        pool.afterBatch(false); // the chain (one batch) pushed, then the capped signal
    }

    @Actor
    public void worker() {
        parks = pool.idleWorkers.announcePark(worker);
    }

    @Arbiter
    public void after(IIII_Result r) {
        List<TimingWheel.Node> left = Rigs.drain(pool.queue);
        r.r1 = parks ? 1 : 0;
        r.r2 = worker.state;
        r.r3 = left.size();
        r.r4 = left.equals(List.of(timers)) ? 1 : 0; // each once, in the order dispatched
    }
}

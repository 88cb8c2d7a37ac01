package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link HandOffVsStandbyPark} with the worker looking at the queue <em>before</em> it takes the standby slot
 * ({@link StandbySlot#takeLookingFirst}): a push between the look and the slot's CAS finds no standby to take
 * out, and the worker, having seen an empty queue, stands by beside the timer. Expected to fail: it shows the test
 * can see the lost wake-up the real order prevents.
 */
@JCStressTest
@Description("Broken on purpose: the standby looks at the queue before taking its slot (lost wake-up)")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "the worker saw the timer, or was taken out first")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "the producer saw the slot and took the worker out")
@Outcome(id = "., 1, 1, .", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the worker stands by, nobody took it out, and the timer waits in the queue")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach, or the awake count off (the worker is awake: 1)")
@State
public class BrokenHandOffVsStandbyPark {

    private final WorkerPool pool = StandbyRigs.pool();
    private final WorkerPool.Worker worker = pool.detachedWorker();
    private final ScheduledTimer<?> timer = Rigs.handedOff();
    private boolean parks;

    @Actor
    public void producer() {
        pool.queue.push(timer);
        pool.idleWorkers.signal();
    }

    @Actor
    public void worker() {
        parks = pool.standbySlot.takeLookingFirst(worker);
    }

    @Arbiter
    public void after(IIII_Result r) {
        r.r1 = parks ? 1 : 0;
        r.r2 = worker.state;
        r.r3 = pool.queue.isEmpty() ? 0 : 1;
        r.r4 = pool.idleWorkers.awakeWorkers();
    }
}

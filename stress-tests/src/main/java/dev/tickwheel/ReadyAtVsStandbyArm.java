package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Race 26: the standby's arming. The worker standing by woke for tick 50 (it served it) and arms again
 * ({@link StandbySlot#arm}: store the tick it will park until, then read the published tick again), while
 * the owner, having stepped, publishes the next due tick, 100 ({@link StandbySlot#readyAt}: store it, then read the
 * slot and the standby's armed tick, and unpark the standby if 100 is earlier). Either the standby arms for 100, or
 * the owner unparks it (it then arms again); a standby parked with no tick, or past 100, and never unparked would
 * sleep through the timer it stands by for (the owner, parked a little past 100 as its backup, would run it late).
 *
 * <p>Result: the tick the standby armed (1: 100; 0: none, since 50 was served) and the unparks the publisher made.
 */
@JCStressTest
@Description("Standby arming vs the owner publishing the next due tick: the standby arms for it or is unparked")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the standby read tick 100 and arms for it; nobody needed to unpark it")
@Outcome(id = "1, 1", expect = ACCEPTABLE,
        desc = "the standby arms for 100, and the publisher, which read its earlier arm, also unparked it (harmless)")
@Outcome(id = "0, 1", expect = ACCEPTABLE,
        desc = "the standby armed before the publish (no tick); the publisher saw that and unparked it to arm again")
@Outcome(id = "0, 0", expect = FORBIDDEN,
        desc = "LOST ARMING: the standby parks with no tick and nobody unparks it: it sleeps through tick 100")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach")
@State
public class ReadyAtVsStandbyArm {

    private final WorkerPool pool = StandbyRigs.pool();
    private final WorkerPool.Worker worker = pool.detachedWorker();
    private long armed;

    public ReadyAtVsStandbyArm() {
        pool.readyAt(50);
        if (!pool.standbySlot.take(worker) || pool.standbySlot.arm(worker) != 50) {
            throw new IllegalStateException("the standby did not arm for tick 50");
        }
        worker.servedTick = 50; // it woke for 50: what it arms next is the owner's next plan
    }

    @Actor
    public void owner() {
        pool.readyAt(100);
    }

    @Actor
    public void standby() {
        armed = pool.standbySlot.arm(worker);
    }

    @Arbiter
    public void after(II_Result r) {
        r.r1 = armed == 100 ? 1 : armed == StandbySlot.NO_READY ? 0 : 2;
        r.r2 = (int) pool.wakeups();
    }
}

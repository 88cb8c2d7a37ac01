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
 * {@link ReadyAtVsStandbyArm} with the standby storing its armed tick but not reading the published tick again
 * ({@link StandbySlot#armWithoutRecheck}): a publish between its read and its store sees the stale armed tick
 * (50, not later than 100), unparks nobody, and the standby parks with no tick. Expected to fail.
 */
@JCStressTest
@Description("Broken on purpose: the standby arms without reading the published tick again (lost arming)")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the standby read tick 100 and arms for it; nobody needed to unpark it")
@Outcome(id = "1, 1", expect = ACCEPTABLE,
        desc = "the standby arms for 100, and the publisher, which read its earlier arm, also unparked it (harmless)")
@Outcome(id = "0, 1", expect = ACCEPTABLE,
        desc = "the standby armed before the publish (no tick); the publisher saw that and unparked it to arm again")
@Outcome(id = "0, 0", expect = FORBIDDEN,
        desc = "LOST ARMING: the standby parks with no tick and nobody unparks it: it sleeps through tick 100")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach")
@State
public class BrokenReadyAtVsStandbyArm {

    private final WorkerPool pool = StandbyRigs.pool();
    private final WorkerPool.Worker worker = pool.detachedWorker();
    private long armed;

    public BrokenReadyAtVsStandbyArm() {
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
        armed = pool.standbySlot.armWithoutRecheck(worker);
    }

    @Arbiter
    public void after(II_Result r) {
        r.r1 = armed == 100 ? 1 : armed == StandbySlot.NO_READY ? 0 : 2;
        r.r2 = (int) pool.wakeups();
    }
}

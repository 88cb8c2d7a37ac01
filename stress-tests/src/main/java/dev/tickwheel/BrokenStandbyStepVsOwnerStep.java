package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link StandbyStepVsOwnerStep} with the standby stepping without the token
 * ({@link OwnerPark#standbyStepWithoutToken}): both steps advance the same wheel and fill the same due buffer at
 * once. Expected to fail (a size off, a timer lost or an exception from a half-unlinked slot): it shows what the
 * token keeps apart.
 */
@JCStressTest
@Description("Broken on purpose: the standby steps without the token (the two steps interleave)")
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE,
        desc = "the owner stepped and handed the timer off; the standby did not step")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE,
        desc = "one step handed the timer off and the other, before or after it, found nothing due")
@Outcome(id = "2, ., ., .", expect = FORBIDDEN, desc = "the timer was handed off twice")
@Outcome(id = "0, ., ., .", expect = FORBIDDEN, desc = "the timer was lost: neither step handed it off")
@Outcome(expect = FORBIDDEN, desc = "the wheel was left inconsistent (a size off, a timer still linked, time not advanced)")
@State
public class BrokenStandbyStepVsOwnerStep {

    private final ManualClock clock = new ManualClock();
    /** The own pool, its one worker detached (so the pool is full and awake: a push starts and wakes nobody). */
    private final WheelTimer timer = WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS)
            .manualDrive().ownerBatch(Rigs.BATCH).workerThreads(1).build();
    private final OwnerLoop loop = OwnerLoop.of(timer);
    private final WorkerPool.Worker worker = timer.pool().detachedWorker();
    private boolean standbyStepped;

    public BrokenStandbyStepVsOwnerStep() {
        timer.schedule(() -> { }, 5, TimeUnit.MILLISECONDS);
        loop.step();
        if (loop.ownerPark.planPark() != 5) {
            throw new IllegalStateException("the owner did not plan to park until tick 5");
        }
        clock.advanceMillis(5);
    }

    @Actor
    public void owner() {
        loop.ownerPark.ownerWakeStep();
    }

    @Actor
    public void standby() {
        standbyStepped = loop.ownerPark.standbyStepWithoutToken();
    }

    @Arbiter
    public void after(IIII_Result r) {
        // Bounded (Rigs.drain): two steps at once can leave the queue mid-push for good, or looped, and an arbiter
        // that waits that out would hang the broken twin's run instead of failing it.
        r.r1 = Rigs.drain(timer.pool().queue).size();
        r.r2 = standbyStepped ? 1 : 0;
        r.r3 = loop.wheel().size();
        r.r4 = loop.wheel().minAllowedKey() > 5 ? 1 : 0;
    }
}

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
 * Race 27: the step token. The owner parked with a plan (tick 5, where one timer is due) and both threads that park
 * until that tick wake at once: the owner ({@link OwnerPark#ownerWakeStep}: withdraw its plan, take the token, step,
 * give it back) and the worker standing by ({@link OwnerPark#standbyStep}: only while the token is free, one CAS
 * on the token, then the same step). The token keeps the two steps apart, so the wheel, the due buffer and the
 * command queues' consumer side pass from one thread to the other whole: the timer is handed off exactly once and
 * the wheel ends empty and consistent, whoever stepped.
 *
 * <p>The timer's own pool, as in production: the step chains the due timer and pushes the chain to the pool's queue
 * (the standby's step as a chain of one it would take itself). Result: how many times the timer is queued in the
 * pool, whether the standby stepped (1), the wheel's size at the end, and the wheel's minimum allowed key past the
 * due tick (1).
 */
@JCStressTest
@Description("The owner's step vs a standby worker's step at the same due tick: one hand-off, a consistent wheel")
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE,
        desc = "the owner stepped and handed the timer off; the standby found the token taken")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE,
        desc = "one step handed the timer off and the other found nothing due; the standby stepped, first or after the "
                + "owner (which may already have been woken, not yet holding the token)")
@Outcome(id = "2, ., ., .", expect = FORBIDDEN, desc = "the timer was handed off twice")
@Outcome(id = "0, ., ., .", expect = FORBIDDEN, desc = "the timer was lost: neither step handed it off")
@Outcome(expect = FORBIDDEN, desc = "the wheel was left inconsistent (a size off, a timer still linked, time not advanced)")
@State
public class StandbyStepVsOwnerStep {

    private final ManualClock clock = new ManualClock();
    /** The own pool, its one worker detached (so the pool is full and awake: a push starts and wakes nobody). */
    private final WheelTimer timer = WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS)
            .manualDrive().ownerBatch(Rigs.BATCH).workerThreads(1).build();
    private final OwnerLoop loop = OwnerLoop.of(timer);
    private final WorkerPool.Worker worker = timer.pool().detachedWorker();
    private boolean standbyStepped;

    public StandbyStepVsOwnerStep() {
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
        standbyStepped = loop.ownerPark.standbyStep();
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

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
 * {@link HandOffVsStalledStandby} with the signal as it was before session 29
 * ({@link IdleWorkers#signalTakingADueStandbyFirst}): a standby whose tick has come is taken before the idle stack.
 * When the signal runs first, the waker takes the standby, which is waiting for a CPU, and leaves the parked worker
 * parked: the outcome the real test forbids. Expected to fail; left out of the build's gate (as every Broken* test).
 */
@JCStressTest
@Description("BROKEN: signal takes a standby whose tick has come before the idle stack (as before session 29)")
@Outcome(id = "1, 0, 0, 2", expect = ACCEPTABLE,
        desc = "the standby left by itself (before the signal, or after it left it in the slot); the parked worker "
                + "was woken")
@Outcome(id = "0, 2, 0, 1", expect = FORBIDDEN,
        desc = "the waker took the standby, waiting for a CPU, while a worker was parked: the timer waits for the "
                + "standby's CPU")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach, or the awake count off (both awake: 2)")
@State
public class BrokenHandOffVsStalledStandby {

    private final StandbyRigs.StalledStandby rig = new StandbyRigs.StalledStandby();

    @Actor
    public void producer() {
        rig.pushAndSignal(true);
    }

    @Actor
    public void standby() {
        rig.leaveAtTick();
    }

    @Arbiter
    public void after(IIII_Result r) {
        rig.record(r);
    }
}

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
 * The standby whose tick has come while it is still in its slot (session 29): its timed wake-up has fired and it waits
 * for a CPU. A producer pushes a timer and signals ({@link IdleWorkers#signal()}), while the standby, given its CPU at
 * last, leaves the slot by itself at its tick ({@link StandbySlot#leave}, as its timed wake-up does before it steps).
 * A worker is parked on the idle stack, and the pool is full (nothing is started). In either order the signal wakes
 * the parked worker, whose wake-up can take a CPU that is free now, and leaves the standby to come by itself; the
 * waker never takes a standby that is waiting for a CPU while a worker is parked. Both ends count each worker awake
 * once: the standby's own leave, and the waker's pop.
 *
 * <p>Result: whether the standby left by itself (1), the parked worker's state (0 ACTIVE, 2 PARKED), the standby's
 * state (0 ACTIVE), and the pool's awake count.
 */
@JCStressTest
@Description("Push + signal vs a standby leaving its slot at a tick that has come: the parked worker is woken")
@Outcome(id = "1, 0, 0, 2", expect = ACCEPTABLE,
        desc = "the standby left by itself (before the signal, or after it left it in the slot); the parked worker "
                + "was woken")
@Outcome(id = "0, 2, 0, 1", expect = FORBIDDEN,
        desc = "the waker took the standby, waiting for a CPU, while a worker was parked: the timer waits for the "
                + "standby's CPU")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach, or the awake count off (both awake: 2)")
@State
public class HandOffVsStalledStandby {

    private final StandbyRigs.StalledStandby rig = new StandbyRigs.StalledStandby();

    @Actor
    public void producer() {
        rig.pushAndSignal(false);
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

package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * Race 7a: a thread blocked in {@code get()} against the owner's step that runs the task and completes the future.
 * The waiter pushes itself on the future's waiter stack (CAS) and re-reads the phase before parking; the completer
 * stores the phase and then takes the whole stack (getAndSet): whichever comes first, the waiter is released.
 *
 * <p>Termination mode: the actor blocks in {@code get()}, the signal steps the owner. The actor checks the value
 * and throws if it is wrong, which jcstress reports as an error (a failed build).
 */
@JCStressTest(Mode.Termination)
@Description("get() vs completion: a blocked waiter is always released, with the task's value")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE,
        desc = "get() returned the value: the waiter saw the completion before parking, or was unparked by it")
@Outcome(id = "STALE", expect = FORBIDDEN,
        desc = "LOST WAKE-UP in get(): the task completed but the waiter stays parked (it pushed itself after the "
                + "completer took the waiter stack, and did not re-check the phase)")
@Outcome(id = "ERROR", expect = FORBIDDEN,
        desc = "get() returned something other than the task's value, or threw: the waiter was released with the "
                + "wrong outcome (the actor throws, which jcstress records as ERROR)")
@State
public class GetReleasedByFire {

    static final String VALUE = "fired";

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final ScheduledFuture<String> future;

    public GetReleasedByFire() {
        future = timer.schedule(() -> VALUE, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // in the wheel at key 1
        clock.advanceMillis(1); // due: the signal's step fires it
    }

    @Actor
    public void waiter() throws InterruptedException, ExecutionException {
        String v = future.get();
        if (!VALUE.equals(v)) {
            throw new IllegalStateException("get() returned " + v + ", not the task's value " + VALUE);
        }
    }

    @Signal
    public void owner() {
        OwnerLoop.of(timer).step();
    }
}

package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.CancellationException;
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
 * Race 7b: a thread blocked in {@code get()} against {@code cancel} from another thread. The cancel's CAS then
 * its release of the waiter stack must wake a waiter that parked, and the waiter must see
 * {@link CancellationException}, never a value.
 *
 * <p>Termination mode: the actor blocks in {@code get()}, the signal cancels. The actor throws if get() returns
 * normally or fails in any other way, which jcstress reports as an error (a failed build).
 */
@JCStressTest(Mode.Termination)
@Description("get() vs cancel: a blocked waiter is always released, with CancellationException")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE,
        desc = "get() threw CancellationException: the waiter saw CANCELLED before parking, or was unparked by the "
                + "cancel's release of the waiter stack")
@Outcome(id = "STALE", expect = FORBIDDEN,
        desc = "LOST WAKE-UP in get(): the timer was cancelled but the waiter stays parked")
@Outcome(id = "ERROR", expect = FORBIDDEN,
        desc = "get() of the cancelled timer returned normally or threw something other than CancellationException, "
                + "or the cancel returned false (an actor throws, which jcstress records as ERROR)")
@State
public class GetReleasedByCancel {

    private final WheelTimer timer = Rigs.direct(new ManualClock());
    private final ScheduledFuture<?> future = timer.schedule(() -> { }, 1, TimeUnit.MILLISECONDS);

    @Actor
    public void waiter() throws InterruptedException, ExecutionException {
        Object v;
        try {
            v = future.get();
        } catch (CancellationException expected) {
            return;
        }
        throw new IllegalStateException("get() of a cancelled timer returned " + v);
    }

    @Signal
    public void canceller() {
        if (!future.cancel(false)) {
            throw new IllegalStateException("cancel of a pending timer returned false");
        }
    }
}

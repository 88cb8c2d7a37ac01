package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Race 1: {@code cancel} from a producer against the owner's step that expires the same one-shot timer.
 *
 * <p>The timer is already in the wheel and the clock already past its deadline, so the owner's step expires it and
 * runs it (a direct executor runs it inside the step) unless the cancel's CAS got there first.
 * Result: cancel's return (1 = true), how many times the task ran, the wheel's size after a final step.
 */
@JCStressTest
@Description("One-shot cancel vs fire: exactly one wins, and the wheel is left empty")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE,
        desc = "cancel's CAS (NEW -> CANCELLED) came first: the step unlinked the timer (cancel before the drain) "
                + "or skipped it at dispatch (cancel after the drain); the task never ran")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE,
        desc = "the step's CAS (NEW -> RUNNING) came first: the task ran once and cancel returned false")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN,
        desc = "both won: cancel returned true for a task that ran (the fire/cancel CAS is not exclusive)")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN,
        desc = "neither won: cancel returned false yet the task never ran (a due timer was lost)")
@Outcome(expect = FORBIDDEN,
        desc = "a task ran twice, or a finished or cancelled timer stayed linked in the wheel (leak)")
@State
public class CancelVsFire {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final ScheduledFuture<?> future;
    /** Written by the stepping actor (the task runs inside its step), read by the arbiter. */
    private int runs;

    public CancelVsFire() {
        future = timer.schedule(() -> runs++, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // the start command reaches the wheel (key 1), not yet due
        clock.advanceMillis(1); // now due: the actor's step expires it
    }

    @Actor
    public void producer(III_Result r) {
        r.r1 = future.cancel(false) ? 1 : 0;
    }

    @Actor
    public void owner() {
        OwnerLoop.of(timer).step();
    }

    @Arbiter
    public void after(III_Result r) {
        OwnerLoop.of(timer).step(); // reaps a cancel command that arrived after the race step
        r.r2 = runs;
        r.r3 = OwnerLoop.of(timer).wheel().size();
    }
}

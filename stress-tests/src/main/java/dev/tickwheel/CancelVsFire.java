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
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Race 1: {@code cancel} from a producer against the owner's step that expires the same one-shot timer.
 *
 * <p>The timer is already in the wheel and the clock already past its deadline, so the owner's step expires it and
 * runs it (a direct executor runs it inside the step) unless the cancel got there first. Under
 * {@link java.util.concurrent.FutureTask}'s cancel contract a cancel wins against a task that has not completed,
 * running or not: it returns true and the future ends cancelled, though a task already running runs to its end
 * ({@code cancel(false)} does not interrupt it). What must never happen is a task that starts from a step that
 * began after cancel had returned true, a true cancel whose future then holds a value, or neither winning.
 * Result: cancel's return (1 = true), how many times the task ran, the wheel's size after a final step, whether the
 * owner's step began after cancel had returned true (read by the owner before it steps), and how the future ended
 * (0 completed, 1 cancelled with get() throwing CancellationException, 2 anything else).
 */
@JCStressTest
@Description("One-shot cancel vs fire: one of them wins the pending timer, and the wheel is left empty")
@Outcome(id = "1, 0, 0, ., 1", expect = ACCEPTABLE,
        desc = "cancel came before the step's claim (NEW -> cancelled), before or during the step: the step "
                + "unlinked the timer (cancel before the drain) or skipped it at dispatch (cancel after the drain); "
                + "the task never ran")
@Outcome(id = "0, 1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "the step's run completed the future before the cancel: the task ran once and cancel returned false")
@Outcome(id = "1, 1, 0, 0, 1", expect = ACCEPTABLE,
        desc = "cancel came while the step ran the task, or after it returned but before the run completed the "
                + "future (FutureTask's contract): true, the task ran to its end, the future is cancelled")
@Outcome(id = "1, 1, ., 1, .", expect = FORBIDDEN,
        desc = "BOTH WON: the task ran in a step that began after cancel had returned true (the cancel and the "
                + "step's claim both took the timer from NEW)")
@Outcome(id = "1, ., ., ., [02]", expect = FORBIDDEN,
        desc = "cancel returned true, yet the future is not cancelled or get() does not throw "
                + "CancellationException (the run overwrote the cancel with its outcome)")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN,
        desc = "neither won: cancel returned false yet the task never ran (a due timer was lost)")
@Outcome(id = "0, 1, ., ., [12]", expect = FORBIDDEN,
        desc = "cancel returned false, yet the future did not complete normally")
@Outcome(expect = FORBIDDEN,
        desc = "a task ran twice, or a finished or cancelled timer stayed linked in the wheel (leak)")
@State
public class CancelVsFire {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final ScheduledFuture<?> future;
    /** Written by the stepping actor (the task runs inside its step), read by the arbiter. */
    private int runs;
    /** sv by the producer once cancel has returned true; lv by the owner before its step. */
    private volatile boolean cancelReturned;
    /** Written by the owner actor, read by the arbiter. */
    private boolean stepAfterCancel;

    public CancelVsFire() {
        future = timer.schedule(() -> runs++, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // the start command reaches the wheel (key 1), not yet due
        clock.advanceMillis(1); // now due: the actor's step expires it
    }

    @Actor
    public void producer(IIIII_Result r) {
        boolean cancelled = future.cancel(false);
        cancelReturned = cancelled;
        r.r1 = cancelled ? 1 : 0;
    }

    @Actor
    public void owner() {
        stepAfterCancel = cancelReturned;
        OwnerLoop.of(timer).step();
    }

    @Arbiter
    public void after(IIIII_Result r) {
        OwnerLoop.of(timer).step(); // reaps a cancel command that arrived after the race step
        r.r2 = runs;
        r.r3 = OwnerLoop.of(timer).wheel().size();
        r.r4 = stepAfterCancel ? 1 : 0;
        r.r5 = Rigs.ending(future);
    }
}

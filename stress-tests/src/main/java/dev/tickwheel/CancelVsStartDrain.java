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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Race 3: {@code cancel} of a timer whose start command is still in the queue, against the owner's step that
 * drains it into the wheel. A cancel that wins before the timer reaches the wheel must keep it out, and one that
 * wins after must get it unlinked: a cancelled timer must never stay in the wheel (tokio#8252 was exactly this
 * leak: a timer cancelled before its insertion was inserted anyway and stayed until its deadline).
 *
 * <p>The timer is due at tick 5, so the race step only inserts it. Result: cancel's return, the wheel's size right
 * after the race step (1 = the owner inserted it first), the size after one more step (the reap), how many times
 * the task ran by tick 5.
 */
@JCStressTest
@Description("cancel vs the owner's drain of the start command: never runs, never left in the wheel")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "cancel came before the owner drained the start command: the owner skipped the cancelled command, "
                + "so the timer never entered the wheel")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE,
        desc = "the owner inserted the timer first; cancel's command unlinked it at the next step")
@Outcome(id = "1, ., 1, .", expect = FORBIDDEN,
        desc = "LEAK (tokio#8252): a cancelled timer is still linked in the wheel after its cancel command was "
                + "drained; it would hold memory until its deadline")
@Outcome(id = "., ., ., 1", expect = FORBIDDEN, desc = "the task ran although the cancel won")
@Outcome(expect = FORBIDDEN, desc = "cancel of a pending timer returned false, or another inconsistent state")
@State
public class CancelVsStartDrain {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final ScheduledFuture<?> future;
    /** Written by the task, read by the arbiter. */
    private int runs;

    public CancelVsStartDrain() {
        future = timer.schedule(() -> runs++, 5, TimeUnit.MILLISECONDS); // only offered: not yet drained
    }

    @Actor
    public void producer(IIII_Result r) {
        r.r1 = future.cancel(false) ? 1 : 0;
    }

    @Actor
    public void owner(IIII_Result r) {
        OwnerLoop.of(timer).step();
        r.r2 = OwnerLoop.of(timer).wheel().size();
    }

    @Arbiter
    public void after(IIII_Result r) {
        OwnerLoop.of(timer).step();
        r.r3 = OwnerLoop.of(timer).wheel().size();
        clock.advanceMillis(5);
        OwnerLoop.of(timer).step();
        r.r4 = runs;
    }
}

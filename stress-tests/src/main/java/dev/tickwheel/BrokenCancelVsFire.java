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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A deliberately BROKEN cancel, to show that a cancel-vs-fire test of this shape can fail: the state and steps of
 * {@link CancelVsFire} (as it was before one-shot cancel took FutureTask's contract), but the producer cancels with a
 * plain read-then-write of the timer's phase instead of a CAS. This cancel claims only a pending timer (it returns
 * true only after reading NEW), so for it "returned true and the task ran" means both won: the owner's real fire
 * path (CAS NEW -> RUNNING) slipped between its read and its write. The outcomes are this cancel's own contract,
 * not the library's (whose cancel may now also win against a running task).
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenCancelVsFire -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN cancel (read, then plain write) vs fire: expected to show both-won")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the broken cancel's write landed first: the task never ran")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "the fire came first and the broken cancel saw it")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN,
        desc = "both won: the fire's CAS slipped between the cancel's read of NEW and its plain write")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "neither won: a due timer was lost")
@Outcome(expect = FORBIDDEN, desc = "a task ran twice, or a timer stayed linked in the wheel")
@State
public class BrokenCancelVsFire {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final ScheduledTimer<?> future;
    /** Written by the stepping actor (the task runs inside its step), read by the arbiter. */
    private int runs;

    public BrokenCancelVsFire() {
        future = (ScheduledTimer<?>) timer.schedule(() -> runs++, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
        clock.advanceMillis(1);
    }

    /** The bug: check, then act, with no atomicity between them. */
    private static boolean brokenCancel(ScheduledTimer<?> t) {
        if (t.phase() != ScheduledTimer.NEW) {
            return false;
        }
        t.setPhase(ScheduledTimer.CANCELLED); // plain write where the CAS belongs
        return true;
    }

    @Actor
    public void producer(III_Result r) {
        r.r1 = brokenCancel(future) ? 1 : 0;
    }

    @Actor
    public void owner() {
        OwnerLoop.of(timer).step();
    }

    @Arbiter
    public void after(III_Result r) {
        OwnerLoop.of(timer).step();
        r.r2 = runs;
        r.r3 = OwnerLoop.of(timer).wheel().size();
    }
}

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
 * Race 5: {@code cancel(true)} of a fixed-rate timer against the owner's step that runs it (a direct executor runs
 * it inside the step) and, at the end of the run, moves it back to NEW and offers the next period's start command.
 * After cancel returns true there must be no further start, and the interrupt a cancel sends to a running task must
 * not outlive the run.
 *
 * <p>Period 1 ms, first run due at tick 1, which the race step runs. Result: cancel's return, runs during the race
 * step, runs during three more periods afterwards, whether the stepping thread was left interrupted after its
 * step, and the wheel size plus the pending count at the end.
 */
@JCStressTest
@Description("periodic cancel(true) vs the reschedule after a run: no start after cancel returns true")
@Outcome(id = "1, 0, 0, 0, 0", expect = ACCEPTABLE,
        desc = "cancel came before the run (NEW -> CANCELLED): it never ran; the cancel command unlinked it")
@Outcome(id = "1, 1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "cancel came during the run (RUNNING -> INTERRUPTING/CANCELLED, so the runner's CAS back to NEW "
                + "failed and it cleared any interrupt it was sent) or after the reschedule (NEW -> CANCELLED, the "
                + "start command is skipped or the cancel command unlinks it): one run, then none")
@Outcome(id = "1, ., [1-9], .*", expect = FORBIDDEN,
        desc = "a run after cancel returned true: the reschedule and the cancel both won")
@Outcome(id = "., ., ., 1, .", expect = FORBIDDEN,
        desc = "cancel(true)'s interrupt leaked out of the run into the thread that ran it (it would hit that "
                + "thread's next task)")
@Outcome(expect = FORBIDDEN,
        desc = "cancel of a live periodic timer returned false, or the timer is left in the wheel or pending")
@State
public class PeriodicCancelVsReschedule {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final ScheduledFuture<?> future;
    /** Written by the task (on the stepping actor, then the arbiter), read by the arbiter. */
    private int runs;
    private int runsInRace;

    public PeriodicCancelVsReschedule() {
        future = timer.scheduleAtFixedRate(() -> runs++, 1, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // in the wheel at key 1
        clock.advanceMillis(1); // due
    }

    @Actor
    public void producer(IIIII_Result r) {
        r.r1 = future.cancel(true) ? 1 : 0;
    }

    @Actor
    public void owner(IIIII_Result r) {
        OwnerLoop.of(timer).step();
        r.r4 = Thread.interrupted() ? 1 : 0; // also clears it, so a leak cannot disturb the harness
        runsInRace = runs;
    }

    @Arbiter
    public void after(IIIII_Result r) {
        r.r2 = runsInRace;
        for (int i = 0; i < 3; i++) {
            clock.advanceMillis(1);
            OwnerLoop.of(timer).step();
        }
        r.r3 = runs - runsInRace;
        r.r5 = OwnerLoop.of(timer).wheel().size() + (int) timer.metrics().pending();
    }
}

package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.ExecutionException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * A run's end stores its terminal phase with a release store ({@link TimerState#completePhase}), with no full fence
 * before its read of the waiter stack: that read may pass the store. The waiter's protocol must hold anyway: a
 * {@code get()} that reads COMPLETING yields (then parks only briefly between looks) rather than parks for good, so a
 * waiter that comes after the completer read the stack is never left parked. The completer here reads the stack
 * first, in program order, and the waiter starts only after that read ({@link ReleaseCompletionRig}: a staged
 * interleaving, not a race left to chance); {@link BrokenGetVsReleaseCompletion}'s waiter parks on COMPLETING and
 * loses the wake-up. ({@link GetReleasedByFire} races {@code get()} against the library's own run path.)
 *
 * <p>Termination mode: the actor blocks in {@code get()}, the signal completes the future.
 */
@JCStressTest(Mode.Termination)
@Description("get() vs a completion whose stack read passes its release store: the waiter is always released")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE,
        desc = "get() returned the value: the waiter read COMPLETING and waited it out without parking for good")
@Outcome(id = "STALE", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the waiter pushed itself after the completer read the stack, read COMPLETING, and parked "
                + "for good")
@Outcome(id = "ERROR", expect = FORBIDDEN, desc = "get() returned something other than the task's value, or threw")
@State
public class GetVsReleaseCompletion {

    private final ReleaseCompletionRig rig = new ReleaseCompletionRig();

    @Actor
    public void waiter() throws InterruptedException, ExecutionException {
        rig.awaitStackRead(); // the completer has read the stack and holds COMPLETING
        ReleaseCompletionRig.check(rig.future.get());
    }

    @Signal
    public void completer() {
        rig.completeReadingStackFirst();
    }
}

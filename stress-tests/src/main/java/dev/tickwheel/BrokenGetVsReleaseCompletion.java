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
 * A deliberately BROKEN {@code get()}, to show what {@link GetVsReleaseCompletion} catches: the same state and
 * completer, but the waiter parks on COMPLETING as on any phase before it ({@link TimerState#getParkingOnCompleting}),
 * which was safe only while the terminal phase was a volatile store. A waiter that pushes itself after the completer
 * read the stack, and then reads COMPLETING, parks, and nobody wakes it.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenGetVsReleaseCompletion -m quick}. It is expected to FAIL.
 */
@JCStressTest(Mode.Termination)
@Description("DELIBERATELY BROKEN get() (parks on COMPLETING) vs a release-store completion: expected to lose a wake-up")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "get() returned the value")
@Outcome(id = "STALE", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the waiter pushed itself after the completer read the stack, read COMPLETING, and parked")
@Outcome(id = "ERROR", expect = FORBIDDEN, desc = "get() returned something other than the task's value, or threw")
@State
public class BrokenGetVsReleaseCompletion {

    private final ReleaseCompletionRig rig = new ReleaseCompletionRig();

    @Actor
    public void waiter() throws InterruptedException, ExecutionException {
        rig.awaitStackRead(); // the completer has read the stack and holds COMPLETING
        ReleaseCompletionRig.check(rig.future.getParkingOnCompleting());
    }

    @Signal
    public void completer() {
        rig.completeReadingStackFirst();
    }
}

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
 * A deliberately BROKEN owner, to show that {@link RescheduleVsChainedStart} can fail: it makes a move as soon as it
 * meets the move command, even while the timer's start waits in the start chain
 * ({@link CommandQueue.Flaw#MOVE_OVERTAKES_CHAIN}). Linking {@code t} into the wheel then overwrites its link to
 * {@code u}: {@code u} is lost, or the owner's next poll follows the link into the wheel.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenRescheduleVsChainedStart -m quick}. It is expected to
 * FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN (moves overtake chained starts): reschedule of a chained start vs the owner's drain: the move waits for the start, nothing behind it is lost")
@Outcome(id = "1, 1, 5, 1", expect = ACCEPTABLE,
        desc = "t ran once at its new deadline and u once at its own, whichever of the move and the start came first")
@Outcome(id = "., ., ., 0", expect = FORBIDDEN, desc = "LOST: u, chained behind t, never reached the wheel")
@Outcome(id = "., ., ., -1", expect = FORBIDDEN,
        desc = "CORRUPT: the owner followed t's link into the wheel (the move overwrote it while t was chained)")
@Outcome(id = "1, 1, 50, 1", expect = FORBIDDEN, desc = "IGNORED: the move was dropped and t ran at its old deadline")
@Outcome(expect = FORBIDDEN, desc = "a timer ran twice, never, or at another time, or the reschedule returned false")
@State
public class BrokenRescheduleVsChainedStart {

    private final ChainedStartRace race = new ChainedStartRace(CommandQueue.Flaw.MOVE_OVERTAKES_CHAIN);

    @Actor
    public void producer(IIII_Result r) {
        race.producer(r);
    }

    @Actor
    public void owner() {
        race.owner();
    }

    @Arbiter
    public void after(IIII_Result r) {
        race.after(r);
    }
}

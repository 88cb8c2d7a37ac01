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
 * A reschedule of a timer whose start waits in the start chain (issue 23), against the owner's step. The start
 * queue's only ring (2 commands) is full of two queued starts, so timers {@code t} and then {@code u} (50 ms) went into
 * the chain, {@code t} linked to {@code u} through its {@code next} field. The producer reschedules {@code t} to 5 ms,
 * which sends a move command: into the overflow while the ring is full, which the owner drains before the chain, or
 * into the ring once the owner's drain made room. A move that overtakes the start must leave {@code t} alone: linking
 * it into the wheel would overwrite its link to {@code u}. The owner's clear of {@code t}'s chain bit (an atomic and)
 * races the reschedule's CAS on the same word; neither may lose the other's change. The arbiter steps every
 * millisecond up to 70.
 *
 * <p>Result: the reschedule's answer, {@code t}'s runs, the clock (ms) at {@code t}'s run, and {@code u}'s runs (-1:
 * the owner's step threw, having followed an overwritten link).
 * {@link BrokenRescheduleVsChainedStart} is the same race with an owner that makes the move at once; it fails.
 */
@JCStressTest
@Description("Reschedule of a chained start vs the owner's drain: the move waits for the start, nothing behind it is lost")
@Outcome(id = "1, 1, 5, 1", expect = ACCEPTABLE,
        desc = "t ran once at its new deadline and u once at its own, whichever of the move and the start came first")
@Outcome(id = "., ., ., 0", expect = FORBIDDEN, desc = "LOST: u, chained behind t, never reached the wheel")
@Outcome(id = "., ., ., -1", expect = FORBIDDEN,
        desc = "CORRUPT: the owner followed t's link into the wheel (the move overwrote it while t was chained)")
@Outcome(id = "1, 1, 50, 1", expect = FORBIDDEN, desc = "IGNORED: the move was dropped and t ran at its old deadline")
@Outcome(expect = FORBIDDEN, desc = "a timer ran twice, never, or at another time, or the reschedule returned false")
@State
public class RescheduleVsChainedStart {

    private final ChainedStartRace race = new ChainedStartRace(CommandQueue.Flaw.NONE);

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

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
 * Race 4 through the overflow's resize (issue 23): as {@link ScheduleVsShutdownNow}, but the start queue has one ring
 * of 2 commands, no spare, and an overflow of chunks of 2 (see {@link Rigs#tinyOverflow}), holding three queued starts
 * (60 ms out): the producer's start (5 ms out, so it waits in the queue) links a new overflow chunk unless
 * {@code shutdownNow}'s collection took the third start first. The collection polls the start queue until it is
 * empty; JCTools' own poll reads a resize claim (an odd producer index) as empty, so the queue's poll must wait that
 * claim out, or the start is neither handed back nor rejected.
 *
 * <p>Result (see {@link QueuedStartVsShutdownNowRace}): schedule threw {@code RejectedExecutionException} (1), how
 * many timers shutdownNow handed back beyond the three queued before, whether the producer's future is cancelled, and
 * the pending count afterwards.
 */
@JCStressTest
@Description("schedule through the overflow's resize vs shutdownNow: rejected or handed back, never lost")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "rejected: schedule saw the STOP state on entry, or re-read it after its offer and revoked its timer")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE,
        desc = "handed back: shutdownNow's collection took the start (after waiting out its claim, if it came "
                + "mid-resize)")
@Outcome(id = "0, 0, 0, .*", expect = FORBIDDEN,
        desc = "LOST: schedule returned normally, yet its timer was neither handed back nor cancelled (the collection "
                + "stopped at the producer's claim and the producer saw no shutdown)")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN,
        desc = "rejected AND handed back: the caller was told it was refused, and shutdownNow's caller may run it")
@Outcome(expect = FORBIDDEN,
        desc = "any other combination: one of the three queued starts not handed back, a future cancelled though "
                + "handed back, or the pending count not back to 0 (an accounting leak)")
@State
public class ScheduleResizeVsShutdownNow {

    private final QueuedStartVsShutdownNowRace race = new QueuedStartVsShutdownNowRace(Rigs.tinyOverflow(new ManualClock(), CommandQueue.Flaw.NONE));

    @Actor
    public void producer() {
        race.producer();
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

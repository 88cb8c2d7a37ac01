package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
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
 * Race 12: {@code scheduleAtFixedRate} against {@code shutdownNow}, with the timer's own owner thread running
 * (started per state: in manual drive shutdownNow collects on the calling thread and cannot overlap a step). The
 * owner reads the run state at the top of a step and then drains the start queue; a shutdownNow landing in between
 * once made it end the periodic timer as {@code shutdown()} ends them (cancelled) instead of leaving it for the
 * hand-back, so an accepted timer that never ran was neither run nor handed back. Result: schedule was rejected (1),
 * shutdownNow handed the timer back (1), the returned future is cancelled (1).
 */
@JCStressTest
@Description("periodic schedule vs shutdownNow on a running owner: rejected or handed back, never ended unseen")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE,
        desc = "rejected: schedule saw the shutdown on entry, or revoked its own timer after its offer")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE,
        desc = "handed back: accepted before shutdownNow's collection, which claimed it for the caller")
@Outcome(id = "0, 0, 1", expect = FORBIDDEN,
        desc = "ENDED AS BY SHUTDOWN: accepted, then the owner took it from the queue after STOP and cancelled it, "
                + "so shutdownNow did not hand back a timer that never ran")
@Outcome(id = "0, 0, 0", expect = FORBIDDEN,
        desc = "LOST: accepted, neither handed back nor ended; its future never completes")
@Outcome(expect = FORBIDDEN, desc = "any other combination: rejected yet handed back, or handed back yet cancelled")
@State
public class PeriodicStartVsShutdownNow {

    private final WheelTimer timer = WheelTimer.builder().runTasksOnOwnerThread().ownerBatch(Rigs.BATCH).build();
    private ScheduledFuture<?> periodic;
    private boolean rejected;
    private List<Runnable> handedBack;

    @Actor
    public void producer() {
        try {
            periodic = timer.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS);
        } catch (RejectedExecutionException e) {
            rejected = true;
        }
    }

    @Actor
    public void stopper() {
        handedBack = timer.shutdownNow(); // returns once the owner has collected and exited
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = rejected ? 1 : 0;
        r.r2 = periodic != null && handedBack.size() == 1 && handedBack.get(0) == periodic ? 1 : 0;
        r.r3 = periodic != null && periodic.isCancelled() ? 1 : 0;
    }
}

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
 * Race 20: {@code reschedule} from a producer against the owner's step that fires the same one-shot timer (due at
 * 1 ms, the clock at 1 ms; the task runs inside the step). The reschedule defers it to 6 ms (one CAS from NEW, as
 * is the owner's hand-off, NEW -&gt; DISPATCHED). One of them wins: the task runs once at 1 ms and reschedule
 * returns false, or it runs once at 6 ms and reschedule returns true. The arbiter steps at 1 ms, then at 5 and 6 ms.
 *
 * <p>Result: reschedule's answer (1 = true), how many times the task ran, and the clock (ms) at its last run.
 */
@JCStressTest
@Description("One-shot reschedule vs fire: the task runs once, at the old deadline (false) or the new one (true)")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the fire claimed the run first: ran at the old deadline; false")
@Outcome(id = "1, 1, 6", expect = ACCEPTABLE,
        desc = "the reschedule deferred the timer before the owner's hand-off (NEW -> DISPATCHED), which then moved "
                + "it instead: ran once at the new deadline; true")
@Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "IGNORED: reschedule returned true, yet the task ran at the old deadline")
@Outcome(id = "0, 1, 6", expect = FORBIDDEN, desc = "reschedule returned false, yet the task ran at the new deadline")
@Outcome(id = "., 0, .", expect = FORBIDDEN, desc = "LOST: the task never ran")
@Outcome(expect = FORBIDDEN, desc = "ran twice, or at a time neither deadline names (early or late)")
@State
public class RescheduleVsFire {

    private final ManualClock clock = new ManualClock();
    private final WheelTimer timer = Rigs.direct(clock);
    private final TimerFuture<?> future;
    /** Written by the task (on the stepping thread), read by the arbiter. */
    private int runs;
    private long ranAtMs;

    public RescheduleVsFire() {
        future = timer.schedule(() -> {
            runs++;
            ranAtMs = clock.nanoTime() / ManualClock.MS;
        }, 1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step(); // in the wheel at key 1
        clock.advanceMillis(1); // due: the actor's step fires it
    }

    @Actor
    public void producer(III_Result r) {
        r.r1 = future.reschedule(5, TimeUnit.MILLISECONDS) ? 1 : 0; // 1 + 5 = 6 ms
    }

    @Actor
    public void owner() {
        OwnerLoop.of(timer).step();
    }

    @Arbiter
    public void after(III_Result r) {
        OwnerLoop.of(timer).step(); // takes a move command the race step did not see
        clock.advanceMillis(4);
        OwnerLoop.of(timer).step(); // 5 ms: nothing may run yet
        clock.advanceMillis(1);
        OwnerLoop.of(timer).step(); // 6 ms
        r.r2 = runs;
        r.r3 = (int) ranAtMs;
    }
}

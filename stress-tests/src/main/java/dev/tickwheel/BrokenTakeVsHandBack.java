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
 * A deliberately BROKEN consumer, to show that {@link TakeVsHandBack} can fail: the worker pops without taking the
 * consumers' turn ({@link HandOffQueue#pollWithoutTurn}), so it and the hand-back run the single-consumer pop at
 * once, and a timer can be taken by both, or skipped by both.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenTakeVsHandBack -m quick}. It is expected to FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN worker (pops without the consumers' turn) vs hand-back: expected to take a timer twice")
@Outcome(id = "1, 1, [01], [01]", expect = ACCEPTABLE,
        desc = "each timer taken once: run by the worker or handed back (the worker may take the first, the second, "
                + "both or neither)")
@Outcome(id = "2, .*", expect = FORBIDDEN, desc = "the first timer was taken twice")
@Outcome(id = "., 2, .*", expect = FORBIDDEN, desc = "the second timer was taken twice")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the first timer was stranded in the queue")
@Outcome(id = "., 0, .*", expect = FORBIDDEN, desc = "the second timer was stranded in the queue")
@Outcome(expect = FORBIDDEN, desc = "a timer both ran and was handed back, or neither")
@State
public class BrokenTakeVsHandBack {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    private final int[] runs = new int[2];
    private final int[] takes = new int[2];
    private final int[] returned = new int[2];
    private final ScheduledTimer<?> first = Rigs.takenFromOwnPool(() -> runs[0]++);
    private final ScheduledTimer<?> second = Rigs.takenFromOwnPool(() -> runs[1]++);

    public BrokenTakeVsHandBack() {
        pool.detachedWorker();
        pool.dispatch(first); // the owner's chain, as a step builds it
        pool.dispatch(second);
        pool.afterBatch(false); // one push; its signal finds the pool full and nobody parked
    }

    private int index(TimingWheel.Node n) {
        return n == first ? 0 : n == second ? 1 : -1;
    }

    @Actor
    public void worker() {
        for (int retries = 0; retries < 10_000; ) {
            TimingWheel.Node n = pool.queue.pollWithoutTurn(); // BROKEN: no turn
            if (n == HandOffQueue.RETRY) {
                retries++; // bounded: the broken pop can leave the queue cut for good
                Thread.onSpinWait();
                continue;
            }
            if (n == null) {
                return;
            }
            int i = index(n);
            if (i < 0) {
                return; // the broken pop handed out the stub
            }
            takes[i]++;
            ((ScheduledTimer<?>) n).runHandedOff();
        }
    }

    /** shutdownNow's hand-back as the pool does it (turn and all), but giving up where the broken pop left a cut. */
    @Actor
    public void shutdownNow() {
        for (int retries = 0; retries < 10_000; ) {
            TimingWheel.Node n = pool.queue.poll();
            if (n == HandOffQueue.RETRY) {
                retries++;
                Thread.onSpinWait();
                continue;
            }
            if (n == null) {
                return;
            }
            int i = index(n);
            if (i < 0) {
                return;
            }
            takes[i]++;
            if (((ScheduledTimer<?>) n).claimReturned()) {
                returned[i]++;
            }
        }
    }

    @Arbiter
    public void after(IIII_Result r) {
        r.r1 = takes[0];
        r.r2 = takes[1];
        r.r3 = ending(0);
        r.r4 = ending(1);
    }

    private int ending(int i) {
        return runs[i] == 1 && returned[i] == 0 ? 0 : runs[i] == 0 && returned[i] == 1 ? 1
                : runs[i] > 0 && returned[i] > 0 ? 2 : 3;
    }
}

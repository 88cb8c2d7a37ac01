package dev.tickwheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A deliberately BROKEN park, to show that {@link HandOffVsParkBehindBatch} can fail: worker B announces its park as
 * {@link WorkerPool#announcePark} does (PARKED, off the awake count, onto the idle stack, then a second look), but its
 * second look peeks into the batch at the queue's head instead of reading the queue's ends ({@code head} and
 * {@code tail}, as {@link HandOffQueue#isEmpty} does): it reads the batch's claim index, then the slot it names, and
 * answers "empty" if that slot is null. A claim nulls its slot before it advances the index
 * ({@code HandOffQueue.claim}), so a look between those two stores of A's first claim reads the batch as empty with
 * two of its timers unclaimed; B parks, and A's recruit is held back by the cap (A itself counts as awake). Before
 * A's claim and after it, the peek is right (the slot it names holds a timer): only the race shows the bug. The look
 * is re-implemented here; nothing in the library changes.
 *
 * <p>Not part of the build's jcstress run (the CI selection excludes {@code Broken*}); run it by hand:
 * {@code java -jar stress-tests/target/jcstress.jar -t BrokenHandOffVsParkBehindBatch -m quick}. It is expected to
 * FAIL.
 */
@JCStressTest
@Description("DELIBERATELY BROKEN park (a second look that peeks into the head batch) vs a take from that batch: "
        + "expected to show a lost wake-up")
@Outcome(id = "0, 0, 2, 1", expect = ACCEPTABLE,
        desc = "B's peek found the next timer's slot filled (before A's claim, or after it advanced the index): B "
                + "popped itself off the idle stack")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "B decided to park after a waker had popped it, whose ACTIVE store followed: woken (not expected at "
                + "cap 1)")
@Outcome(id = "., 2, .*", expect = FORBIDDEN,
        desc = "LOST WAKE-UP: B's peek fell between A's claim nulling slot 0 and advancing the index, read the batch "
                + "as empty, and B parked beside two unclaimed timers")
@Outcome(id = "., [01], ., 0", expect = FORBIDDEN,
        desc = "A took nothing or not the first timer, or a timer was handed out twice or never")
@Outcome(expect = FORBIDDEN, desc = "a state the handshake cannot reach (timers lost or taken twice)")
@State
public class BrokenHandOffVsParkBehindBatch {

    private final WorkerPool pool = new WorkerPool(2, r -> {
        throw new AssertionError("no thread is started in this test");
    }, 1);
    private final WorkerPool.Worker a = pool.detachedWorker();
    private final WorkerPool.Worker b = pool.detachedWorker();
    private final ScheduledTimer<?>[] timers = {Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff()};
    private TimingWheel.Node tookA;
    private boolean parks;

    public BrokenHandOffVsParkBehindBatch() {
        for (ScheduledTimer<?> t : timers) {
            pool.dispatch(t);
        }
        pool.afterBatch(false);
    }

    @Actor
    public void takeOne() {
        tookA = pool.take(a);
    }

    @Actor
    public void announcePark() {
        pool.pushIdle(b); // as announcePark: PARKED, off the awake count, onto the idle stack
        if (!peeksEmpty()) { // BROKEN: the second look peeks into the head batch (shutdown is never set here)
            pool.wakeOne();
        }
        parks = b.state == WorkerPool.PARKED;
    }

    /**
     * BROKEN second look: the next timer to hand out, peeked at through the head batch's claim index; "empty" when
     * that slot is null. Racy by design: the index and the slot are read plainly, while A's claim writes them.
     */
    private boolean peeksEmpty() {
        HandOffQueue q = pool.queue;
        TimingWheel.Node h = q.head;
        if (h == q.stub) {
            h = h.next; // the first node behind the stub
            if (h == null) {
                return q.tail == q.stub; // nothing linked: empty unless a push is mid-link
            }
        }
        if (h instanceof HandOffBatch) {
            HandOffBatch batch = (HandOffBatch) h;
            int j = batch.claimed;
            return batch.items[j] == null; // BROKEN: a claim nulls slot j before it advances the index
        }
        return false;
    }

    @Arbiter
    public void after(IIII_Result r) {
        List<TimingWheel.Node> left = Rigs.drain(pool.queue);
        r.r1 = parks ? 1 : 0;
        r.r2 = b.state;
        r.r3 = left.size();
        r.r4 = Rigs.firstTakenThenEachOnce(timers, tookA, left) ? 1 : 0;
    }
}

package dev.tickwheel;

import java.util.concurrent.ExecutionException;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@link OwnerFailureVsTake}'s state and actors' bodies, shared with its broken twin: a pool (no threads; its worker
 * is the actor) with one handed-off timer queued, whose own timer the owner actor fails as {@code OwnerLoop.fail}
 * does. The timer belongs to a timer with its own pool ({@link Rigs#takenFromOwnPool}), so that the worker's run is
 * the pool's one-CAS claim (session 41), as in the library. Each field is written by one actor only, and read by the
 * arbiter once both have returned.
 */
final class OwnerFailureRig {

    private final WorkerPool pool = new WorkerPool(1, r -> {
        throw new AssertionError("no thread is started in this test");
    });
    private int runs;
    private final ScheduledTimer<?> timer = Rigs.takenFromOwnPool(() -> runs++);
    private final WheelTimer owner = timer.timer();
    private final Error injected = new Error("owner failure (jcstress)");
    private int ownerTakes;
    private int workerTakes;
    private boolean sawStop;

    OwnerFailureRig() {
        pool.detachedWorker();
        pool.dispatch(timer); // the owner's hand-off, as a step makes it
        pool.afterBatch(false); // one push; its signal finds the pool full and nobody parked
    }

    /** The owner's failure, in OwnerLoop.fail's order: the failure, STOP, then the claim on the pool's queue. */
    void ownerFails() {
        owner.termination.fail(injected);
        owner.advanceRunState(CommandPort.STOP);
        IllegalStateException cause = Termination.ownerFailed(injected);
        pool.held.handBack(t -> { // as WorkerPool.failQueued, counting its claims
            ownerTakes++;
            t.fail(cause);
        });
    }

    /** A worker: reads the run state, then takes what is queued and runs it as the pool does (broken: no look). */
    void workerTakes(boolean looksAtFailure) {
        sawStop = owner.runState() != CommandPort.ACTIVE;
        for (;;) {
            TimingWheel.Node n = pool.queue.poll();
            if (n == HandOffQueue.RETRY) {
                Thread.onSpinWait(); // as WorkerPool.take: the hand-back holds the turn
                continue;
            }
            if (n == null) {
                return;
            }
            workerTakes++;
            ScheduledTimer<?> t = (ScheduledTimer<?>) n;
            if (looksAtFailure) {
                t.runHandedOff();
            } else {
                t.runHandedOffIgnoringFailure();
            }
        }
    }

    void result(III_Result r) {
        r.r1 = sawStop ? 1 : 0;
        boolean failed = false;
        if (timer.isDone() && !timer.isCancelled()) {
            try {
                timer.get();
            } catch (ExecutionException e) {
                failed = e.getCause() instanceof IllegalStateException && e.getCause().getCause() == injected;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        r.r2 = runs == 1 && !failed ? 0 : runs == 0 && failed ? 1 : runs > 0 && failed ? 2 : 3;
        r.r3 = ownerTakes + workerTakes;
    }
}

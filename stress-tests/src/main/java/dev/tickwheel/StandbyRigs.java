package dev.tickwheel;

import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Rigs for the standby's jcstress tests: a one-worker pool with a standby host whose clock never reaches a tick, and
 * a pool whose standby's tick has come while it is still in its slot.
 */
final class StandbyRigs {

    private StandbyRigs() {
    }

    static WorkerPool pool() {
        WorkerPool pool = new WorkerPool(1, r -> {
            throw new AssertionError("no thread is started in this test");
        });
        pool.standbySlot.host = new StandbySlot.Host() {
            @Override
            public long nanosUntilTick(long tick) {
                return Long.MAX_VALUE; // every tick is far off: the standby would park, never step
            }

            @Override
            public boolean standbyStep() {
                throw new AssertionError("the standby never steps in this test");
            }
        };
        return pool;
    }

    /**
     * A two-worker pool (full: nothing is started) whose standby stands in its slot for tick 1, which has come: its
     * timed wake-up has fired and it waits for a CPU. The other worker is parked on the idle stack.
     */
    static final class StalledStandby {
        final WorkerPool pool;
        final WorkerPool.Worker standby;
        final WorkerPool.Worker parked;
        private final ScheduledTimer<?> timer = Rigs.handedOff();
        private boolean tickCame;
        /** Written by the standby's actor, read by the arbiter. */
        private boolean left;

        StalledStandby() {
            pool = new WorkerPool(2, r -> {
                throw new AssertionError("no thread is started in this test");
            });
            pool.standbySlot.host = new StandbySlot.Host() {
                @Override
                public long nanosUntilTick(long tick) {
                    return tickCame ? -1 : 1_000_000_000L;
                }

                @Override
                public boolean standbyStep() {
                    throw new AssertionError("the standby does not step in this test");
                }
            };
            standby = pool.detachedWorker();
            parked = pool.detachedWorker();
            if (!pool.standbySlot.readyAt(1, true) || !pool.standbySlot.take(standby)
                    || pool.standbySlot.arm(standby) != 1) {
                throw new IllegalStateException("the standby did not arm for tick 1");
            }
            pool.idleWorkers.pushIdle(parked);
            tickCame = true; // published to the actors with the state, as jcstress publishes every state
        }

        /** The producer's actor: a push, then the signal ({@code oldRule}: as before session 29, the broken twin's). */
        void pushAndSignal(boolean oldRule) {
            pool.queue.push(timer);
            if (oldRule) {
                pool.idleWorkers.signalTakingADueStandbyFirst();
            } else {
                pool.idleWorkers.signal();
            }
        }

        /** The standby's actor: given its CPU at last, it leaves the slot at its tick, as its timed wake-up does. */
        void leaveAtTick() {
            left = pool.standbySlot.leave(standby);
        }

        /**
         * The arbiter: whether the standby left by itself (1), the parked worker's state, the standby's state, the
         * awake count.
         */
        void record(IIII_Result r) {
            r.r1 = left ? 1 : 0;
            r.r2 = parked.state;
            r.r3 = standby.state;
            r.r4 = pool.idleWorkers.awakeWorkers();
        }
    }
}

package dev.tickwheel;

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
        private boolean tickCame;

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
    }
}

package dev.tickwheel;

/** A one-worker pool with a standby host whose clock never reaches a tick, for the standby's jcstress tests. */
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
}

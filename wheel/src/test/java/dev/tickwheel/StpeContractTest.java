package dev.tickwheel;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * The contract suite against the JDK's {@link ScheduledThreadPoolExecutor}, the reference {@link WheelTimer}
 * follows: if a case fails here, the case is wrong, not WheelTimer. Configured as the nearest equivalent of a
 * default WheelTimer: two threads, and cancelled tasks removed from the queue at once (WheelTimer unlinks them
 * from its wheel soon after cancel, and never hands them back from {@code shutdownNow}).
 */
class StpeContractTest extends ScheduledExecutorContractTest {

    private static final int WORKERS = 2;

    @Override
    ScheduledExecutorService newExecutor() {
        ScheduledThreadPoolExecutor stpe = new ScheduledThreadPoolExecutor(WORKERS);
        stpe.setRemoveOnCancelPolicy(true);
        return stpe;
    }

    @Override
    ScheduledExecutorService newExecutor(int workers) {
        ScheduledThreadPoolExecutor stpe = new ScheduledThreadPoolExecutor(workers);
        stpe.setRemoveOnCancelPolicy(true);
        return stpe;
    }

    @Override
    int workerThreads() {
        return WORKERS;
    }

    @Override
    long delayRoundingNanos() {
        return 0;
    }
}

package dev.tickwheel.bench.peer;

import dev.tickwheel.bench.Task;
import dev.tickwheel.bench.TimerAdapter;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@link ScheduledThreadPoolExecutor} with one thread and {@code setRemoveOnCancelPolicy(true)}, so that
 * a cancelled timer leaves the queue at once instead of at its deadline (without it, a ring of 30-60 s timeouts
 * would keep a minute of cancelled tasks in the heap).
 */
public final class JdkSchedulerAdapter implements TimerAdapter {
    private final ScheduledThreadPoolExecutor executor;

    public JdkSchedulerAdapter() {
        executor = new ScheduledThreadPoolExecutor(1, new DaemonThreads("jdk-stpe"));
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Object schedule(Task task, long delayMs) {
        return executor.schedule(task, delayMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void cancel(Object handle) {
        ((ScheduledFuture<?>) handle).cancel(false);
    }

    @Override
    public void close() {
        executor.shutdownNow();
        Shutdowns.await(executor);
    }
}

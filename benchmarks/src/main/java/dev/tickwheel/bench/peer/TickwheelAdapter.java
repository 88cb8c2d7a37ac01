package dev.tickwheel.bench.peer;

import dev.tickwheel.TimerMetrics;
import dev.tickwheel.WheelTimer;
import dev.tickwheel.bench.Task;
import dev.tickwheel.bench.TimerAdapter;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Tickwheel's {@link WheelTimer}: its defaults, or tasks run on the owner thread, or another tick. For experiments
 * with the wheel's layout, {@code -Dtickwheel.bench.levelBits=10,10,...} gives the builder other levels, and
 * {@code -Dtickwheel.bench.schedulerSliceNanos=N} asks for its scheduler slice (no suite figure uses either).
 */
public final class TickwheelAdapter implements TimerAdapter {
    private final WheelTimer timer;

    public TickwheelAdapter(boolean tasksOnOwner, long tickNanos) {
        this(tasksOnOwner, tickNanos, 0);
    }

    /** @param workers the own pool's size, or 0 for the default (max(2, CPUs)); ignored with tasks on the owner */
    public TickwheelAdapter(boolean tasksOnOwner, long tickNanos, int workers) {
        WheelTimer.Builder b = WheelTimer.builder().tick(tickNanos, TimeUnit.NANOSECONDS);
        String levels = System.getProperty("tickwheel.bench.levelBits"); // for experiments: "10,8,..."
        if (levels != null && !levels.isBlank()) {
            b.levelBits(java.util.Arrays.stream(levels.split(",")).mapToInt(x -> Integer.parseInt(x.trim())).toArray());
        }
        String chunks = System.getProperty("tickwheel.bench.pooledQueueChunks"); // for experiments: the rings' size
        if (chunks != null && !chunks.isBlank()) {
            b.pooledQueueChunks(Integer.parseInt(chunks.trim()));
        }
        // For the busy-machine runs: the builder's schedulerSlice (JDK 22+, --enable-native-access=ALL-UNNAMED).
        String slice = System.getProperty("tickwheel.bench.schedulerSliceNanos");
        if (slice != null && !slice.isBlank()) {
            b.schedulerSlice(java.time.Duration.ofNanos(Long.parseLong(slice.trim())));
        }
        if (tasksOnOwner) {
            b.runTasksOnOwnerThread();
        } else if (workers > 0) {
            b.workerThreads(workers);
        }
        this.timer = b.build();
    }

    @Override
    public Object schedule(Task task, long delayMs) {
        return timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void cancel(Object handle) {
        ((ScheduledFuture<?>) handle).cancel(false);
    }

    /** Turns the timer's lateness record on (off by default: a clock read per run) and starts it afresh. */
    @Override
    public void resetOwnLateness() {
        timer.recordLateness(true);
        timer.resetLateness();
    }

    @Override
    public long[] ownLateness() {
        TimerMetrics.Lateness l = timer.metrics().lateness();
        return new long[] {l.count(), l.p50Nanos(), l.p99Nanos(), l.p999Nanos(), l.maxNanos()};
    }

    @Override
    public long[] handOffCounts() {
        TimerMetrics m = timer.metrics();
        return new long[] {m.fired(), m.handOffs(), m.workerWakeups(), m.commandQueueSpills()};
    }

    @Override
    public void close() {
        timer.shutdownNow();
        Shutdowns.await(timer);
    }
}

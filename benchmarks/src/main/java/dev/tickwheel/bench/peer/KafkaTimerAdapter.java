package dev.tickwheel.bench.peer;

import dev.tickwheel.bench.Task;
import dev.tickwheel.bench.TimerAdapter;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.server.util.timer.SystemTimer;
import org.apache.kafka.server.util.timer.SystemTimerReaper;
import org.apache.kafka.server.util.timer.TimerTask;

/**
 * Kafka's {@link SystemTimer} set up as a Kafka broker's purgatory sets it up: {@code new SystemTimerReaper(name,
 * new SystemTimer(name))}, whose reaper thread loops on {@code advanceClock(200 ms)}; expired tasks run on the
 * timer's single executor thread. Kafka's API wants a {@link TimerTask} subclass per timer, allocated here.
 */
public final class KafkaTimerAdapter implements TimerAdapter {
    private static final AtomicInteger IDS = new AtomicInteger();

    private final SystemTimerReaper timer;

    public KafkaTimerAdapter() {
        String name = "bench-" + IDS.incrementAndGet();
        timer = new SystemTimerReaper(name + "-reaper", new SystemTimer(name));
    }

    @Override
    public Object schedule(Task task, long delayMs) {
        KafkaTask t = new KafkaTask(delayMs, task);
        timer.add(t);
        return t;
    }

    @Override
    public void cancel(Object handle) {
        ((TimerTask) handle).cancel();
    }

    @Override
    public void close() {
        try {
            timer.close(); // stops the reaper, then the executor
        } catch (Exception e) {
            throw new IllegalStateException("Kafka's timer failed to close", e);
        }
    }

    /** The minimal Kafka timer task: its delay (Kafka's field) and the work. */
    static final class KafkaTask extends TimerTask {
        private final Task task;

        KafkaTask(long delayMs, Task task) {
            super(delayMs);
            this.task = task;
        }

        @Override
        public void run() {
            task.run();
        }
    }
}

package dev.tickwheel.bench.peer;

import dev.tickwheel.bench.Task;
import dev.tickwheel.bench.TimerAdapter;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;

/**
 * The physical floor of a lock-free timer shell, not a timer: a start allocates the smallest possible handle and
 * offers it to a JCTools MPSC queue, a cancel offers the handle to a second queue, and one consumer thread drains
 * both (the same queue type and chunking as Tickwheel's). Nothing is kept and nothing fires. When both queues are
 * empty the consumer parks for 50 µs.
 */
public final class MpscFloorAdapter implements TimerAdapter {
    private static final int BATCH = 16_384;

    private final MpscUnboundedXaddArrayQueue<Object> starts = new MpscUnboundedXaddArrayQueue<>(1024, 8);
    private final MpscUnboundedXaddArrayQueue<Object> cancels = new MpscUnboundedXaddArrayQueue<>(1024, 8);
    private final Thread consumer;
    /** Written by close(), read by the consumer. */
    private volatile boolean running = true;
    /** Drained commands; consumer-confined, published by the thread's end (join). */
    private long drained;

    public MpscFloorAdapter() {
        consumer = new DaemonThreads("mpsc-floor").newThread(this::drainLoop);
        consumer.start();
    }

    private void drainLoop() {
        MessagePassingQueue.Consumer<Object> sink = x -> drained++;
        while (running) {
            int n = cancels.drain(sink, BATCH) + starts.drain(sink, BATCH);
            if (n == 0) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
            }
        }
        cancels.drain(sink);
        starts.drain(sink);
    }

    @Override
    public Object schedule(Task task, long delayMs) {
        Handle h = new Handle();
        starts.offer(h);
        return h;
    }

    @Override
    public void cancel(Object handle) {
        cancels.offer(handle);
    }

    /** @return commands drained; valid after {@link #close()} */
    public long drained() {
        return drained;
    }

    @Override
    public void close() {
        running = false;
        try {
            consumer.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (consumer.isAlive()) {
            throw new IllegalStateException("the MPSC floor's consumer did not stop");
        }
    }

    /** The smallest handle: an object header. */
    static final class Handle {
    }
}

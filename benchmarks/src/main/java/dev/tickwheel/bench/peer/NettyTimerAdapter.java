package dev.tickwheel.bench.peer;

import dev.tickwheel.bench.Task;
import dev.tickwheel.bench.TimerAdapter;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import java.util.concurrent.TimeUnit;

/**
 * Netty's {@link HashedWheelTimer}: its worker thread ticks at a fixed rate, takes new timeouts from an MPSC queue
 * (at most 100,000 a tick), removes cancelled ones and runs the expired tasks itself. 512 ticks per wheel (the
 * default); the tick is 1 ms (fine-grained timeouts) or the default 100 ms.
 */
public final class NettyTimerAdapter implements TimerAdapter {
    private final HashedWheelTimer timer;

    public NettyTimerAdapter(long tick, TimeUnit unit) {
        timer = new HashedWheelTimer(new DaemonThreads("netty-" + unit.toMillis(tick) + "ms"), tick, unit, 512);
        timer.start();
    }

    @Override
    public Object schedule(Task task, long delayMs) {
        return timer.newTimeout(task, delayMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void cancel(Object handle) {
        ((Timeout) handle).cancel();
    }

    @Override
    public void close() {
        timer.stop(); // joins the worker
    }
}

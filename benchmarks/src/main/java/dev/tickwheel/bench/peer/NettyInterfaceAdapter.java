package dev.tickwheel.bench.peer;

import dev.tickwheel.bench.Task;
import dev.tickwheel.bench.TimerAdapter;
import dev.tickwheel.netty.NettyWheelTimer;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.concurrent.TimeUnit;

/**
 * Any {@link io.netty.util.Timer}, called only through Netty's interfaces ({@link Timer#newTimeout},
 * {@link Timeout#cancel}, {@link Timer#stop}), as a library that is handed a timer calls it: the Netty drop-in
 * ({@link NettyWheelTimer}) and the {@link HashedWheelTimer} it replaces, measured by the same code.
 */
public final class NettyInterfaceAdapter implements TimerAdapter {
    private final Timer timer;

    private NettyInterfaceAdapter(Timer timer) {
        this.timer = timer;
    }

    /** Tickwheel's {@link NettyWheelTimer}: its defaults, or tasks on the timer's thread. */
    public static NettyInterfaceAdapter tickwheel(boolean tasksOnTimerThread) {
        NettyWheelTimer.Builder b = NettyWheelTimer.builder().threadFactory(new DaemonThreads("tickwheel-netty"));
        if (tasksOnTimerThread) {
            b.runTasksOnTimerThread();
        }
        return new NettyInterfaceAdapter(b.build());
    }

    /** Netty's {@link HashedWheelTimer} with this tick and its default 512 ticks per wheel, started. */
    public static NettyInterfaceAdapter hashedWheel(long tick, TimeUnit unit) {
        return hashedWheel(tick, unit, "hwt-");
    }

    /**
     * The same, its thread named {@code threadPrefix} + the tick (the idle-CPU scenario finds a peer's threads by
     * name).
     */
    public static NettyInterfaceAdapter hashedWheel(long tick, TimeUnit unit, String threadPrefix) {
        HashedWheelTimer t = new HashedWheelTimer(new DaemonThreads(threadPrefix + unit.toMillis(tick) + "ms"), tick,
                unit, 512);
        t.start();
        return new NettyInterfaceAdapter(t);
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
        timer.stop(); // both wait for their threads' tasks to end
    }
}

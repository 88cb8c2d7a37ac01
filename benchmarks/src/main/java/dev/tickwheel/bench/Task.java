package dev.tickwheel.bench;

import io.netty.util.Timeout;

/**
 * The work a benchmark timer does when it fires. One object serves every peer without a per-call wrapper: it is a
 * {@link Runnable} for the JDK and Tickwheel, and a Netty {@link io.netty.util.TimerTask} too. (Kafka's timer
 * needs its own {@code TimerTask} subclass per timer, which its adapter allocates: that cost is Kafka's API.)
 */
public abstract class Task implements Runnable, io.netty.util.TimerTask {

    @Override
    public final void run(Timeout timeout) {
        run();
    }
}

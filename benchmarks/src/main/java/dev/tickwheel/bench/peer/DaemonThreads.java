package dev.tickwheel.bench.peer;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Named daemon threads, so that a benchmark that fails half-way never hangs its JVM on a peer's thread. */
final class DaemonThreads implements ThreadFactory {
    private final String prefix;
    private final AtomicInteger count = new AtomicInteger();

    DaemonThreads(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
        t.setDaemon(true);
        return t;
    }
}

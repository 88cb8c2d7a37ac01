package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A {@link ThreadFactory} for the fault tests: daemon threads that it remembers, in creation order, with an
 * uncaught-exception handler that records what escaped them. A {@link WheelTimer} built with it creates its owner
 * thread in {@code build()} and its workers on demand; the Runnable it hands the factory names its role.
 */
final class FaultThreads implements ThreadFactory {

    /** Every thread created, in order. Appended by whichever thread calls newThread. */
    final List<Thread> created = new CopyOnWriteArrayList<>();
    /** What escaped a thread; appended by the dying thread. */
    final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    /** Counted down when something escapes a thread. */
    final CountDownLatch anyUncaught = new CountDownLatch(1);
    private final String prefix;
    /** Set by whichever thread creates the owner (in build()); read by the test thread after build() returned. */
    private volatile Thread owner;

    FaultThreads(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, prefix + "-" + created.size());
        t.setDaemon(true);
        t.setUncaughtExceptionHandler((thread, e) -> {
            uncaught.add(e);
            anyUncaught.countDown();
        });
        created.add(t);
        if (r.toString().endsWith("-owner")) {
            owner = t;
        }
        return t;
    }

    /** The owner thread of a timer built with this factory: the one whose Runnable names the owner role. */
    Thread owner() {
        return owner;
    }

    /**
     * Waits for a condition that other threads will make true, polling; fails with {@code what} after 30 s (a hang
     * guard, not a timing bound: every use waits for something that must happen).
     */
    static void awaitCondition(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("gave up after 30 s waiting for: " + what);
            }
            LockSupport.parkNanos(100_000);
        }
    }

    /** Waits until a thread is blocked (WAITING or TIMED_WAITING), e.g. parked inside get() or awaitTermination(). */
    static void awaitBlocked(Thread t) {
        awaitCondition(t.getName() + " blocked", () -> {
            Thread.State s = t.getState();
            return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
        });
    }
}

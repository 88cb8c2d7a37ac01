package dev.tickwheel;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Thread creation for a timer: the default factory (named, non-daemon unless asked), the role each thread's
 * {@link Runnable} names so that a user's factory can tell the owner from the workers, and the checks that turn a
 * broken factory into a clear {@link IllegalStateException}.
 */
final class TimerThreads {

    private TimerThreads() {
    }

    /** The default factory: threads named {@code prefix} (an owner) or {@code prefix-M} (workers). */
    static ThreadFactory named(String prefix, boolean daemon) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix.endsWith("-owner") ? prefix : prefix + "-" + count.incrementAndGet());
            t.setDaemon(daemon);
            return t;
        };
    }

    /**
     * Creates (does not start) the owner thread to run {@code loop}, whose Runnable names the role {@code role}.
     *
     * @throws IllegalStateException if the factory throws, returns null or returns a started thread
     */
    static Thread newOwner(ThreadFactory factory, String role, Runnable loop) {
        return checked(factory, new Role(role, loop), "the owner thread");
    }

    /**
     * The pool's factory: each worker's Runnable names the role {@code role}; every thread made is passed to
     * {@code made}. A broken factory throws here rather than return null, since the pool would then queue the task
     * with no worker to run it; the exception reaches the owner's hand-off, which fails that timer's future.
     */
    static ThreadFactory checkedWorkers(ThreadFactory factory, String role, Consumer<Thread> made) {
        return r -> {
            Thread t = checked(factory, new Role(role, r), "a worker thread");
            made.accept(t);
            return t;
        };
    }

    /**
     * @return a Runnable that runs {@code body} and names the role {@code role} in its {@link #toString()}, as the
     *         owner's and the workers' do (the scheduler slice wraps a role in one, so the user's factory still sees
     *         the role's name)
     */
    static Runnable role(String role, Runnable body) {
        return new Role(role, body);
    }

    /** Asks the factory for a thread; one that throws, returns null or returns a started thread is named. */
    private static Thread checked(ThreadFactory factory, Role r, String which) {
        Thread t;
        try {
            t = factory.newThread(r);
        } catch (RuntimeException | Error e) {
            throw new IllegalStateException("the ThreadFactory threw while creating " + which, e);
        }
        if (t == null) {
            throw new IllegalStateException("the ThreadFactory returned null for " + which);
        }
        if (t.getState() != Thread.State.NEW) {
            throw new IllegalStateException("the ThreadFactory returned " + which + " already started (" + t + ")");
        }
        return t;
    }

    /**
     * What a {@link ThreadFactory} is handed to run: the owner loop or a pool worker, named by its
     * {@link #toString()} ({@code tickwheel-N-owner}, {@code tickwheel-N-worker}).
     */
    private static final class Role implements Runnable {
        private final String role;
        private final Runnable body;

        Role(String role, Runnable body) {
            this.role = role;
            this.body = body;
        }

        @Override
        public void run() {
            body.run();
        }

        @Override
        public String toString() {
            return role;
        }
    }
}

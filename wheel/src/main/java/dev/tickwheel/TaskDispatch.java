package dev.tickwheel;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Where due tasks run: the timer's own pool, an {@link Executor} the user supplies, or the owner thread itself.
 * One of the three is chosen when the timer is built; the owner hands every due timer to {@link #dispatch} and asks
 * the same object at shutdown what it still holds.
 *
 * <p>{@link #dispatch} is called by the owner thread only; the lifecycle methods by the owner (or the thread that
 * collects for shutdownNow once the owner is gone) and by any thread waiting for termination.
 */
abstract class TaskDispatch {

    /**
     * Hands a due timer over to run. A hand-off that throws (an executor that rejects it, a thread factory that
     * fails for a new worker) completes the timer's future exceptionally with what it threw.
     */
    abstract void dispatch(ScheduledTimer<?> t);

    /** Whether a task may be running on the owner thread (so shutdownNow interrupts the owner). */
    boolean runsOnOwner() {
        return false;
    }

    /** Whether {@code t} is one of the pool's own threads (close() from a task must not wait for itself). */
    boolean isPoolThread(Thread t) {
        return false;
    }

    /** The owner exits: no more hand-offs. */
    void shutdown() {
    }

    /** shutdownNow: interrupt running tasks and pass what was handed off but not started to {@code claim}. */
    void handBack(Consumer<ScheduledTimer<?>> claim) {
    }

    /** The owner failed: what was handed off but not started fails with {@code cause}; running tasks finish. */
    void failQueued(Throwable cause) {
    }

    boolean isTerminated() {
        return true;
    }

    boolean awaitTermination(long nanos) throws InterruptedException {
        return true;
    }

    static TaskDispatch ownerThread() {
        return new OwnerThread();
    }

    static TaskDispatch executor(Executor executor) {
        return new UserExecutor(executor);
    }

    /** @param factory the worker factory (see {@link TimerThreads#checkedWorkers}), given the role to name */
    static TaskDispatch ownPool(int workers, ThreadFactory factory, String role) {
        return new OwnPool(workers, factory, role);
    }

    /** Tasks run inside the owner's step: no hand-off, for tiny non-blocking tasks. */
    private static final class OwnerThread extends TaskDispatch {
        @Override
        void dispatch(ScheduledTimer<?> t) {
            t.run();
            Thread.interrupted(); // a task's interrupt must not reach the owner's park
        }

        @Override
        boolean runsOnOwner() {
            return true;
        }
    }

    /** The user's executor: tasks handed to it are its own to run, even after shutdownNow. */
    private static class UserExecutor extends TaskDispatch {
        final Executor executor;

        UserExecutor(Executor executor) {
            this.executor = executor;
        }

        @Override
        void dispatch(ScheduledTimer<?> t) {
            try {
                executor.execute(t);
            } catch (Throwable e) {
                t.fail(e);
            }
        }
    }

    /**
     * The timer's own pool: a {@link ThreadPoolExecutor} of fixed size whose workers start on demand, one per
     * hand-off until it is full. As in the JDK's scheduled executor, every hand-off goes through the pool's queue
     * (a worker is started first, with no task of its own): a task handed to a new worker directly, as
     * {@code execute} would, sits outside the queue, where neither shutdownNow's hand-back nor the owner's failure
     * could reach it before that worker runs it.
     */
    private static final class OwnPool extends UserExecutor {
        /** The pool's size. Final. */
        private final int workers;
        /** Workers started so far by hand-offs; owner thread only (plain). */
        private int started;
        /**
         * The pool's threads, so that close() from one of its tasks does not wait for itself. Added (concurrent
         * set) by whichever thread makes the pool create a worker; read by close().
         */
        private final Set<Thread> threads;

        OwnPool(int workers, ThreadFactory factory, String role) {
            this(workers, factory, role, ConcurrentHashMap.newKeySet());
        }

        private OwnPool(int workers, ThreadFactory factory, String role, Set<Thread> threads) {
            super(new ThreadPoolExecutor(workers, workers, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                    TimerThreads.checkedWorkers(factory, role, threads::add)));
            this.threads = threads;
            this.workers = workers;
        }

        private ThreadPoolExecutor pool() {
            return (ThreadPoolExecutor) executor;
        }

        @Override
        void dispatch(ScheduledTimer<?> t) {
            try {
                if (started < workers) {
                    startWorker();
                }
                pool().getQueue().add(t); // owner only, and only before it shuts the pool down
            } catch (Throwable e) {
                t.fail(e);
            }
        }

        /**
         * Starts one more worker. If the thread factory fails, the hand-off fails with it while no worker exists
         * (the task would wait forever); once one does, the task is queued for it and the next hand-off retries.
         */
        private void startWorker() {
            try {
                if (pool().prestartCoreThread()) {
                    started++;
                } else {
                    started = workers; // full already
                }
            } catch (RuntimeException | Error e) {
                if (started == 0) {
                    throw e;
                }
            }
        }

        @Override
        boolean isPoolThread(Thread t) {
            return threads.contains(t);
        }

        @Override
        void shutdown() {
            pool().shutdown();
        }

        @Override
        void handBack(Consumer<ScheduledTimer<?>> claim) {
            for (Runnable r : pool().shutdownNow()) {
                if (r instanceof ScheduledTimer) {
                    claim.accept((ScheduledTimer<?>) r);
                }
            }
        }

        @Override
        void failQueued(Throwable cause) {
            List<Runnable> queued = new ArrayList<>();
            pool().getQueue().drainTo(queued);
            for (Runnable r : queued) {
                if (r instanceof ScheduledTimer) {
                    ((ScheduledTimer<?>) r).fail(cause);
                }
            }
        }

        @Override
        boolean isTerminated() {
            return pool().isTerminated();
        }

        @Override
        boolean awaitTermination(long nanos) throws InterruptedException {
            return pool().awaitTermination(nanos, TimeUnit.NANOSECONDS);
        }
    }
}

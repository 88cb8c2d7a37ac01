package dev.tickwheel.netty;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickwheel.CustomTimer;
import dev.tickwheel.TimerFuture;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The contract suite against {@link NettyWheelTimer} with its defaults, plus what it documents beyond or unlike
 * {@code HashedWheelTimer}: the timeout is the Tickwheel timer itself, tasks run on a pool (or, on request, one at a
 * time on the timer's thread, or on the user's executor), the failure log names the task, a cancel frees its place
 * under the limit at once, and stop() leaves no thread behind.
 */
class NettyWheelTimerContractTest extends NettyTimerContractTest {

    @Override
    Timer newTimer() {
        return new NettyWheelTimer();
    }

    @Override
    Timer newTimerWithMaxPending(long max) {
        return NettyWheelTimer.builder().maxPendingTimeouts(max).build();
    }

    @Override
    long pendingTimeouts(Timer t) {
        return ((NettyWheelTimer) t).pendingTimeouts();
    }

    // ==========================================================================================================
    // One object per timeout

    @Test
    void theTimeoutIsTheTickwheelTimerItself() throws Exception {
        Timeout t = timer.newTimeout(x -> { }, 1, HOURS);
        assertTrue(t instanceof CustomTimer, "a wrapper around the timer: " + t.getClass());
        TimerFuture<?> f = (TimerFuture<?>) t;
        assertTrue(f.getDelay(TimeUnit.MINUTES) >= 59, f::toString);
        assertTrue(t.cancel());
        assertTrue(f.isCancelled());
        assertTrue(t.toString().contains("cancelled"), t::toString);

        Recorder task = new Recorder();
        TimerFuture<?> ran = (TimerFuture<?>) timer.newTimeout(task, 1, MILLISECONDS);
        assertNull(ran.get(LONG_WAIT_SECONDS, SECONDS), "as a future, a timeout completes when its task has run");
        assertEquals(1, task.runs.get());
    }

    // ==========================================================================================================
    // Where tasks run

    @Test
    void tasksDueTogetherMayRunAtTheSameTimeOnThePool() throws Exception {
        CountDownLatch bothRunning = new CountDownLatch(2);
        CompletableFuture<Boolean> first = new CompletableFuture<>();
        CompletableFuture<Boolean> second = new CompletableFuture<>();
        for (CompletableFuture<Boolean> done : List.of(first, second)) {
            timer.newTimeout(t -> {
                bothRunning.countDown();
                try {
                    done.complete(bothRunning.await(LONG_WAIT_SECONDS, SECONDS));
                } catch (InterruptedException e) {
                    done.completeExceptionally(e);
                }
            }, 5, MILLISECONDS);
        }
        assertTrue(first.get(LONG_WAIT_SECONDS + 5, SECONDS) && second.get(LONG_WAIT_SECONDS + 5, SECONDS),
                "two tasks never ran at the same time: the default runs tasks on a pool of at least 2 threads");
    }

    @Test
    void runTasksOnTimerThreadRunsThemOneAtATimeOnOneThreadAsHashedWheelTimerDoes() throws Exception {
        NettyWheelTimer serial = NettyWheelTimer.builder().runTasksOnTimerThread().build();
        try {
            int n = 200;
            Set<Thread> threads = ConcurrentHashMap.newKeySet();
            AtomicBoolean running = new AtomicBoolean();
            AtomicInteger overlaps = new AtomicInteger();
            CountDownLatch all = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                serial.newTimeout(t -> {
                    if (!running.compareAndSet(false, true)) {
                        overlaps.incrementAndGet();
                    }
                    threads.add(Thread.currentThread());
                    Thread.onSpinWait();
                    running.set(false);
                    all.countDown();
                }, i % 4, MILLISECONDS);
            }
            assertTrue(all.await(LONG_WAIT_SECONDS, SECONDS));
            assertEquals(0, overlaps.get(), "tasks overlapped on the timer's thread");
            assertEquals(1, threads.size(), threads::toString);
            CompletableFuture<Throwable> stopInside = new CompletableFuture<>();
            serial.newTimeout(t -> {
                try {
                    serial.stop();
                    stopInside.complete(null);
                } catch (Throwable e) {
                    stopInside.complete(e);
                }
            }, 0, MILLISECONDS);
            assertTrue(stopInside.get(LONG_WAIT_SECONDS, SECONDS) instanceof IllegalStateException,
                    "stop() from a task on the timer's own thread");
        } finally {
            serial.stop();
        }
    }

    @Test
    void aTaskExecutorRunsTheTasksAndStopMayBeCalledFromIt() throws Exception {
        AtomicInteger handedOff = new AtomicInteger();
        Executor direct = r -> {
            handedOff.incrementAndGet();
            new Thread(r, "user-executor").start();
        };
        NettyWheelTimer t = NettyWheelTimer.builder().taskExecutor(direct).build();
        Recorder task = new Recorder();
        t.newTimeout(task, 1, MILLISECONDS);
        task.awaitRun();
        assertEquals("user-executor", task.thread.getName());
        CompletableFuture<Set<Timeout>> stopped = new CompletableFuture<>();
        Timeout pending = t.newTimeout(x -> { }, 1, HOURS);
        t.newTimeout(x -> stopped.complete(t.stop()), 1, MILLISECONDS);
        assertEquals(Set.of(pending), stopped.get(LONG_WAIT_SECONDS, SECONDS),
                "as with HashedWheelTimer's taskExecutor, stop() from the executor's thread works");
        assertEquals(2, handedOff.get());
    }

    // ==========================================================================================================
    // Failures, limits, shutdown

    @Test
    void aTaskThatThrowsIsLoggedAtWarnNamingTheTask() throws Exception {
        IllegalStateException failure = new IllegalStateException("a task failure (expected in this test)");
        try (CapturedNettyLog log = CapturedNettyLog.install()) {
            NettyWheelTimer t = new NettyWheelTimer();
            try {
                CountDownLatch thrown = new CountDownLatch(1);
                io.netty.util.TimerTask failing = new io.netty.util.TimerTask() {
                    @Override
                    public void run(Timeout timeout) {
                        thrown.countDown();
                        throw failure;
                    }

                    @Override
                    public String toString() {
                        return "the-failing-task";
                    }
                };
                Timeout timeout = t.newTimeout(failing, 1, MILLISECONDS);
                assertTrue(thrown.await(LONG_WAIT_SECONDS, SECONDS));
                Recorder after = new Recorder();
                t.newTimeout(after, 1, MILLISECONDS);
                after.awaitRun();
                eventually("the failure is logged", () -> !log.warnings().isEmpty());
                CapturedNettyLog.Warning w = log.warnings().get(0);
                assertEquals(NettyWheelTimer.class.getName(), w.logger());
                assertSame(failure, w.thrown());
                assertTrue(w.message().contains("the-failing-task"), w.message());
                assertTrue(timeout.isExpired());
                assertNull(((TimerFuture<?>) timeout).get(LONG_WAIT_SECONDS, SECONDS),
                        "the failure was logged, so the timeout's future completes normally");
            } finally {
                t.stop();
            }
        }
    }

    @Test
    void aCancelFreesItsPlaceUnderTheLimitAtOnce() {
        NettyWheelTimer limited = NettyWheelTimer.builder().maxPendingTimeouts(1).build();
        try {
            Timeout first = limited.newTimeout(x -> { }, 1, HOURS);
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                    () -> limited.newTimeout(x -> { }, 1, HOURS));
            assertTrue(e.getMessage().contains("maxPendingTimeouts 1"), e.getMessage());
            assertTrue(first.cancel());
            limited.newTimeout(x -> { }, 1, HOURS); // HashedWheelTimer would still reject it until its next tick
            assertEquals(1, limited.pendingTimeouts());
        } finally {
            limited.stop();
        }
        assertEquals(0, NettyWheelTimer.builder().maxPendingTimeouts(0).build().stop().size(), "0 is no limit");
    }

    @Test
    void stopLeavesNoThreadBehind() throws Exception {
        Set<Thread> made = ConcurrentHashMap.newKeySet();
        ThreadFactory factory = r -> {
            Thread th = new Thread(r, "test-" + r);
            made.add(th);
            return th;
        };
        NettyWheelTimer t = new NettyWheelTimer(factory);
        CountDownLatch ran = new CountDownLatch(20);
        for (int i = 0; i < 20; i++) {
            t.newTimeout(x -> ran.countDown(), i % 3, MILLISECONDS);
        }
        assertTrue(ran.await(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(made.size() >= 2, "the owner and at least one worker: " + made);
        t.stop();
        for (Thread th : made) {
            th.join(SECONDS.toMillis(LONG_WAIT_SECONDS));
            assertFalse(th.isAlive(), th + " still alive after stop()");
        }
    }

    @Test
    void builderRejectsBadValuesNamingThem() {
        IllegalArgumentException tick = assertThrows(IllegalArgumentException.class,
                () -> NettyWheelTimer.builder().tick(0, MILLISECONDS));
        assertTrue(tick.getMessage().contains("0"), tick.getMessage());
        IllegalArgumentException workers = assertThrows(IllegalArgumentException.class,
                () -> NettyWheelTimer.builder().workerThreads(0));
        assertTrue(workers.getMessage().contains("0"), workers.getMessage());
        assertThrows(NullPointerException.class, () -> NettyWheelTimer.builder().threadFactory(null));
        assertThrows(NullPointerException.class, () -> NettyWheelTimer.builder().taskExecutor(null));
        assertThrows(NullPointerException.class, () -> NettyWheelTimer.builder().tick(1, null));
    }

    @Test
    void aStoppedTimersRejectionKeepsTheCause() {
        timer.stop();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> timer.newTimeout(x -> { }, 1, SECONDS));
        assertTrue(e.getCause() instanceof RejectedExecutionException, String.valueOf(e.getCause()));
    }

    @Test
    void stopLeavesNoTimeoutPending() {
        timer.newTimeout(x -> { }, 1, HOURS);
        timer.newTimeout(x -> { }, 2, HOURS);
        assertEquals(2, timer.stop().size());
        assertEquals(0, pendingTimeouts(timer), "HashedWheelTimer's count keeps the timeouts stop() returned; ours not");
    }

    @Test
    void getOfAStoppedTimeoutThrowsCancellation() {
        Timeout t = timer.newTimeout(x -> { }, 1, HOURS);
        assertEquals(Set.of(t), timer.stop());
        assertThrows(java.util.concurrent.CancellationException.class, () -> ((TimerFuture<?>) t).get());
        assertFalse(((TimerFuture<?>) t).cancelIfNotStarted());
    }
}

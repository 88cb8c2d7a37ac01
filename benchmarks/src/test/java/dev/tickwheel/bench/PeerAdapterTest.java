package dev.tickwheel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tickwheel.bench.peer.ForkJoinSchedulerAdapter;
import dev.tickwheel.bench.peer.MpscFloorAdapter;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each adapter really starts, cancels and fires timers on its peer, so every benchmark measures the real thing; a
 * peer this JVM cannot run (the ForkJoinPool peers before JDK 25) is skipped, here and in every scenario.
 */
class PeerAdapterTest {
    private static final List<Peer> FORK_JOIN = List.of(Peer.JDK_FORKJOIN, Peer.JDK_FORKJOIN_COMMON);

    @ParameterizedTest
    @EnumSource(value = Peer.class, mode = EnumSource.Mode.EXCLUDE, names = "MPSC_FLOOR")
    void firesAStartedTimerAndNeverACancelledOne(Peer peer) throws InterruptedException {
        assumeTrue(peer.available(), () -> peer.skipNote());
        CountDownLatch fired = new CountDownLatch(1);
        AtomicInteger cancelledRuns = new AtomicInteger();
        TimerAdapter timer = peer.create();
        try {
            // The cancel must come before the cancelled timer is due, or it may rightly run. At 5 ms one CI run saw
            // it run (TICKWHEEL_1MS_INLINE; 25 reruns, 10 of them with the cores loaded, did not), so the test hung
            // on the test thread reaching cancel within 5 ms. 200 ms is far from that, and the fired timer comes
            // after it, so a run of the cancelled one would still be seen.
            Object cancelled = timer.schedule(task(cancelledRuns::incrementAndGet), 200);
            timer.cancel(cancelled);
            timer.schedule(task(fired::countDown), 400);
            // Not a timing bound: a generous liveness limit, so that a broken adapter fails instead of hanging.
            assertTrue(fired.await(30, TimeUnit.SECONDS), peer + " did not fire a 400 ms timer");
        } finally {
            timer.close();
        }
        assertEquals(0, cancelledRuns.get(), peer + " ran a cancelled timer");
    }

    @Test
    void forkJoinPeersRunExactlyFromJdk25() {
        boolean jdk25 = Runtime.version().feature() >= 25;
        for (Peer p : FORK_JOIN) {
            assertEquals(jdk25, p.available(), p + " on JDK " + Runtime.version());
        }
        for (Peer p : Peer.values()) {
            assertTrue(p.available() || FORK_JOIN.contains(p), p + " should run on any JDK the benchmarks run on");
        }
    }

    @Test
    void aForkJoinPeerThisJvmCannotRunFailsAtOnceNamingTheJdkItNeeds() {
        assumeFalse(ForkJoinSchedulerAdapter.supported(), "this JVM runs the ForkJoinPool peers");
        for (Peer p : FORK_JOIN) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, p::create);
            assertTrue(e.getMessage().contains("needs JDK 25"), e.getMessage());
            assertTrue(p.skipNote().startsWith(p.label() + " not run: needs JDK 25"), p.skipNote());
        }
    }

    @Test
    void childJvmScenariosSkipAPeerThisJvmCannotRunWithoutStartingAJvm() {
        assumeFalse(ForkJoinSchedulerAdapter.supported(), "this JVM runs the ForkJoinPool peers");
        assertEquals(List.of(), RetainedMemory.runAll(FORK_JOIN, 1000));
        assertEquals(List.of(), IdleCpu.runAll(FORK_JOIN));
        assertEquals(List.of(), FiringLateness.runAll(FORK_JOIN, 0, 1));
        assertEquals(List.of(), CpuPerOperation.runAll(FORK_JOIN, 1000, 0, 1));
    }

    /** The JDK removes a cancelled task from the delay scheduler's heap at once, not at its deadline. */
    @ParameterizedTest
    @EnumSource(value = Peer.class, names = {"JDK_FORKJOIN", "JDK_FORKJOIN_COMMON"})
    void forkJoinCancelTakesTheTimerOutOfThePoolsHeap(Peer peer)
            throws ReflectiveOperationException, InterruptedException {
        assumeTrue(peer.available(), () -> peer.skipNote());
        CountingTask task = new CountingTask();
        ForkJoinSchedulerAdapter timer = (ForkJoinSchedulerAdapter) peer.create();
        try {
            Object[] handles = new Object[10_000];
            for (int i = 0; i < handles.length; i++) {
                handles[i] = timer.schedule(task, TimeUnit.HOURS.toMillis(1));
            }
            assertEquals(handles.length, awaitDelayedTasks(timer.pool(), handles.length));
            for (Object h : handles) {
                timer.cancel(h);
            }
            assertEquals(0, awaitDelayedTasks(timer.pool(), 0));
        } finally {
            timer.close();
        }
        assertEquals(0, task.runs());
    }

    @Test
    void closingTheDedicatedPoolEndsItAndClosingTheCommonPoolLeavesIt() throws InterruptedException {
        assumeTrue(ForkJoinSchedulerAdapter.supported(), "this JVM cannot run the ForkJoinPool peers");
        ForkJoinSchedulerAdapter dedicated = ForkJoinSchedulerAdapter.dedicated();
        dedicated.schedule(new CountingTask(), TimeUnit.HOURS.toMillis(1));
        dedicated.close();
        assertTrue(dedicated.pool().isTerminated(), "close() waits for the dedicated pool to end");
        ForkJoinSchedulerAdapter common = ForkJoinSchedulerAdapter.common();
        assertNotSame(dedicated.pool(), common.pool());
        assertSame(ForkJoinPool.commonPool(), common.pool());
        common.close();
        CountDownLatch fired = new CountDownLatch(1);
        ForkJoinSchedulerAdapter.common().schedule(task(fired::countDown), 1);
        assertTrue(fired.await(30, TimeUnit.SECONDS), "the common pool runs timers after an adapter on it closed");
    }

    @Test
    void floorDrainsEveryStartAndCancel() {
        MpscFloorAdapter floor = new MpscFloorAdapter();
        Task never = task(() -> {
            throw new AssertionError("the floor never runs tasks");
        });
        for (int i = 0; i < 1000; i++) {
            floor.cancel(floor.schedule(never, 1));
        }
        floor.close();
        assertEquals(2000, floor.drained());
    }

    @Test
    void ringKeepsItsTimersPendingAndCancelsTheOldest() {
        CountingTask task = new CountingTask();
        TimerAdapter timer = Peer.TICKWHEEL.create();
        try {
            ProducerRing ring = new ProducerRing(timer, task, 100, 1);
            Object first = ring.step(timer, task);
            assertFalse(first == ring.step(timer, task), "each step cancels a different, older timer");
            assertEquals(100, ring.pending());
            ring.cancelAll(timer);
        } finally {
            timer.close();
        }
        assertEquals(0, task.runs(), "ring timers are 30-60 s out");
    }

    @ParameterizedTest
    @EnumSource(WheelKind.class)
    void wheelLoadRemovesAndAddsWithoutExpiring(WheelKind kind) {
        WheelLoad load = kind.create(7);
        load.fill(1000);
        for (int i = 0; i < 200_000; i++) { // 0.2 s of virtual time: about 190 ticks advanced
            load.op();
        }
        assertEquals(0, load.expired(), kind + ": timers 30-60 s out expired within 0.2 s of virtual time");
        assertEquals(1000, load.size());
    }

    /**
     * @return the pool's delayed-task count (a JDK 25 method, called reflectively since the module compiles for 17)
     *         once it reads {@code expected}, or its last reading after 10 s
     */
    private static long awaitDelayedTasks(ForkJoinPool pool, long expected)
            throws ReflectiveOperationException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long n;
        do {
            n = (Long) ForkJoinPool.class.getMethod("getDelayedTaskCount").invoke(pool);
            if (n == expected) {
                return n;
            }
            Thread.sleep(10);
        } while (System.nanoTime() < deadline);
        return n;
    }

    private static Task task(Runnable r) {
        return new Task() {
            @Override
            public void run() {
                r.run();
            }
        };
    }
}

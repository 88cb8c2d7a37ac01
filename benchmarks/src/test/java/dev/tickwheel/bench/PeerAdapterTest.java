package dev.tickwheel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickwheel.bench.peer.MpscFloorAdapter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each adapter really starts, cancels and fires timers on its peer, so every benchmark measures the real thing. */
class PeerAdapterTest {

    @ParameterizedTest
    @EnumSource(value = Peer.class, mode = EnumSource.Mode.EXCLUDE, names = "MPSC_FLOOR")
    void firesAStartedTimerAndNeverACancelledOne(Peer peer) throws InterruptedException {
        CountDownLatch fired = new CountDownLatch(1);
        AtomicInteger cancelledRuns = new AtomicInteger();
        TimerAdapter timer = peer.create();
        try {
            Object cancelled = timer.schedule(task(cancelledRuns::incrementAndGet), 5);
            timer.cancel(cancelled);
            timer.schedule(task(fired::countDown), 50);
            // Not a timing bound: a generous liveness limit, so that a broken adapter fails instead of hanging.
            assertTrue(fired.await(30, TimeUnit.SECONDS), peer + " did not fire a 50 ms timer");
        } finally {
            timer.close();
        }
        assertEquals(0, cancelledRuns.get(), peer + " ran a cancelled timer");
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

    private static Task task(Runnable r) {
        return new Task() {
            @Override
            public void run() {
                r.run();
            }
        };
    }
}

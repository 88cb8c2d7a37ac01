package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WheelTimerSmokeTest {
    /** Bound on waits for something that must happen, so that a bug fails instead of hangs. */
    private static final long LONG_WAIT_SECONDS = ScheduledExecutorContractTest.LONG_WAIT_SECONDS;

    @Test
    void firesCancelsAndShutsDown() throws Exception {
        try (WheelTimer t = WheelTimer.create()) {
            long start = System.nanoTime();
            ScheduledFuture<String> f = t.schedule(() -> "x", 20, TimeUnit.MILLISECONDS);
            assertEquals("x", f.get(LONG_WAIT_SECONDS, TimeUnit.SECONDS));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(20));
            ScheduledFuture<?> c = t.schedule(() -> { throw new AssertionError(); }, 1, TimeUnit.HOURS);
            assertTrue(c.cancel(false));
            assertTrue(c.isCancelled());
            AtomicInteger n = new AtomicInteger();
            CountDownLatch three = new CountDownLatch(3);
            ScheduledFuture<?> p = t.scheduleAtFixedRate(() -> { n.incrementAndGet(); three.countDown(); }, 0, 5, TimeUnit.MILLISECONDS);
            assertTrue(three.await(LONG_WAIT_SECONDS, TimeUnit.SECONDS));
            assertTrue(p.cancel(false));
            ScheduledFuture<?> later = t.schedule(() -> {}, 1, TimeUnit.HOURS);
            List<Runnable> back = t.shutdownNow();
            assertEquals(List.of(later), back);
            assertTrue(t.awaitTermination(LONG_WAIT_SECONDS, TimeUnit.SECONDS));
            assertThrows(RejectedExecutionException.class, () -> t.schedule(() -> {}, 1, TimeUnit.SECONDS));
        }
    }

    /**
     * Two producers schedule 200,000 timers each, due within 50 ms: every task runs exactly once (a counter per
     * task, read once the timer has terminated, so that a late second run counts too) and none before its delay.
     */
    @Test
    void manyProducers() throws Exception {
        int producers = 2;
        int n = 200_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(producers * n);
        AtomicInteger early = new AtomicInteger();
        AtomicReference<String> firstEarly = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(producers * n);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        WheelTimer t = WheelTimer.create();
        try {
            Thread[] ps = new Thread[producers];
            for (int i = 0; i < producers; i++) {
                int first = i * n;
                ps[i] = new Thread(() -> {
                    try {
                        for (int id = first; id < first + n; id++) {
                            int task = id;
                            long delay = TimeUnit.MILLISECONDS.toNanos(id % 50);
                            long scheduledAt = System.nanoTime();
                            t.schedule(() -> {
                                long after = System.nanoTime() - scheduledAt;
                                if (after < delay && early.getAndIncrement() == 0) {
                                    firstEarly.set("task " + task + " ran " + after + " ns after schedule, before its"
                                            + " delay of " + delay + " ns");
                                }
                                runs.incrementAndGet(task);
                                done.countDown();
                            }, delay, TimeUnit.NANOSECONDS);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "producer-" + i);
                ps[i].start();
            }
            for (Thread p : ps) p.join();
            assertTrue(failures.isEmpty(), () -> "a producer failed: " + failures);
            assertTrue(done.await(LONG_WAIT_SECONDS, TimeUnit.SECONDS), () -> "left " + done.getCount() + " " + t.metrics());
            System.out.println(t.metrics());
        } finally {
            t.close();
        }
        assertEquals(0, early.get(), () -> early.get() + " tasks ran early, first: " + firstEarly.get());
        for (int id = 0; id < producers * n; id++) {
            assertEquals(1, runs.get(id), "runs of task " + id);
        }
    }
}

package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WheelTimerSmokeTest {
    @Test
    void firesCancelsAndShutsDown() throws Exception {
        try (WheelTimer t = WheelTimer.create()) {
            long start = System.nanoTime();
            ScheduledFuture<String> f = t.schedule(() -> "x", 20, TimeUnit.MILLISECONDS);
            assertEquals("x", f.get(5, TimeUnit.SECONDS));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(20));
            ScheduledFuture<?> c = t.schedule(() -> { throw new AssertionError(); }, 1, TimeUnit.HOURS);
            assertTrue(c.cancel(false));
            assertTrue(c.isCancelled());
            AtomicInteger n = new AtomicInteger();
            CountDownLatch three = new CountDownLatch(3);
            ScheduledFuture<?> p = t.scheduleAtFixedRate(() -> { n.incrementAndGet(); three.countDown(); }, 0, 5, TimeUnit.MILLISECONDS);
            assertTrue(three.await(5, TimeUnit.SECONDS));
            assertTrue(p.cancel(false));
            ScheduledFuture<?> later = t.schedule(() -> {}, 1, TimeUnit.HOURS);
            List<Runnable> back = t.shutdownNow();
            assertEquals(List.of(later), back);
            assertTrue(t.awaitTermination(5, TimeUnit.SECONDS));
            assertThrows(RejectedExecutionException.class, () -> t.schedule(() -> {}, 1, TimeUnit.SECONDS));
        }
    }

    @Test
    void manyProducers() throws Exception {
        try (WheelTimer t = WheelTimer.create()) {
            int n = 200_000;
            CountDownLatch done = new CountDownLatch(2 * n);
            Thread[] ps = new Thread[2];
            for (int i = 0; i < 2; i++) {
                ps[i] = new Thread(() -> { for (int k = 0; k < n; k++) t.schedule(done::countDown, k % 50, TimeUnit.MILLISECONDS); });
                ps[i].start();
            }
            for (Thread p : ps) p.join();
            assertTrue(done.await(30, TimeUnit.SECONDS), () -> "left " + done.getCount() + " " + t.metrics());
            System.out.println(t.metrics());
        }
    }
}

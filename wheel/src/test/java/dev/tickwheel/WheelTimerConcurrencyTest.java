package dev.tickwheel;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * {@link WheelTimer} on real threads: several producers, cancellers and the owner at once. Each test keeps a
 * per-timer ledger and checks, once everything has ended, that every timer ended exactly one way. Sizes scale with
 * the system property {@code tickwheel.test.scale} (default 1); the defaults run in a few seconds on two cores.
 * Waits are latches and futures bounded by a generous timeout, only so that a lost timer fails instead of hanging.
 */
class WheelTimerConcurrencyTest {

    private static final long LONG_WAIT_SECONDS = 120;

    /** The length multiplier from {@code -Dtickwheel.test.scale} (default 1). */
    static double scale() {
        String s = System.getProperty("tickwheel.test.scale", "1");
        double v = Double.parseDouble(s.isBlank() ? "1" : s);
        if (!(v > 0)) {
            throw new IllegalArgumentException("tickwheel.test.scale " + s + " must be positive");
        }
        return v;
    }

    private static int scaled(int base, int min) {
        return (int) Math.max(min, Math.min(Integer.MAX_VALUE / 4, base * scale()));
    }

    private static final class Entry {
        final int id;
        final ScheduledFuture<?> future;

        Entry(int id, ScheduledFuture<?> future) {
            this.id = id;
            this.future = future;
        }
    }

    /**
     * Two producers schedule; two cancellers both try to cancel the same two thirds of the timers, racing each
     * other and the owner (many timers are due within a millisecond). Every timer must end exactly one way: it ran
     * once, or exactly one cancel returned true and it never ran.
     */
    @Test
    void producersAndCancellersEveryTimerEndsExactlyOneWay() throws Exception {
        int producers = 2;
        int cancellers = 2;
        int perProducer = scaled(50_000, 1_000);
        int total = producers * perProducer;
        long seed = System.nanoTime();
        WheelTimer t = WheelTimer.create();
        AtomicIntegerArray runs = new AtomicIntegerArray(total);
        AtomicIntegerArray cancelWins = new AtomicIntegerArray(total);
        ScheduledFuture<?>[] futures = new ScheduledFuture<?>[total];
        List<ConcurrentLinkedQueue<Entry>> toCancel = new ArrayList<>();
        for (int c = 0; c < cancellers; c++) {
            toCancel.add(new ConcurrentLinkedQueue<>());
        }
        AtomicInteger producersLeft = new AtomicInteger(producers);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();

        for (int p = 0; p < producers; p++) {
            int first = p * perProducer;
            SplittableRandom rnd = new SplittableRandom(seed + p);
            threads.add(new Thread(() -> {
                try {
                    go.await();
                    for (int id = first; id < first + perProducer; id++) {
                        int timer = id;
                        boolean cancelAttempted = id % 3 != 0;
                        // Long timers only where a cancel will come: they guarantee cancel wins some races.
                        long delay = cancelAttempted && id % 4 == 1 ? HOURS.toNanos(1) : rnd.nextLong(2_000_000);
                        ScheduledFuture<?> f = t.schedule(() -> {
                            runs.incrementAndGet(timer);
                            Thread.yield(); // widens the window in which a cancel meets a running task
                        }, delay, NANOSECONDS);
                        futures[id] = f;
                        if (cancelAttempted) {
                            Entry e = new Entry(id, f);
                            for (ConcurrentLinkedQueue<Entry> q : toCancel) {
                                q.offer(e);
                            }
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    producersLeft.decrementAndGet();
                }
            }, "producer-" + p));
        }
        for (int c = 0; c < cancellers; c++) {
            ConcurrentLinkedQueue<Entry> q = toCancel.get(c);
            threads.add(new Thread(() -> {
                try {
                    for (;;) {
                        boolean producersDone = producersLeft.get() == 0;
                        Entry e = q.poll();
                        if (e == null) {
                            if (producersDone) {
                                break;
                            }
                            Thread.yield();
                            continue;
                        }
                        // The strict cancel: true means the task never ran, which the exactly-one-way ledger
                        // checks (cancel() follows FutureTask and may also win against a running task).
                        if (((TimerFuture<?>) e.future).cancelIfNotStarted()) {
                            cancelWins.incrementAndGet(e.id);
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "canceller-" + c));
        }
        for (Thread th : threads) {
            th.start();
        }
        go.countDown();
        for (Thread th : threads) {
            th.join();
        }
        assertTrue(failures.isEmpty(), () -> "a thread failed: " + failures);
        for (int id = 0; id < total; id++) {
            awaitEnd(futures[id], "timer " + id);
        }
        t.close();

        int ran = 0;
        int cancelled = 0;
        for (int id = 0; id < total; id++) {
            int r = runs.get(id);
            int c = cancelWins.get(id);
            String what = "seed " + seed + ", timer " + id;
            assertTrue(r <= 1, what + " ran " + r + " times");
            assertTrue(c <= 1, what + ": " + c + " cancels returned true");
            assertEquals(1, r + c, what + " ended " + (r + c) + " ways (ran " + r + ", cancelled " + c + ")");
            assertEquals(c == 1, futures[id].isCancelled(), what);
            ran += r;
            cancelled += c;
        }
        assertTrue(ran > 0 && cancelled > 0, "ran " + ran + ", cancelled " + cancelled);
        TimerMetrics m = t.metrics();
        assertEquals(total, m.scheduled(), m::toString);
        assertEquals(cancelled, m.cancelled(), m::toString);
        assertEquals(0, m.pending(), m::toString);
        // fired counts hand-offs to the pool; a cancel may still win between the hand-off and the run.
        assertTrue(m.fired() >= ran && m.fired() <= ran + cancelled, m::toString);
    }

    /** Two producers start a million timers (scaled) due within 100 ms: every one runs, exactly once. */
    @Test
    void aMillionTimersFromTwoProducersAllFireExactlyOnce() throws Exception {
        int total = scaled(1_000_000, 10_000) & ~1;
        int perProducer = total / 2;
        long seed = System.nanoTime();
        WheelTimer t = WheelTimer.create();
        AtomicIntegerArray runs = new AtomicIntegerArray(total);
        CountDownLatch allRan = new CountDownLatch(total);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            int first = p * perProducer;
            SplittableRandom rnd = new SplittableRandom(seed + p);
            producers.add(new Thread(() -> {
                try {
                    for (int id = first; id < first + perProducer; id++) {
                        int timer = id;
                        t.schedule(() -> {
                            runs.incrementAndGet(timer);
                            allRan.countDown();
                        }, rnd.nextLong(100_000_000), NANOSECONDS);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "producer-" + p));
        }
        for (Thread th : producers) {
            th.start();
        }
        for (Thread th : producers) {
            th.join();
        }
        assertTrue(failures.isEmpty(), () -> "a producer failed: " + failures);

        assertTrue(allRan.await(LONG_WAIT_SECONDS, SECONDS),
                () -> allRan.getCount() + " of " + total + " timers never ran: " + t.metrics());
        t.close();

        for (int id = 0; id < total; id++) {
            assertEquals(1, runs.get(id), "seed " + seed + ", timer " + id);
        }
        TimerMetrics m = t.metrics();
        assertEquals(total, m.scheduled(), m::toString);
        assertEquals(total, m.fired(), m::toString);
        assertEquals(0, m.pending(), m::toString);
    }

    /**
     * Producers churn (schedule, and cancel half of what they scheduled) against a pending limit, then race to fill
     * it: pending never exceeds the limit, the counts agree exactly, and the fill stops exactly at the limit.
     */
    @Test
    void maxPendingIsExactUnderConcurrentProducers() throws Exception {
        int limit = 1000;
        int producers = 4;
        int attempts = scaled(20_000, 1_000);
        long seed = System.nanoTime();
        WheelTimer t = WheelTimer.builder().maxPending(limit).build();
        try {
            AtomicInteger accepted = new AtomicInteger();
            AtomicInteger cancelled = new AtomicInteger();
            AtomicInteger rejected = new AtomicInteger();
            List<Throwable> failures = new CopyOnWriteArrayList<>();

            runAll(producers, p -> {
                SplittableRandom rnd = new SplittableRandom(seed + p);
                List<ScheduledFuture<?>> mine = new ArrayList<>();
                for (int i = 0; i < attempts; i++) {
                    try {
                        mine.add(t.schedule(() -> { }, 1, HOURS));
                        accepted.incrementAndGet();
                    } catch (RejectedExecutionException e) {
                        rejected.incrementAndGet();
                        if (!e.getMessage().contains("maxPending " + limit)) {
                            failures.add(e);
                        }
                    }
                    if (!mine.isEmpty() && rnd.nextBoolean()) {
                        ScheduledFuture<?> f = mine.remove(rnd.nextInt(mine.size()));
                        if (f.cancel(false)) {
                            cancelled.incrementAndGet();
                        }
                    }
                    if ((i & 15) == 0) {
                        long pending = t.metrics().pending();
                        if ((pending > limit || pending < 0) && failures.size() < 5) {
                            failures.add(new AssertionError("pending " + pending + " with a limit of " + limit));
                        }
                    }
                }
            }, failures);
            assertTrue(failures.isEmpty(), () -> "seed " + seed + ": " + failures);
            TimerMetrics churned = t.metrics();
            assertEquals(accepted.get() - cancelled.get(), churned.pending(), churned::toString);
            assertEquals(accepted.get(), churned.scheduled(), churned::toString);
            assertEquals(cancelled.get(), churned.cancelled(), churned::toString);
            assertEquals(rejected.get(), churned.rejected(), churned::toString);

            long room = limit - churned.pending();
            AtomicInteger filled = new AtomicInteger();
            runAll(producers, p -> {
                for (;;) {
                    try {
                        t.schedule(() -> { }, 1, HOURS);
                        filled.incrementAndGet();
                    } catch (RejectedExecutionException e) {
                        return;
                    }
                }
            }, failures);
            assertTrue(failures.isEmpty(), failures::toString);

            assertEquals(room, filled.get(), "the producers filling the limit together took more or less than it");
            assertEquals(limit, t.metrics().pending());
        } finally {
            t.shutdownNow();
            assertTrue(t.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
        }
    }

    /**
     * Producers schedule (due now, soon, and in an hour) while the test thread calls shutdownNow. Each schedule
     * either throws RejectedExecutionException, and its task never runs, or its timer is accounted for exactly
     * once: it ran, or shutdownNow handed it back (then it never runs). Nobody cancels these timers, so none may end
     * cancelled: an accepted timer that the race ended cancelled would be a lost task, whose schedule returned as
     * if it would run, handed back to nobody.
     */
    @Test
    void scheduleRacingShutdownNowIsNeverLost() throws Exception {
        int rounds = scaled(20, 3);
        for (int round = 0; round < rounds; round++) {
            scheduleRacingShutdownNowRound(round);
        }
    }

    private void scheduleRacingShutdownNowRound(int round) throws Exception {
        int producers = 2;
        int maxPerProducer = 300_000; // a cap for the ledger's size; shutdownNow comes far sooner
        WheelTimer t = WheelTimer.create();
        AtomicIntegerArray runs = new AtomicIntegerArray(producers * maxPerProducer);
        List<List<Entry>> accepted = new ArrayList<>();
        List<List<Integer>> rejected = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            accepted.add(new ArrayList<>());
            rejected.add(new ArrayList<>());
        }
        CountDownLatch underWay = new CountDownLatch(1_000 + 500 * round); // vary the moment of shutdownNow
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int first = p * maxPerProducer;
            List<Entry> mine = accepted.get(p);
            List<Integer> refused = rejected.get(p);
            SplittableRandom rnd = new SplittableRandom(31L * round + p);
            threads.add(new Thread(() -> {
                try {
                    for (int id = first; id < first + maxPerProducer; id++) {
                        int timer = id;
                        long delay = id % 3 == 0 ? 0 : id % 3 == 1 ? rnd.nextLong(1_000_000) : HOURS.toNanos(1);
                        try {
                            mine.add(new Entry(id, t.schedule(() -> {
                                runs.incrementAndGet(timer);
                            }, delay, NANOSECONDS)));
                            underWay.countDown();
                        } catch (RejectedExecutionException e) {
                            refused.add(id);
                            return;
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "producer-" + p));
        }
        for (Thread th : threads) {
            th.start();
        }
        assertTrue(underWay.await(LONG_WAIT_SECONDS, SECONDS));

        List<Runnable> handedBack = t.shutdownNow();

        for (Thread th : threads) {
            th.join();
        }
        assertTrue(t.awaitTermination(LONG_WAIT_SECONDS, SECONDS));
        assertTrue(failures.isEmpty(), () -> "a producer failed: " + failures);
        Set<Object> back = Collections.newSetFromMap(new IdentityHashMap<>());
        back.addAll(handedBack);
        assertEquals(handedBack.size(), back.size(), "shutdownNow handed a timer back twice");
        int ran = 0;
        int returned = 0;
        int total = 0;
        for (List<Entry> mine : accepted) {
            for (Entry e : mine) {
                int r = runs.get(e.id);
                boolean b = back.remove(e.future);
                boolean c = e.future.isCancelled();
                String what = "round " + round + ", timer " + e.id + ": ran " + r + " times, handed back " + b
                        + ", cancelled " + c;
                assertFalse(c, what + " (accepted, and nobody cancelled it)");
                assertEquals(1, r + (b ? 1 : 0), what);
                ran += r;
                returned += b ? 1 : 0;
                total++;
            }
        }
        assertTrue(back.isEmpty(), "shutdownNow handed back timers nobody scheduled: " + back);
        for (List<Integer> refused : rejected) {
            for (int id : refused) {
                assertEquals(0, runs.get(id), "the task of a rejected schedule ran: " + id);
            }
        }
        assertTrue(returned > 0, "nothing handed back: ran " + ran + " of " + total);
        for (List<Integer> refused : rejected) {
            assertEquals(1, refused.size(), "a producer was not scheduling when shutdownNow came (no race tested)");
        }
        assertEquals(0, t.metrics().pending(), t.metrics()::toString);
    }

    // ==========================================================================================================

    private interface Body {
        void run(int index) throws Exception;
    }

    private static void runAll(int threads, Body body, List<Throwable> failures) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int index = i;
            Thread th = new Thread(() -> {
                try {
                    go.await();
                    body.run(index);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "worker-" + i);
            th.start();
            all.add(th);
        }
        go.countDown();
        for (Thread th : all) {
            th.join();
        }
    }

    private static void awaitEnd(ScheduledFuture<?> f, String what) throws InterruptedException {
        try {
            f.get(LONG_WAIT_SECONDS, SECONDS);
        } catch (CancellationException | ExecutionException e) {
            // ended: cancelled, or failed (checked by the ledger)
        } catch (TimeoutException e) {
            throw new AssertionError(what + " never ended: " + f, e);
        }
        assertTrue(f.isDone(), what);
    }
}

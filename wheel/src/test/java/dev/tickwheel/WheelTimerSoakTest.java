package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickwheel.SoakLedger.SoakClock;
import dev.tickwheel.SoakLedger.SoakPeriodic;
import dev.tickwheel.SoakLedger.SoakTimer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Soak tests: many threads, many timers, and a ledger that accounts for every one of them.
 *
 * <p>Length: the ledger soak runs {@code tickwheel.soak.seconds} seconds (default {@value #DEFAULT_SOAK_SECONDS},
 * for CI); by hand, for example
 * {@code mvn -B -ntp -pl wheel test -Dtest=WheelTimerSoakTest -Dtickwheel.soak.seconds=1800}. The total rate of
 * timers started is {@code tickwheel.soak.rate} per second (default {@value #DEFAULT_RATE}). It prints its figures
 * (a line starting {@code SOAK RESULT}).
 */
class WheelTimerSoakTest {

    private static final int SCALE = Integer.getInteger("tickwheel.test.scale", 1);
    private static final long DEFAULT_SOAK_SECONDS = 40;
    private static final int DEFAULT_RATE = 50_000;
    private static final long SOAK_SECONDS = Long.getLong("tickwheel.soak.seconds", DEFAULT_SOAK_SECONDS);
    private static final int RATE = Integer.getInteger("tickwheel.soak.rate", DEFAULT_RATE);

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);
    private static final long DAY = TimeUnit.DAYS.toNanos(1);
    /** The clock jumps this far ... */
    private static final long JUMP_NANOS = 2 * HOUR;
    /** ... this often (real time): 20 virtual hours per real second. */
    private static final long JUMP_EVERY_NANOS = 100 * MS;
    private static final int PRODUCERS = 3;
    private static final int CANCELLERS = 2;
    private static final int WORKERS = 2;
    private static final long MAX_PENDING = 200_000;
    private static final TimeUnit[] UNITS = TimeUnit.values();

    /**
     * The wake-up handshake, hammered: the test thread plays the owner deciding to park ({@code planPark()} on the
     * manual-drive seam) while a producer schedules a timer due now, both released at the same instant. Either the
     * owner's re-check finds the timer (planPark returns AWAKE) or the producer sees the plan and wakes the owner
     * (isAwake); if neither, a real owner would park indefinitely with the timer in its queue: a lost timer.
     *
     * <p>This is the store-buffer litmus test: the producer's element store in the queue is only a release, so
     * unless one side orders it (a fence before the producer loads the plan, or the owner judging by the queue's
     * producer index rather than the element), both sides can miss each other. Before the fix it lost the wake-up
     * in 577 of 200,000 trials on this 2-core machine.
     */
    @Test
    void scheduleRacingTheOwnersParkDecisionAlwaysWakesTheOwner() throws Exception {
        int trials = 50_000 * SCALE;
        AtomicLong clock = new AtomicLong();
        WheelTimer timer = WheelTimer.builder().timeSource(clock::get).manualDrive().executor(Runnable::run).build();
        AtomicInteger ran = new AtomicInteger();
        Runnable task = ran::incrementAndGet;
        // go: 2i-1 releases trial i to both sides; the producer then moves it to 2i when its schedule returned.
        AtomicInteger go = new AtomicInteger();
        AtomicInteger stopAt = new AtomicInteger(Integer.MAX_VALUE);
        AtomicInteger scheduled = new AtomicInteger();
        Thread producer = new Thread(() -> {
            for (int i = 1; i <= trials && i <= stopAt.get(); i++) {
                awaitValue(go, 2 * i - 1);
                timer.schedule(task, 0, TimeUnit.NANOSECONDS);
                scheduled.incrementAndGet();
                go.incrementAndGet();
            }
        }, "soak-handshake-producer");
        producer.setDaemon(true);
        producer.start();
        int lost = 0;
        int firstLost = -1;
        SplittableRandom jitter = new SplittableRandom(42);
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10L * SCALE); // a length cap on a loaded machine
        int done = 0;
        for (int i = 1; i <= trials; i++) {
            go.incrementAndGet();
            // A few pauses of random length slide the owner's store-then-load across the producer's offer.
            for (int k = jitter.nextInt(8); k > 0; k--) {
                Thread.onSpinWait();
            }
            long planned = OwnerPark.of(timer).planPark();
            awaitValue(go, 2 * i);
            if (planned != WheelTimer.AWAKE && !OwnerPark.of(timer).isAwake()) {
                lost++;
                if (firstLost < 0) {
                    firstLost = i;
                }
            }
            while (OwnerLoop.of(timer).step()) {
                // drain; the direct executor runs the task inside step()
            }
            if (!OwnerPark.of(timer).isAwake()) {
                // A lost trial leaves the plan standing: a schedule sees it and resets it, as a real producer would.
                timer.schedule(() -> { }, 0, TimeUnit.NANOSECONDS);
                while (OwnerLoop.of(timer).step()) {
                    // drain
                }
            }
            done = i;
            if (System.nanoTime() - giveUp > 0) {
                stopAt.set(i);
                go.incrementAndGet(); // releases a producer already waiting for trial i + 1; it then stops
                break;
            }
        }
        producer.join();
        while (OwnerLoop.of(timer).step()) {
            // the producer's last timer, if it started one more
        }
        assertEquals(0, lost, "trials in which the owner would have parked with a due timer in its queue and no"
                + " wake-up coming, of " + done + " (first: trial " + firstLost + ")");
        assertEquals(scheduled.get(), ran.get(), "every timer still ran at the next step");
        timer.shutdownNow();
    }

    /** Spins briefly, then yields: on a loaded 2-core machine the other side may not be running. */
    private static void awaitValue(AtomicInteger value, int expected) {
        for (int spins = 0; value.get() != expected; spins++) {
            if (spins < 20_000) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // The ledger soak

    /**
     * The soak with an accounting ledger (issue 6). For {@code tickwheel.soak.seconds}:
     * <ul>
     *   <li>{@value #PRODUCERS} producers start one-shot timers at {@code tickwheel.soak.rate} per second in all,
     *   through both schedule overloads and submit, in every TimeUnit, with delays across every wheel level:
     *   Long.MIN_VALUE, negative and zero (now), sub-tick (1 ns - 1 ms), then each level of the default levels
     *   (9, 9, then 6 bits) at a 1 ms tick (up to 512 ms, 4.4 min, 4.7 h, 12 days, then 60 days) and "never" (100 years to
     *   Long.MAX_VALUE); the far and never ones live in bounded rings and are cancelled by their producer when
     *   the ring comes round, so the live set stays bounded;</li>
     *   <li>they also keep 16 periodic timers each (fixed delay at 1-50 ms, fixed rate at 30 min - 6 h), replacing
     *   a random one now and then: the old one is cancelled;</li>
     *   <li>{@value #CANCELLERS} cancellers cancel 30% of the one-shots and 20% of the periodic ones, racing the
     *   owner (a second cancel must return false);</li>
     *   <li>the clock: the real clock plus an offset the test jumps by 2 h every 100 ms (20 virtual hours per
     *   second), so timers of hours and days fire within seconds, while the sub-tick to ~100 ms ones fire in real
     *   time on the real owner thread and workers, racing real cancels. A real owner, not the manual-drive seam,
     *   because the soak is there to exercise the real concurrency: the wake-up handshake, parking, the worker
     *   hand-off and cancel against fire on other threads. After each jump a delay-0 timer wakes a parked owner,
     *   which otherwise sleeps the real time it planned before the jump;</li>
     *   <li>finally shutdownNow, with every periodic timer cancelled first and the cancellers stopped.</li>
     * </ul>
     * The ledger checks every timer: never lost (ran, cancelled by a cancel that returned true, or handed back by
     * shutdownNow: exactly one), never run twice, never early by the time source, never both cancelled and run;
     * periodic runs never overlap, are never early and stop when cancel returns true. Used heap after GC at the
     * start and end of the steady phase stays flat, and the pending count and the wheel end at zero.
     */
    @Test
    void ledgerAccountsForEveryTimerAcrossEveryWheelLevelThroughCancelsPeriodicsClockJumpsAndShutdownNow()
            throws Exception {
        SoakLedger ledger = new SoakLedger();
        SoakClock clock = ledger.clock;
        WheelTimer timer = WheelTimer.builder().timeSource(clock).workerThreads(WORKERS).maxPending(MAX_PENDING)
                .threadNamePrefix("soak").build();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> crash = new AtomicReference<>();
        ArrayBlockingQueue<Object> toCancel = new ArrayBlockingQueue<>(1 << 14);

        List<Producer> producers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long seed = Long.getLong("tickwheel.test.seed", System.nanoTime());
        for (int p = 0; p < PRODUCERS; p++) {
            Producer producer = new Producer(ledger, timer, toCancel, stop, seed + p, (double) RATE / PRODUCERS);
            producers.add(producer);
            threads.add(new Thread(producer, "soak-producer-" + p));
        }
        for (int c = 0; c < CANCELLERS; c++) {
            long cancellerSeed = seed + 100 + c;
            threads.add(new Thread(() -> cancel(ledger, toCancel, stop, cancellerSeed), "soak-canceller-" + c));
        }
        for (Thread t : threads) {
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((thread, e) -> crash.compareAndSet(null, e));
            t.start();
        }

        // The conductor: jumps the clock, samples the metrics, measures the heap at the steady phase's ends.
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(SOAK_SECONDS);
        long steadyStart = start + Math.max(TimeUnit.SECONDS.toNanos(10), (end - start) * 3 / 10);
        long nextJump = start + JUMP_EVERY_NANOS;
        long jumps = 0;
        long maxPending = 0;
        long maxLag = 0;
        long heapStart = -1;
        long openAtStart = 0;
        long acceptedAtStart = 0;
        long steadyStartedAt = 0;
        for (long now = System.nanoTime(); now - end < 0 && crash.get() == null; now = System.nanoTime()) {
            if (now - nextJump >= 0) {
                clock.jump(JUMP_NANOS);
                jumps++;
                nextJump += JUMP_EVERY_NANOS;
                startOneShot(ledger, timer, 0, TimeUnit.NANOSECONDS, false); // wakes an owner parked before the jump
            }
            TimerMetrics m = timer.metrics();
            maxPending = Math.max(maxPending, m.pending());
            maxLag = Math.max(maxLag, m.lagNanos());
            if (heapStart < 0 && now - steadyStart >= 0) {
                heapStart = usedHeapAfterGc();
                openAtStart = ledger.open.size();
                acceptedAtStart = ledger.accepted.sum();
                steadyStartedAt = System.nanoTime();
            }
            long sleep = Math.min(nextJump, end) - System.nanoTime();
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
        }
        long heapEnd = usedHeapAfterGc();
        long openAtEnd = ledger.open.size();
        long steadyNanos = System.nanoTime() - steadyStartedAt;
        long acceptedInSteady = ledger.accepted.sum() - acceptedAtStart;

        stop.set(true);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(!t.isAlive(), t.getName() + " did not stop");
        }
        long elapsedNanos = System.nanoTime() - start;
        assertNull(crash.get(), () -> "a soak thread crashed: " + crash.get());

        // shutdownNow: match what it hands back against the open records.
        Map<Future<?>, SoakTimer> byFuture = new IdentityHashMap<>();
        for (SoakTimer t : ledger.open) {
            byFuture.put(t.future, t);
        }
        List<Runnable> handedBack = timer.shutdownNow();
        for (Runnable r : handedBack) {
            SoakTimer t = byFuture.get(r);
            if (t == null) {
                ledger.violation(ledger.otherViolations, "shutdownNow handed back a timer that was not open: " + r);
            } else if (t.settle(SoakLedger.RETURNED)) {
                ledger.returned.increment();
            }
        }
        assertTrue(timer.awaitTermination(60, TimeUnit.SECONDS), "the timer terminated");
        for (SoakTimer t : ledger.open) {
            ledger.violation(ledger.lost, "lost: outcome " + t.outcome() + ", future " + t.future);
        }
        for (Producer p : producers) {
            p.verifyPeriodics();
        }

        TimerMetrics m = timer.metrics();
        long accepted = ledger.accepted.sum();
        SoakLedger.SoakHistogram late = ledger.lateness;
        String result = String.format("SOAK RESULT: %.1f s (steady phase %.1f s), %d producers, %d cancellers,"
                        + " %d workers, target %d timers/s, seed %d%n"
                        + "  one-shot timers: accepted %,d (%,.0f/s overall, %,.0f/s in the steady phase), ran %,d,"
                        + " cancelled %,d, handed back by shutdownNow %,d, rejected at maxPending %,d%n"
                        + "  periodic timers: %,d started, %,d runs, %,d cancelled%n"
                        + "  clock jumps: %,d of 2 h (%,d virtual hours)%n"
                        + "  lateness of real-time timers (no jump in between; n=%,d): p50 %s, p90 %s, p99 %s,"
                        + " p99.9 %s, max %s%n"
                        + "  used heap after GC: %.1f MB at the steady phase's start (%,d timers open),"
                        + " %.1f MB at its end (%,d open)%n"
                        + "  max pending %,d, max owner lag %s; at the end: pending %d, wheel size %d%n"
                        + "  lost %d, duplicate %d, early %d, cancelled-and-ran %d, other violations %d%n",
                elapsedNanos / 1e9, steadyNanos / 1e9, PRODUCERS, CANCELLERS, WORKERS, RATE, seed,
                accepted, accepted / (elapsedNanos / 1e9), acceptedInSteady / (steadyNanos / 1e9),
                ledger.ran.sum(), ledger.cancelled.sum(), ledger.returned.sum(), ledger.rejectedAtLimit.sum(),
                ledger.periodicAccepted.sum(), ledger.periodicRuns.sum(), ledger.periodicCancelled.sum(),
                jumps, jumps * 2,
                late.count(), micros(late.percentile(0.50)), micros(late.percentile(0.90)),
                micros(late.percentile(0.99)), micros(late.percentile(0.999)), micros(late.max()),
                heapStart / 1e6, openAtStart, heapEnd / 1e6, openAtEnd,
                maxPending, micros(maxLag), m.pending(), OwnerLoop.of(timer).wheel().size(),
                ledger.lost.sum(), ledger.duplicate.sum(), ledger.early.sum(), ledger.cancelledAndRan.sum(),
                ledger.otherViolations.sum());
        System.out.print(result);

        assertEquals(0, ledger.violations(), () -> "ledger violations, first ones: " + ledger.examples()
                + "\n" + result);
        assertEquals(accepted, ledger.ran.sum() + ledger.cancelled.sum() + ledger.returned.sum(),
                "every one-shot ended exactly one way");
        assertTrue(accepted > 0 && ledger.ran.sum() > 0 && ledger.cancelled.sum() > 0 && ledger.returned.sum() > 0
                && ledger.periodicRuns.sum() > 0, "every path was exercised:\n" + result);
        assertEquals(0, m.pending(), "pending back to zero");
        assertTrue(OwnerLoop.of(timer).wheel().isEmpty(), "the wheel is empty");
        assertEquals(accepted + ledger.periodicAccepted.sum(), m.scheduled(), "the timer counted what we counted");
        assertEquals(ledger.cancelled.sum() + ledger.periodicCancelled.sum(), m.cancelled());
        assertTrue(m.fired() >= ledger.ran.sum() + ledger.periodicRuns.sum());
        assertTrue(heapStart > 0, "the steady phase was measured");
        long tolerance = Math.max(32_000_000L, heapStart / 2);
        assertTrue(heapEnd <= heapStart + tolerance, String.format("used heap after GC grew from %.1f MB to %.1f"
                + " MB, more than the %.1f MB tolerance%n%s", heapStart / 1e6, heapEnd / 1e6, tolerance / 1e6,
                result));
    }

    private static String micros(long nanos) {
        return nanos < 10_000_000 ? String.format("%.0f us", nanos / 1e3) : String.format("%.1f ms", nanos / 1e6);
    }

    private static long usedHeapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    /**
     * Starts a one-shot timer through the ledger: the record is open before schedule is called, and its earliest
     * allowed start is the clock read before the call plus the delay.
     *
     * @return the record, or null if the timer rejected it at maxPending
     */
    static SoakTimer startOneShot(SoakLedger ledger, WheelTimer timer, long amount, TimeUnit unit, boolean callable) {
        SoakClock.Warp w = ledger.clock.warp;
        long t0 = System.nanoTime() + w.offset;
        long delayNanos = amount <= 0 ? 0 : unit.toNanos(amount);
        SoakTimer record = new SoakTimer(ledger, SoakLedger.saturatedAdd(t0, delayNanos), w.generation);
        ledger.open.add(record);
        Future<?> f;
        try {
            if (amount == 0 && callable) {
                f = timer.submit((Runnable) record);
            } else {
                f = callable ? timer.schedule((Callable<Object>) record, amount, unit)
                        : timer.schedule((Runnable) record, amount, unit);
            }
        } catch (RejectedExecutionException e) {
            ledger.open.remove(record); // never accepted, so never run
            if (e.getMessage().contains("maxPending")) {
                ledger.rejectedAtLimit.increment();
            } else {
                ledger.violation(ledger.otherViolations, "unexpected rejection: " + e);
            }
            return null;
        }
        record.future = f;
        ledger.accepted.increment();
        return record;
    }

    /** A producer of one-shot and periodic timers at a steady rate. */
    private static final class Producer implements Runnable {
        private final SoakLedger ledger;
        private final WheelTimer timer;
        private final ArrayBlockingQueue<Object> toCancel;
        private final AtomicBoolean stop;
        private final SplittableRandom random;
        private final double rate;
        /** Far (12-60 days) and never-due timers: bounded rings, cancelled by this producer when overwritten. */
        private final SoakTimer[] far = new SoakTimer[4096];
        private final SoakTimer[] never = new SoakTimer[256];
        private int farNext;
        private int neverNext;
        private final SoakPeriodic[] periodic = new SoakPeriodic[16];
        /** Retired periodic timers, checked when evicted (long after their cancel) and at the end. */
        private final SoakPeriodic[] retired = new SoakPeriodic[1024];
        private int retiredNext;

        Producer(SoakLedger ledger, WheelTimer timer, ArrayBlockingQueue<Object> toCancel, AtomicBoolean stop,
                 long seed, double rate) {
            this.ledger = ledger;
            this.timer = timer;
            this.toCancel = toCancel;
            this.stop = stop;
            this.random = new SplittableRandom(seed);
            this.rate = rate;
        }

        @Override
        public void run() {
            long begin = System.nanoTime();
            long sent = 0;
            while (!stop.get()) {
                for (int b = 0; b < 32; b++) {
                    startOne();
                    sent++;
                }
                long ahead = begin + (long) (sent * 1e9 / rate) - System.nanoTime();
                if (ahead > 0) {
                    LockSupport.parkNanos(ahead);
                } else if (ahead < -TimeUnit.SECONDS.toNanos(1)) {
                    begin += -ahead - TimeUnit.SECONDS.toNanos(1); // fell behind (a loaded machine): do not burst
                }
            }
            for (SoakPeriodic p : periodic) {
                if (p != null) {
                    p.cancel(random.nextBoolean());
                }
            }
        }

        private void startOne() {
            int kind = random.nextInt(1000);
            if (kind >= 998) {
                replacePeriodic();
                return;
            }
            long amount;
            TimeUnit unit;
            if (kind < 60) {
                int how = random.nextInt(10);
                amount = how == 0 ? Long.MIN_VALUE : how < 5 ? 0 : -1 - random.nextLong(1_000_000);
                unit = UNITS[random.nextInt(UNITS.length)];
            } else if (kind >= 985) {
                if (random.nextBoolean()) {
                    amount = Long.MAX_VALUE;
                    unit = UNITS[random.nextInt(UNITS.length)];
                } else {
                    amount = 36_500 + random.nextInt(70_000); // 100 to 290 years
                    unit = TimeUnit.DAYS;
                }
            } else {
                long nanos;
                if (kind < 200) {
                    nanos = 1 + random.nextLong(MS - 1);                 // sub-tick
                } else if (kind < 450) {
                    nanos = logUniform(MS, 512 * MS);                    // level 0
                } else if (kind < 600) {
                    nanos = logUniform(512 * MS, 262_144 * MS);          // level 1
                } else if (kind < 750) {
                    nanos = logUniform(262_144 * MS, 16_777_216 * MS);   // level 2
                } else if (kind < 970) {
                    nanos = logUniform(16_777_216 * MS, 1_073_741_824 * MS); // level 3
                } else {
                    nanos = logUniform(1_073_741_824 * MS, 60 * DAY);   // level 4
                }
                unit = UNITS[random.nextInt(UNITS.length)];
                while (unit.convert(nanos, TimeUnit.NANOSECONDS) == 0) {
                    unit = UNITS[unit.ordinal() - 1];
                }
                amount = unit.convert(nanos, TimeUnit.NANOSECONDS);
            }
            SoakTimer t = startOneShot(ledger, timer, amount, unit, random.nextBoolean());
            if (t == null) {
                LockSupport.parkNanos(MS); // at maxPending: back off
                return;
            }
            if (kind >= 985) {
                cancelOwn(never, neverNext, t);
                neverNext = (neverNext + 1) % never.length;
            } else if (kind >= 970) {
                cancelOwn(far, farNext, t);
                farNext = (farNext + 1) % far.length;
            } else if (random.nextInt(100) < 30) {
                toCancel.offer(t); // when the cancellers are behind, this one is simply not cancelled
            }
        }

        private void cancelOwn(SoakTimer[] ring, int index, SoakTimer fresh) {
            SoakTimer old = ring[index];
            ring[index] = fresh;
            // The strict cancel: its true means the task never ran, which is what the ledger's exactly-once checks
            // (cancel() itself follows FutureTask and also succeeds against a running task).
            if (old != null && ((TimerFuture<?>) old.future).cancelIfNotStarted()
                    && old.settle(SoakLedger.CANCELLED)) {
                ledger.cancelled.increment();
            } // else it ran (a far one may come due); the ledger has it
        }

        private long logUniform(long from, long to) {
            return (long) Math.exp(Math.log(from) + random.nextDouble() * (Math.log(to) - Math.log(from)));
        }

        private void replacePeriodic() {
            int slot = random.nextInt(periodic.length);
            SoakPeriodic old = periodic[slot];
            if (old != null) {
                old.cancel(random.nextBoolean()); // false if a canceller won first: checked at eviction
                SoakPeriodic evicted = retired[retiredNext];
                retired[retiredNext] = old;
                retiredNext = (retiredNext + 1) % retired.length;
                if (evicted != null) {
                    evicted.verifyEnded();
                }
            }
            boolean fixedRate = random.nextBoolean();
            long period = fixedRate ? logUniform(HOUR / 2, 6 * HOUR) : logUniform(MS, 50 * MS);
            long initial = fixedRate ? random.nextLong(HOUR) : random.nextLong(50 * MS);
            long t0 = ledger.clock.nanoTime();
            SoakPeriodic p = new SoakPeriodic(ledger, fixedRate, period, t0 + initial);
            try {
                p.future = fixedRate ? timer.scheduleAtFixedRate(p, initial, period, TimeUnit.NANOSECONDS)
                        : timer.scheduleWithFixedDelay(p, initial, period, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                periodic[slot] = null;
                if (e.getMessage().contains("maxPending")) {
                    ledger.rejectedAtLimit.increment();
                } else {
                    ledger.violation(ledger.otherViolations, "unexpected rejection: " + e);
                }
                return;
            }
            ledger.periodicAccepted.increment();
            periodic[slot] = p;
            if (random.nextInt(100) < 20) {
                toCancel.offer(p);
            }
        }

        /** After the timer terminated: every periodic timer this producer started ended by exactly one cancel. */
        void verifyPeriodics() {
            for (SoakPeriodic p : retired) {
                if (p != null) {
                    p.verifyEnded();
                }
            }
            for (SoakPeriodic p : periodic) {
                if (p != null) {
                    p.verifyEnded();
                }
            }
        }
    }

    /** A canceller: cancels what the producers offer, racing the owner and the workers. */
    private static void cancel(SoakLedger ledger, ArrayBlockingQueue<Object> toCancel, AtomicBoolean stop,
                               long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try {
            while (!stop.get()) {
                Object o = toCancel.poll(10, TimeUnit.MILLISECONDS);
                if (o instanceof SoakTimer) {
                    SoakTimer t = (SoakTimer) o;
                    if (((TimerFuture<?>) t.future).cancelIfNotStarted()) { // the strict cancel: see cancelOwn
                        if (t.settle(SoakLedger.CANCELLED)) {
                            ledger.cancelled.increment();
                        }
                        if (random.nextInt(20) == 0 && t.future.cancel(false)) {
                            ledger.violation(ledger.otherViolations, "a second cancel() returned true");
                        }
                    }
                } else if (o instanceof SoakPeriodic) {
                    ((SoakPeriodic) o).cancel(random.nextBoolean());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

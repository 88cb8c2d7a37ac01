package dev.tickwheel;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deterministic tests of {@link WheelTimer} on a {@link ManualTimeSource}, through the manual-drive seam: no owner
 * thread, the test thread steps the owner ({@code step()}, {@code planPark()}) and tasks run inside the step on a
 * direct executor. No sleeps, no timing; every assertion is about which step fires what.
 *
 * <p>With a 1 ms tick and an origin at the clock's reading when the timer is built, a timer scheduled at
 * elapsed time {@code s} with delay {@code d} is due at tick {@code ceil((s + d) / tick)}, and fires at the first
 * step whose clock is at or past that tick's start.
 */
class WheelTimerManualClockTest {

    /** The tests' keys and deadlines are in whole milliseconds: a 1 ms tick, not the default. */
    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);

    /** A manually driven timer whose tasks run inside {@code step()} on the calling thread. */
    private static WheelTimer manualTimer(ManualTimeSource clock) {
        return WheelTimer.builder().tick(TICK, NANOSECONDS).timeSource(clock).manualDrive().executor(Runnable::run).build();
    }

    private static WheelTimer manualTimer(ManualTimeSource clock, int batch) {
        return WheelTimer.builder().tick(TICK, NANOSECONDS).timeSource(clock).manualDrive().executor(Runnable::run).ownerBatch(batch).build();
    }

    private static long key(ScheduledFuture<?> f) {
        return ((ScheduledTimer<?>) f).key();
    }

    // ==========================================================================================================
    // Never early, at every level boundary

    /** Delays, in nanoseconds, that sit on and next to every power of two of ticks (so on every level boundary, whatever the levels), and beyond. */
    static long[] boundaryDelays() {
        List<Long> ticks = new ArrayList<>(List.of(1L, 2L, 3L, 63L, 64L, 65L, 127L, 128L, 129L, 4095L, 4096L, 4097L,
                262_143L, 262_144L, 262_145L));
        for (int k = 1; k <= 43; k++) { // 2^43 + 1 ticks of 1 ms is still below Long.MAX_VALUE ns
            ticks.add((1L << k) - 1);
            ticks.add(1L << k);
            ticks.add((1L << k) + 1);
        }
        List<Long> nanos = new ArrayList<>();
        for (long t : ticks) {
            nanos.add(t * TICK);
        }
        nanos.addAll(List.of(HOURS.toNanos(1), HOURS.toNanos(25), DAYS.toNanos(7), DAYS.toNanos(365),
                DAYS.toNanos(10_000), DAYS.toNanos(106_751)));
        return nanos.stream().distinct().sorted().mapToLong(Long::longValue).toArray();
    }

    /** Where the wheel stands when the timer is scheduled, in ticks: aligned, just past and just before a level. */
    private static final long[] OFFSET_TICKS = {0, 1, 63, 64, 4095, 4097, (1L << 20) + 5, (1L << 30) + 7};

    /** Clock readings at the origin: zero, negative, and just before the wrap-around of a {@code long}. */
    private static final long[] CLOCK_STARTS = {0L, -123_456_789_012_345L, Long.MAX_VALUE - 5 * TICK};

    enum Approach {
        /** Step once at deadline - 1 ns, then at the deadline. */
        JUMP,
        /** Step at deadline - 2^j ns for every j first, so every cascade happens on its own step. */
        WALK,
        /** Schedule 1 ns after a tick starts: the deadline is mid-tick and rounds up to the next tick. */
        UNALIGNED
    }

    static Stream<Arguments> boundaryCases() {
        List<Arguments> cases = new ArrayList<>();
        for (long start : CLOCK_STARTS) {
            for (long offset : OFFSET_TICKS) {
                for (Approach a : Approach.values()) {
                    cases.add(Arguments.of(start, offset, a));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "clock starts at {0}, scheduled at tick {1}, {2}")
    @MethodSource("boundaryCases")
    void neverEarlyAtEveryLevelBoundary(long start, long offsetTicks, Approach approach) {
        for (long delay : boundaryDelays()) {
            long scheduledAt = offsetTicks * TICK + (approach == Approach.UNALIGNED ? 1 : 0);
            if (scheduledAt + delay < 0) {
                continue; // past the end of time: see longMaxValueDelay* below
            }
            ManualTimeSource clock = new ManualTimeSource(start);
            WheelTimer t = manualTimer(clock, 64);
            clock.advanceTo(start, offsetTicks * TICK);
            OwnerLoop.of(t).step(); // the wheel now stands at the offset
            clock.advanceTo(start, scheduledAt);
            AtomicInteger runs = new AtomicInteger();
            ScheduledFuture<?> f = t.schedule(runs::incrementAndGet, delay, NANOSECONDS);
            long deadline = scheduledAt + delay;
            long firesAt = Math.floorDiv(deadline + TICK - 1, TICK) * TICK; // the deadline rounded up to a tick
            String what = "delay " + delay + " ns (" + (delay / TICK) + " ticks) scheduled at " + scheduledAt;

            if (approach == Approach.WALK) {
                for (int j = 62; j >= 1; j--) {
                    long at = firesAt - (1L << j);
                    if (at > clock.nanoTime() - start && at > scheduledAt) {
                        clock.advanceTo(start, at);
                        OwnerLoop.of(t).step();
                        assertEquals(0, runs.get(), what + ": fired at " + at + ", before its deadline " + deadline);
                    }
                }
            }
            if (approach == Approach.UNALIGNED) {
                clock.advanceTo(start, deadline);
                OwnerLoop.of(t).step();
                assertEquals(0, runs.get(), what + ": fired before the end of its deadline's tick");
            }
            clock.advanceTo(start, firesAt - 1);
            OwnerLoop.of(t).step();
            assertEquals(0, runs.get(), what + ": fired 1 ns before " + firesAt);
            assertTrue(f.getDelay(NANOSECONDS) > 0, what + ": getDelay " + f.getDelay(NANOSECONDS) + " before due");
            clock.advanceTo(start, firesAt);
            OwnerLoop.of(t).step();
            assertEquals(1, runs.get(), what + ": did not fire at the first step at " + firesAt);
            OwnerLoop.of(t).step();
            assertEquals(1, runs.get(), what + ": fired twice");
            assertTrue(f.isDone());
            assertEquals(0, OwnerLoop.of(t).wheel().size());
        }
    }

    /**
     * All the boundary delays pending in one wheel at once: each step fires exactly the timers whose (tick-aligned)
     * deadline has come, so none is early, none is late, and cascading one does not disturb another.
     */
    @ParameterizedTest(name = "scheduled at tick {0}")
    @MethodSource("offsets")
    void everyBoundaryDelayPendingInOneWheelFiresExactlyAtItsDeadline(long offsetTicks) {
        long start = 987_654_321L;
        ManualTimeSource clock = new ManualTimeSource(start);
        WheelTimer t = manualTimer(clock);
        clock.advanceTo(start, offsetTicks * TICK);
        OwnerLoop.of(t).step();
        long scheduledAt = offsetTicks * TICK;
        TreeMap<Long, List<Integer>> byDeadline = new TreeMap<>();
        long[] delays = boundaryDelays();
        AtomicIntegerArray runs = new AtomicIntegerArray(delays.length);
        for (int i = 0; i < delays.length; i++) {
            if (scheduledAt + delays[i] < 0) {
                continue;
            }
            int id = i;
            t.schedule(() -> runs.incrementAndGet(id), delays[i], NANOSECONDS);
            byDeadline.computeIfAbsent(scheduledAt + delays[i], d -> new ArrayList<>()).add(i);
        }
        List<Integer> fired = new ArrayList<>();
        for (Map.Entry<Long, List<Integer>> e : byDeadline.entrySet()) {
            long deadline = e.getKey();
            clock.advanceTo(start, deadline - 1);
            OwnerLoop.of(t).step();
            assertEquals(fired, firedIds(runs), "at " + (deadline - 1) + ", 1 ns before a deadline");
            clock.advanceTo(start, deadline);
            OwnerLoop.of(t).step();
            fired.addAll(e.getValue());
            fired.sort(null);
            assertEquals(fired, firedIds(runs), "at the deadline " + deadline);
        }
        assertEquals(0, OwnerLoop.of(t).wheel().size());
        assertEquals(fired.size(), t.metrics().fired());
    }

    static java.util.stream.LongStream offsets() {
        return java.util.stream.LongStream.of(OFFSET_TICKS);
    }

    private static List<Integer> firedIds(AtomicIntegerArray runs) {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < runs.length(); i++) {
            assertTrue(runs.get(i) <= 1, "timer " + i + " fired " + runs.get(i) + " times");
            if (runs.get(i) == 1) {
                ids.add(i);
            }
        }
        return ids;
    }

    /**
     * Long.MAX_VALUE ns from the origin is the last representable instant. With a tick that divides it exactly
     * (3577 ns = 7 * 7 * 73), the timer is due exactly then: not at Long.MAX_VALUE - 1, and at Long.MAX_VALUE.
     */
    @Test
    void longMaxValueNanosFiresExactlyAtTheLastInstantWhenTheTickDividesIt() {
        long tick = 7 * 7 * 73;
        assertEquals(0, Long.MAX_VALUE % tick);
        long start = -42L;
        ManualTimeSource clock = new ManualTimeSource(start);
        WheelTimer t = WheelTimer.builder().tick(TICK, NANOSECONDS).timeSource(clock).manualDrive().executor(Runnable::run)
                .tick(tick, NANOSECONDS).build();
        AtomicInteger runs = new AtomicInteger();
        t.schedule(runs::incrementAndGet, Long.MAX_VALUE, NANOSECONDS);
        OwnerLoop.of(t).step();

        clock.advanceTo(start, Long.MAX_VALUE - 1);
        OwnerLoop.of(t).step();
        assertEquals(0, runs.get());
        clock.advanceTo(start, Long.MAX_VALUE);
        OwnerLoop.of(t).step();
        assertEquals(1, runs.get());
    }

    /**
     * With the default tick, a delay of Long.MAX_VALUE in any unit (saturated to Long.MAX_VALUE ns) is due at a tick
     * that starts after the last representable instant: never early means it never fires, and nothing overflows
     * into the past on the way, at any clock reading up to the end.
     */
    @Test
    void longMaxValueDelayInEveryUnitNeverFiresUpToTheLastInstant() {
        long start = Long.MAX_VALUE - 3; // the elapsed time wraps the long readings right away
        ManualTimeSource clock = new ManualTimeSource(start);
        WheelTimer t = manualTimer(clock);
        AtomicInteger runs = new AtomicInteger();
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (TimeUnit unit : TimeUnit.values()) {
            futures.add(t.schedule(runs::incrementAndGet, Long.MAX_VALUE, unit));
            futures.add(t.scheduleAtFixedRate(runs::incrementAndGet, Long.MAX_VALUE, 1, unit));
            futures.add(t.scheduleWithFixedDelay(runs::incrementAndGet, Long.MAX_VALUE, Long.MAX_VALUE, unit));
        }
        for (long elapsed : new long[] {0, TICK, HOURS.toNanos(1), Long.MAX_VALUE / 2, Long.MAX_VALUE - TICK,
                Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            clock.advanceTo(start, elapsed);
            OwnerLoop.of(t).step();
            assertEquals(0, runs.get(), "fired at elapsed " + elapsed);
        }
        for (ScheduledFuture<?> f : futures) {
            assertFalse(f.isDone());
        }
        assertEquals(futures.size(), OwnerLoop.of(t).wheel().size());
    }

    // ==========================================================================================================
    // Cascading while other threads schedule

    /**
     * Several producer threads schedule while the test thread advances the clock in irregular jumps (within a tick,
     * across level boundaries, across many levels) and steps. Every timer fires exactly once, never before its
     * delay, and on time: at the first step that both had a chance to see it and was at or past its tick. A step
     * has had that chance once it starts after the timer's schedule returned and after every other producer's
     * schedule call that was in flight then has returned too: a producer between its queue index claim and its
     * element store hides every later offer from the owner's drain until it stores (seen on a loaded machine: a
     * producer descheduled there for a thousand steps).
     */
    @Test
    void cascadingUnderConcurrentSchedulingFiresEveryTimerOnceNeverEarlyAndOnTime() throws Exception {
        int producers = 3;
        int perProducer = (int) Math.max(1_000, 20_000 * WheelTimerConcurrencyTest.scale());
        int total = producers * perProducer;
        long seed = System.nanoTime();
        long start = 5_000_000_000L;
        ManualTimeSource clock = new ManualTimeSource(start);
        // A batch above the total: every step drains every start command offered before it began.
        WheelTimer t = manualTimer(clock, total + 1);

        long[] requestedAt = new long[total];
        long[] delays = new long[total];
        int[] stepsSeenBySchedule = new int[total];
        int[] stepsBeforeSchedule = new int[total];
        ScheduledFuture<?>[] futures = new ScheduledFuture<?>[total];
        AtomicIntegerArray runs = new AtomicIntegerArray(total);
        int[] firedAtStep = new int[total];
        long[] firedAt = new long[total];
        AtomicInteger stepsStarted = new AtomicInteger();
        List<Long> stepClock = new ArrayList<>();
        stepClock.add(Long.MIN_VALUE); // steps count from 1

        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int p = 0; p < producers; p++) {
            int first = p * perProducer;
            SplittableRandom rnd = new SplittableRandom(seed + p);
            Thread th = new Thread(() -> {
                try {
                    go.await();
                    for (int id = first; id < first + perProducer; id++) {
                        int timer = id;
                        long delay = randomDelay(rnd);
                        requestedAt[id] = clock.nanoTime() - start;
                        delays[id] = delay;
                        stepsBeforeSchedule[id] = stepsStarted.get();
                        futures[id] = t.schedule(() -> {
                            runs.incrementAndGet(timer);
                            firedAtStep[timer] = stepsStarted.get(); // runs on the stepping thread
                            firedAt[timer] = clock.nanoTime() - start;
                        }, delay, NANOSECONDS);
                        // The offer's element store is a release (a lazySet), which a later load may pass: without a
                        // full fence this thread could read the step count before its element is visible, and a
                        // step that began after that read could still miss the element (the test's bound, not the
                        // library, would then be one step off; the real owner's planPark checks the indexes).
                        VarHandle.fullFence();
                        stepsSeenBySchedule[id] = stepsStarted.get();
                        if ((id & 255) == 0) {
                            Thread.yield();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "producer-" + p);
            th.start();
            threads.add(th);
        }

        SplittableRandom steps = new SplittableRandom(seed - 1);
        go.countDown();
        while (threads.stream().anyMatch(Thread::isAlive)) {
            clock.advance(randomStep(steps), NANOSECONDS);
            stepClock.add(clock.nanoTime() - start);
            stepsStarted.incrementAndGet();
            OwnerLoop.of(t).step();
        }
        for (Thread th : threads) {
            th.join();
        }
        assertTrue(failures.isEmpty(), () -> "a producer failed: " + failures);
        // The tail: keep jumping (cascading through every level) until every timer has fired.
        int guard = 0;
        while (t.metrics().fired() < total || OwnerLoop.of(t).wheel().size() > 0) {
            assertTrue(++guard < 1_000_000, "timers never fired: " + t.metrics());
            long jump = steps.nextInt(4) == 0 ? steps.nextLong(1L << 22) * TICK : randomStep(steps);
            clock.advance(jump, NANOSECONDS);
            stepClock.add(clock.nanoTime() - start);
            stepsStarted.incrementAndGet();
            OwnerLoop.of(t).step();
        }

        for (int id = 0; id < total; id++) {
            String what = "seed " + seed + ", timer " + id + " (delay " + delays[id] + " ns requested at "
                    + requestedAt[id] + ")";
            assertEquals(1, runs.get(id), what + " ran " + runs.get(id) + " times");
            long earliest = requestedAt[id] + Math.max(0, delays[id]);
            assertTrue(firedAt[id] >= earliest, what + " fired early, at " + firedAt[id]);
            long dueAt = key(futures[id]) * TICK;
            assertTrue(firedAt[id] >= dueAt, what + " fired at " + firedAt[id] + " before its tick " + dueAt);
            int seen = stepsSeenBySchedule[id];
            int returned = seen;
            for (int q = 0; q < producers; q++) {
                // Each producer's last call begun by the time this one returned: its claim may precede ours.
                int last = lastAtOrBelow(stepsBeforeSchedule, q * perProducer, (q + 1) * perProducer, returned);
                if (last >= 0) {
                    seen = Math.max(seen, stepsSeenBySchedule[last]);
                }
            }
            int latestStep = firstStepAtOrAfter(stepClock, seen + 1, dueAt);
            assertTrue(firedAtStep[id] <= latestStep, what + " fired late: at step " + firedAtStep[id]
                    + " instead of " + latestStep);
        }
        assertEquals(0, t.metrics().pending());
        assertEquals(total, t.metrics().fired());
    }

    /** The first step from {@code from} on whose clock is at or past {@code at} (step clocks never decrease). */
    /** The last index in [from, to) whose value is at most {@code max}, or -1; the values are non-decreasing. */
    private static int lastAtOrBelow(int[] values, int from, int to, int max) {
        int lo = from;
        int hi = to - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (values[mid] <= max) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    private static int firstStepAtOrAfter(List<Long> stepClock, int from, long at) {
        int lo = from;
        int hi = stepClock.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (stepClock.get(mid) < at) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** 10% now or earlier, else spread over the levels, with sub-tick remainders. */
    private static long randomDelay(SplittableRandom rnd) {
        int kind = rnd.nextInt(10);
        long nanos = rnd.nextLong(TICK);
        switch (kind) {
            case 0: return -rnd.nextLong(TICK * 10);
            case 1: case 2: case 3: return rnd.nextLong(64) * TICK + nanos;
            case 4: case 5: case 6: return rnd.nextLong(64, 4096) * TICK + nanos;
            case 7: case 8: return rnd.nextLong(4096, 1L << 20) * TICK + nanos;
            default: return rnd.nextLong(1L << 20, 1L << 26) * TICK + nanos;
        }
    }

    /** Clock jumps: within a tick, a few ticks, across level 0, across level 1, across several levels. */
    private static long randomStep(SplittableRandom rnd) {
        int kind = rnd.nextInt(20);
        if (kind < 4) {
            return rnd.nextLong(TICK);
        } else if (kind < 10) {
            return rnd.nextLong(3 * TICK);
        } else if (kind < 16) {
            return rnd.nextLong(64 * TICK);
        } else if (kind < 19) {
            return rnd.nextLong(4096 * TICK);
        }
        return rnd.nextLong(1L << 16) * TICK;
    }

    // ==========================================================================================================
    // Bounded work per iteration

    @Test
    void eachStepFiresAtMostABatchOfDueTimersAndReportsTheBacklog() {
        ManualTimeSource clock = new ManualTimeSource(77L);
        WheelTimer t = manualTimer(clock, 10);
        AtomicInteger runs = new AtomicInteger();
        for (int i = 0; i < 1000; i++) {
            t.schedule(runs::incrementAndGet, 0, NANOSECONDS);
        }

        int steps = 0;
        for (;;) {
            int before = runs.get();
            boolean more = OwnerLoop.of(t).step();
            steps++;
            int fired = runs.get() - before;
            assertTrue(fired <= 10, "step " + steps + " fired " + fired);
            assertTrue(runs.get() + OwnerLoop.of(t).wheel().size() <= 10 * steps, "more than a batch of start commands a step");
            if (!more) {
                break;
            }
            assertTrue(steps <= 1000, "step() kept returning true");
        }
        assertEquals(1000, runs.get(), "step() returned false with a backlog left");
        assertTrue(steps >= 100);
        assertFalse(OwnerLoop.of(t).step());
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void aClumpOfSameTickTimersExpiresAtMostABatchPerStepWithLagUntilDone() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock, 10);
        AtomicInteger runs = new AtomicInteger();
        for (int i = 0; i < 1000; i++) {
            t.schedule(runs::incrementAndGet, 1, TimeUnit.MILLISECONDS);
        }
        int drainSteps = 0;
        while (OwnerLoop.of(t).step()) { // drains 10 start commands per step, nothing is due yet
            assertTrue(++drainSteps <= 1000);
        }
        assertEquals(1000, OwnerLoop.of(t).wheel().size());
        assertEquals(0, runs.get());

        clock.advance(1, TimeUnit.MILLISECONDS);
        int steps = 0;
        for (;;) {
            int before = runs.get();
            boolean more = OwnerLoop.of(t).step();
            steps++;
            int fired = runs.get() - before;
            assertTrue(fired <= 10, "step " + steps + " fired " + fired);
            if (runs.get() < 1000) {
                assertTrue(more, "step() returned false with a backlog left");
                assertTrue(t.metrics().lagNanos() > 0, "no lag reported with a backlog left");
            }
            if (!more) {
                break;
            }
            assertTrue(steps <= 1000, "step() kept returning true");
        }
        assertEquals(1000, runs.get());
        assertEquals(100, steps);
        assertEquals(0, t.metrics().lagNanos());
        assertEquals(0, OwnerLoop.of(t).wheel().size());
    }

    /**
     * The owner's park decision drains the start queue too (its half of the wake-up handshake), so timers already
     * due can be waiting in the owner's due list when the next step drains and expires a batch of its own. A step
     * must take all three without losing or failing any.
     */
    @Test
    void dueTimersDrainedByPlanParkAndAFullStepAllFireOnce() {
        ManualTimeSource clock = new ManualTimeSource();
        int batch = 10;
        WheelTimer t = manualTimer(clock, batch);
        AtomicIntegerArray runs = new AtomicIntegerArray(3 * batch);
        for (int i = 0; i < batch; i++) { // in the wheel, due at tick 1
            int id = i;
            t.schedule(() -> runs.incrementAndGet(id), 1, TimeUnit.MILLISECONDS);
        }
        assertTrue(OwnerLoop.of(t).step());
        assertFalse(OwnerLoop.of(t).step());
        assertEquals(batch, OwnerLoop.of(t).wheel().size());
        for (int i = batch; i < 2 * batch; i++) { // due now: planPark takes them into the due list
            int id = i;
            t.schedule(() -> runs.incrementAndGet(id), 0, NANOSECONDS);
        }
        assertEquals(WheelTimer.AWAKE, OwnerPark.of(t).planPark());
        for (int i = 2 * batch; i < 3 * batch; i++) { // due now: the next step's drain
            int id = i;
            t.schedule(() -> runs.incrementAndGet(id), 0, NANOSECONDS);
        }
        clock.advance(1, TimeUnit.MILLISECONDS); // and the wheel's batch expires

        for (int i = 0; i < 5 && (OwnerLoop.of(t).step() || t.metrics().fired() < 3 * batch); i++) {
            // a bounded number of steps
        }

        for (int i = 0; i < 3 * batch; i++) {
            assertEquals(1, runs.get(i), "timer " + i);
        }
        assertEquals(0, t.metrics().pending());
    }

    // ==========================================================================================================
    // Parking decisions

    @Test
    void planParkReturnsNoEventWhenEmpty() {
        WheelTimer t = manualTimer(new ManualTimeSource());
        OwnerLoop.of(t).step();

        assertEquals(WheelTimer.NO_EVENT, OwnerPark.of(t).planPark());
        assertFalse(OwnerPark.of(t).isAwake());
    }

    @Test
    void planParkReturnsTheNextEventTickAndParkingUntilItIsNeverLate() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> near = t.schedule(runs::incrementAndGet, 5, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();

        assertEquals(key(near), OwnerPark.of(t).planPark(), "a level-0 timer is itself the next event");
        assertFalse(OwnerPark.of(t).isAwake());

        clock.advanceTo(0, 5 * TICK);
        OwnerLoop.of(t).step();
        assertEquals(1, runs.get());
        ScheduledFuture<?> far = t.schedule(runs::incrementAndGet, 100, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();
        long plan = OwnerPark.of(t).planPark();
        assertTrue(plan > 5 && plan <= key(far), "plan " + plan + " for a timer due at tick " + key(far));
        // Parking until each plan, as the owner does, reaches the timer exactly at its tick.
        int wakeUps = 0;
        while (runs.get() < 2) {
            assertTrue(++wakeUps < 10);
            clock.advanceTo(0, plan * TICK);
            OwnerLoop.of(t).step();
            assertTrue(runs.get() == 2 || plan < key(far), "not fired at its own tick");
            plan = OwnerPark.of(t).planPark();
        }
        assertEquals(key(far) * TICK, clock.nanoTime());
        assertEquals(WheelTimer.NO_EVENT, plan);
    }

    @Test
    void scheduleEarlierThanThePlannedWakeUpWakesTheOwner() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        t.schedule(() -> { }, 1, HOURS);
        OwnerLoop.of(t).step();
        long plan = OwnerPark.of(t).planPark();
        assertTrue(plan > 10, "plan " + plan);
        assertFalse(OwnerPark.of(t).isAwake());

        ScheduledFuture<?> earlier = t.schedule(() -> { }, 10, TimeUnit.MILLISECONDS);

        assertTrue(OwnerPark.of(t).isAwake());
        OwnerLoop.of(t).step();
        assertEquals(key(earlier), OwnerPark.of(t).planPark());
    }

    @Test
    void dueNowWorkAfterThePlanWakesTheOwner() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        OwnerLoop.of(t).step();
        assertEquals(WheelTimer.NO_EVENT, OwnerPark.of(t).planPark());

        t.execute(() -> { });

        assertTrue(OwnerPark.of(t).isAwake());
    }

    @Test
    void scheduleAtOrAfterThePlannedWakeUpDoesNotWakeTheOwner() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        AtomicInteger runs = new AtomicInteger();
        t.schedule(runs::incrementAndGet, 10, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();
        long plan = OwnerPark.of(t).planPark();
        assertEquals(10, plan);

        ScheduledFuture<?> same = t.schedule(runs::incrementAndGet, 10, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> later = t.schedule(runs::incrementAndGet, 1, HOURS);

        assertEquals(plan, key(same));
        assertFalse(OwnerPark.of(t).isAwake(), "a timer due at or after the planned wake-up woke the owner");
        assertTrue(key(later) > plan);
        clock.advanceTo(0, plan * TICK); // the owner wakes as planned and fires both due then
        OwnerLoop.of(t).step();
        assertEquals(2, runs.get());
    }

    /** The owner's half of the handshake: a start command offered before the plan is seen by the plan itself. */
    @Test
    void planParkDoesNotParkPastATimerScheduledBeforeIt() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        OwnerLoop.of(t).step();
        ScheduledFuture<?> f = t.schedule(() -> { }, 5, TimeUnit.MILLISECONDS);

        assertEquals(WheelTimer.AWAKE, OwnerPark.of(t).planPark(),
                "planned a park past a timer offered before the plan");

        OwnerLoop.of(t).step();
        assertEquals(key(f), OwnerPark.of(t).planPark());
    }

    @Test
    void cancelWakesAnOwnerPlanningALongParkSoTheTimerIsUnlinkedSoon() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        ScheduledFuture<?> f = t.schedule(() -> { }, 1, HOURS);
        OwnerLoop.of(t).step();
        long tick = clock.nanoTime() / TICK;
        assertTrue(OwnerPark.of(t).planPark() - tick > WheelTimer.REAP_NANOS / TICK);

        assertTrue(f.cancel(false));

        assertTrue(OwnerPark.of(t).isAwake(), "a cancel left the owner in a long park");
        OwnerLoop.of(t).step();
        assertEquals(0, OwnerLoop.of(t).wheel().size(), "the cancelled timer is still in the wheel");
        long plan = OwnerPark.of(t).planPark();
        assertTrue(plan <= tick + WheelTimer.REAP_NANOS / TICK, "plan " + plan);
        clock.advanceTo(0, plan * TICK);
        OwnerLoop.of(t).step();
        assertEquals(WheelTimer.NO_EVENT, OwnerPark.of(t).planPark());
    }

    @Test
    void cancelDoesNotWakeAnOwnerThatWakesSoonAnyway() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        t.schedule(() -> { }, 5, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> f = t.schedule(() -> { }, 1, HOURS);
        OwnerLoop.of(t).step();
        assertEquals(5, OwnerPark.of(t).planPark());

        assertTrue(f.cancel(false));

        assertFalse(OwnerPark.of(t).isAwake());
    }

    @Test
    void shutdownWakesTheOwner() {
        WheelTimer t = manualTimer(new ManualTimeSource());
        OwnerLoop.of(t).step();
        assertEquals(WheelTimer.NO_EVENT, OwnerPark.of(t).planPark());

        t.shutdown();

        assertTrue(OwnerPark.of(t).isAwake());
    }

    // ==========================================================================================================
    // Cancel

    @Test
    void cancelBeforeTheOwnerDrainsTheStartCommandNeverRunsAndLeavesTheWheelEmpty() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = t.schedule(runs::incrementAndGet, 5, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> now = t.schedule(runs::incrementAndGet, 0, NANOSECONDS);

        assertTrue(f.cancel(false));
        assertTrue(now.cancel(false));
        clock.advance(10, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();

        assertEquals(0, OwnerLoop.of(t).wheel().size());
        assertEquals(0, runs.get());
        OwnerLoop.of(t).step();
        assertEquals(0, runs.get());
        TimerMetrics m = t.metrics();
        assertEquals(2, m.scheduled());
        assertEquals(2, m.cancelled());
        assertEquals(0, m.fired());
        assertEquals(0, m.pending());
    }

    @Test
    void cancelAfterTheOwnerInsertedTheTimerUnlinksItAtTheNextStep() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = t.schedule(runs::incrementAndGet, 5, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();
        assertEquals(1, OwnerLoop.of(t).wheel().size());

        assertTrue(f.cancel(false));
        OwnerLoop.of(t).step();

        assertEquals(0, OwnerLoop.of(t).wheel().size());
        clock.advance(10, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();
        assertEquals(0, runs.get());
    }

    @Test
    void cancelOfATimerDueButNotYetUnlinkedWinsAndItNeverRuns() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = t.schedule(runs::incrementAndGet, 5, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();
        clock.advance(5, TimeUnit.MILLISECONDS); // due, but the owner has not stepped yet

        assertTrue(f.cancel(false));
        OwnerLoop.of(t).step();

        assertEquals(0, runs.get());
        assertTrue(f.isCancelled());
        assertEquals(0, t.metrics().fired());
    }

    // ==========================================================================================================
    // Periodic timers on virtual time

    @Test
    void fixedRateCatchesUpEveryMissedRunThenKeepsItsSchedule() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        List<Long> ranAt = new ArrayList<>();
        t.scheduleAtFixedRate(() -> ranAt.add(clock.nanoTime()), 10, 10, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();

        clock.advanceTo(0, 55 * TICK); // runs due at 10, 20, 30, 40 and 50 ms are all late
        for (int i = 0; i < 20; i++) {
            OwnerLoop.of(t).step();
        }
        assertEquals(5, ranAt.size(), "missed fixed-rate runs were not all made up: " + ranAt);
        clock.advanceTo(0, 60 * TICK - 1);
        OwnerLoop.of(t).step();
        OwnerLoop.of(t).step();
        assertEquals(5, ranAt.size(), "ran before its time");
        clock.advanceTo(0, 60 * TICK);
        OwnerLoop.of(t).step();
        assertEquals(6, ranAt.size());
    }

    @Test
    void fixedDelayCountsTheDelayFromTheEndOfALateRun() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        List<Long> ranAt = new ArrayList<>();
        t.scheduleWithFixedDelay(() -> ranAt.add(clock.nanoTime()), 10, 10, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();

        clock.advanceTo(0, 55 * TICK);
        for (int i = 0; i < 20; i++) {
            OwnerLoop.of(t).step();
        }
        assertEquals(List.of(55 * TICK), ranAt);
        clock.advanceTo(0, 65 * TICK - 1);
        OwnerLoop.of(t).step();
        OwnerLoop.of(t).step();
        assertEquals(1, ranAt.size());
        clock.advanceTo(0, 65 * TICK);
        OwnerLoop.of(t).step();
        assertEquals(List.of(55 * TICK, 65 * TICK), ranAt);
    }

    // ==========================================================================================================
    // Shutdown on virtual time

    @Test
    void shutdownNowReturnsExactlyThePendingTimersWhereverTheyWait() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> fired = t.schedule(runs::incrementAndGet, 0, NANOSECONDS);
        ScheduledFuture<?> soon = t.schedule(runs::incrementAndGet, 5, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> hour = t.schedule(runs::incrementAndGet, 1, HOURS);
        ScheduledFuture<?> periodic = t.scheduleAtFixedRate(runs::incrementAndGet, 1, 1, HOURS);
        ScheduledFuture<?> cancelled = t.schedule(runs::incrementAndGet, 1, HOURS);
        OwnerLoop.of(t).step();
        assertEquals(1, runs.get());
        assertTrue(cancelled.cancel(false));
        ScheduledFuture<?> notDrained = t.schedule(runs::incrementAndGet, 1, HOURS); // still in the start queue

        List<Runnable> back = t.shutdownNow();

        assertEquals(4, back.size(), back::toString);
        for (ScheduledFuture<?> f : List.of(soon, hour, periodic, notDrained)) {
            assertTrue(ScheduledExecutorContractTest.containsSame(back, f), f + " not handed back");
        }
        assertTrue(fired.isDone());
        assertTrue(t.isTerminated());
        clock.advance(2, HOURS);
        assertFalse(OwnerLoop.of(t).step());
        assertEquals(1, runs.get(), "a timer handed back by shutdownNow ran");
        assertEquals(0, t.metrics().pending());
        assertTrue(t.shutdownNow().isEmpty());
        assertThrows(RejectedExecutionException.class, () -> t.schedule(() -> { }, 1, HOURS));
    }

    @Test
    void shutdownRunsOneShotsAtTheirTimeEndsPeriodicOnesAndThenTerminates() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        AtomicInteger oneShotRuns = new AtomicInteger();
        AtomicInteger periodicRuns = new AtomicInteger();
        ScheduledFuture<?> oneShot = t.schedule(oneShotRuns::incrementAndGet, 5, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> periodic = t.scheduleAtFixedRate(periodicRuns::incrementAndGet, 1, 1,
                TimeUnit.MILLISECONDS);
        clock.advance(1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();
        assertEquals(1, periodicRuns.get());

        t.shutdown();
        clock.advance(1, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();
        OwnerLoop.of(t).step();

        assertTrue(periodic.isCancelled());
        assertEquals(1, periodicRuns.get());
        assertFalse(oneShot.isDone());
        assertFalse(t.isTerminated());
        assertThrows(RejectedExecutionException.class, () -> t.schedule(() -> { }, 1, NANOSECONDS));
        clock.advanceTo(0, 5 * TICK - 1);
        OwnerLoop.of(t).step();
        assertEquals(0, oneShotRuns.get());
        clock.advanceTo(0, 5 * TICK);
        OwnerLoop.of(t).step();
        assertEquals(1, oneShotRuns.get());
        assertTrue(t.isTerminated());
        assertEquals(0, t.metrics().pending());
    }

    /**
     * After shutdown, the owner ends once nothing is left to run. Here the last timer is cancelled after the owner's
     * step has drained the cancel queue, while the owner is awake (so the cancel does not unpark it): the command is
     * then drained by the owner's park decision. The owner, simulated as the real loop runs (step; plan; park until
     * the plan), must terminate within the reap interval, not sleep until the cancelled timer's time (an hour).
     */
    @Test
    void cancellingTheLastTimerAfterShutdownLetsTheOwnerTerminateWithoutWaitingForIt() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = manualTimer(clock);
        ScheduledFuture<?> last = t.schedule(() -> { }, 1, HOURS);
        OwnerLoop.of(t).step();
        t.shutdown();
        assertFalse(OwnerLoop.of(t).step()); // sees the shutdown; the one-shot stays to run at its time
        assertFalse(t.isTerminated());

        assertTrue(last.cancel(false));

        for (int i = 0; i < 5 && !t.isTerminated(); i++) {
            long plan = OwnerPark.of(t).planPark();
            assertNotEquals(WheelTimer.NO_EVENT, plan, "shut down with nothing left, the owner parks for good");
            if (plan != WheelTimer.AWAKE) {
                long sleep = plan * TICK - clock.nanoTime();
                assertTrue(sleep <= WheelTimer.REAP_NANOS, "shut down with nothing left, the owner plans to sleep "
                        + sleep + " ns (until tick " + plan + ") instead of terminating");
                clock.advanceTo(0, plan * TICK);
            }
            OwnerLoop.of(t).step();
        }
        assertTrue(t.isTerminated());
    }

    // ==========================================================================================================
    // Metrics

    @Test
    void metricsCountPendingScheduledFiredCancelledAndRejected() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer t = WheelTimer.builder().tick(TICK, NANOSECONDS).timeSource(clock).manualDrive().executor(Runnable::run).maxPending(3)
                .build();
        t.schedule(() -> { }, 5, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> ten = t.schedule(() -> { }, 10, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> hour = t.schedule(() -> { }, 1, HOURS);
        assertMetrics(t, 3, 3, 0, 0, 0);

        assertThrows(RejectedExecutionException.class, () -> t.schedule(() -> { }, 1, HOURS));
        assertMetrics(t, 3, 3, 0, 0, 1);

        assertTrue(hour.cancel(false));
        assertMetrics(t, 2, 3, 0, 1, 1);

        clock.advance(5, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();
        assertMetrics(t, 1, 3, 1, 1, 1);

        ScheduledFuture<?> periodic = t.scheduleAtFixedRate(() -> { }, 5, 5, TimeUnit.MILLISECONDS);
        assertMetrics(t, 2, 4, 1, 1, 1);
        clock.advance(5, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step(); // ten and the periodic's first run
        assertTrue(ten.isDone());
        assertMetrics(t, 1, 4, 3, 1, 1);
        clock.advance(5, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step(); // the periodic's second run: fired counts each run, pending and scheduled the timer once
        assertMetrics(t, 1, 4, 4, 1, 1);

        assertTrue(periodic.cancel(false));
        assertMetrics(t, 0, 4, 4, 2, 1);
        t.shutdown();
        assertThrows(RejectedExecutionException.class, () -> t.execute(() -> { }));
        assertMetrics(t, 0, 4, 4, 2, 2);
        assertEquals(0, t.metrics().lagNanos());
        assertNotEquals("", t.toString());
    }

    /** Each count of the timer's metrics, naming the one that differs. Shared with WheelTimerMetricsTest. */
    static void assertMetrics(WheelTimer t, long pending, long scheduled, long fired, long cancelled,
                                      long rejected) {
        TimerMetrics m = t.metrics();
        String all = m.toString();
        assertEquals(pending, m.pending(), "pending: " + all);
        assertEquals(scheduled, m.scheduled(), "scheduled: " + all);
        assertEquals(fired, m.fired(), "fired: " + all);
        assertEquals(cancelled, m.cancelled(), "cancelled: " + all);
        assertEquals(rejected, m.rejected(), "rejected: " + all);
    }
}

package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The command queues' chains (issue 23): past the rings, a new timer's start and a cancel before any run go into a
 * chain through a field of the timer itself, so that a backlog of any depth allocates nothing. Every command is taken
 * once and in order, the field is given back empty, the indexes count the chain, and a move command that overtakes a
 * chained start leaves the timer to its start.
 */
class TimerChainTest {

    private final ManualTimeSource clock = new ManualTimeSource();
    /** Manual drive, tasks on the stepping thread; command rings of 2 and no spare, so the third command spills. */
    private final WheelTimer timer = WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive()
            .commandQueues(2, 2, CommandPort.CHUNK, CommandQueue.Flaw.NONE).executor(Runnable::run).build();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    private ScheduledTimer<?> newTimer() {
        return new ScheduledTimer<Void>(timer, (Runnable) () -> { }, 0, 1_000);
    }

    @Test
    void aStartChainTakesEveryCommandOnceInOrderAndGivesItsFieldBack() {
        CommandQueue<ScheduledTimer<?>> q =
                new CommandQueue<>(2, 2, CommandPort.CHUNK, new TimerChain.ThroughNext(), null, CommandQueue.Flaw.NONE);
        List<ScheduledTimer<?>> offered = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            ScheduledTimer<?> t = newTimer();
            offered.add(t);
            q.offerLending(t);
        }
        assertEquals(1_000, q.producerIndex());
        assertEquals(998, q.spills(), "all but the ring's two went into the chain");
        assertEquals(998, q.chainPushes());
        assertTrue(TimerState.inStartChain(offered.get(500).word()), "a chained start carries its bit");
        assertFalse(TimerState.inStartChain(offered.get(1).word()), "a start in the ring does not");
        List<ScheduledTimer<?>> taken = new ArrayList<>();
        int first = q.drain(taken::add, 10);
        assertEquals(10, first, "a drain is bounded");
        for (ScheduledTimer<?> t; (t = q.poll()) != null; ) {
            taken.add(t);
        }
        assertEquals(offered, taken, "FIFO: the ring's two, then the chain in push order");
        for (ScheduledTimer<?> t : taken) {
            assertNull(t.next, "the link is given back empty");
            assertFalse(TimerState.inStartChain(t.word()), "the bit is cleared when the owner takes the start");
            assertFalse(t.isInWheel());
        }
        assertTrue(q.isEmpty());
        assertEquals(1_000, q.consumerIndex());
    }

    @Test
    void aCancelChainLinksThroughTheFreedTaskFieldAndGivesItBack() {
        CommandQueue<ScheduledTimer<?>> q =
                new CommandQueue<>(2, 2, CommandPort.CHUNK, new TimerChain.ThroughTask(), null, CommandQueue.Flaw.NONE);
        List<ScheduledTimer<?>> offered = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ScheduledTimer<?> t = newTimer();
            t.setOutcome(null); // as a cancel before any run leaves it
            offered.add(t);
            q.offerLending(t);
        }
        assertEquals(98, q.chainPushes());
        assertSame(offered.get(3), offered.get(2).task(), "chained through the task field");
        List<ScheduledTimer<?>> taken = new ArrayList<>();
        assertEquals(100, q.drain(taken::add, 1_000));
        assertEquals(offered, taken);
        for (ScheduledTimer<?> t : taken) {
            assertNull(t.task(), "the field is given back empty");
        }
        assertTrue(q.isEmpty());
    }

    /** Four producers push 50,000 timers each through a chain while this thread drains: each taken once. */
    @Test
    void manyProducersAgainstOneConsumerLoseNothingThroughTheChain() throws Exception {
        CommandQueue<ScheduledTimer<?>> q =
                new CommandQueue<>(2, 2, CommandPort.CHUNK, new TimerChain.ThroughNext(), null, CommandQueue.Flaw.NONE);
        int producers = 4;
        int each = 50_000;
        ScheduledTimer<?>[][] made = new ScheduledTimer<?>[producers][each];
        for (ScheduledTimer<?>[] row : made) {
            for (int i = 0; i < each; i++) {
                row[i] = newTimer();
            }
        }
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            ScheduledTimer<?>[] mine = made[p];
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (ScheduledTimer<?> timer : mine) {
                    q.offerLending(timer);
                }
            }, "chain-producer-" + p);
            threads.add(t);
            t.start();
        }
        Map<ScheduledTimer<?>, Boolean> seen = new IdentityHashMap<>();
        go.countDown();
        while (seen.size() < producers * each) {
            q.drain(e -> assertNull(seen.put(e, Boolean.TRUE), "taken twice"), 100);
            if (q.isEmpty()) {
                Thread.onSpinWait();
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        assertNull(q.poll());
        assertTrue(q.isEmpty());
        assertEquals(producers * each, q.producerIndex());
        assertEquals(producers * each, q.consumerIndex());
        assertTrue(q.chainPushes() > 0, "the chain was used");
        for (ScheduledTimer<?>[] row : made) {
            for (ScheduledTimer<?> t : row) {
                assertNull(t.next);
                assertFalse(TimerState.inStartChain(t.word()));
            }
        }
    }

    @Test
    void startsAndCancelsPastTheRingsAllocateNoChunkAndEveryTimerEndsOnce() {
        AtomicInteger ran = new AtomicInteger();
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            futures.add(timer.schedule(ran::incrementAndGet, 10 + i, TimeUnit.MILLISECONDS));
        }
        assertEquals(48, timer.starts.chainPushes(), "two starts in the ring, the rest chained");
        OwnerLoop.of(timer).step();
        assertEquals(50, OwnerLoop.of(timer).wheel().size(), "every chained start reached the wheel");
        for (int i = 0; i < 50; i += 2) {
            assertTrue(futures.get(i).cancel(false));
        }
        assertEquals(23, timer.cancels.chainPushes(), "two cancels in the ring, the rest chained");
        OwnerLoop.of(timer).step();
        assertEquals(25, OwnerLoop.of(timer).wheel().size(), "every chained cancel unlinked its timer");
        TimerMetrics m = timer.metrics();
        assertEquals(50, m.scheduled());
        assertEquals(25, m.cancelled());
        assertEquals(48 + 23, m.commandQueueSpills());
        clock.advance(100, TimeUnit.MILLISECONDS);
        OwnerLoop.of(timer).step();
        assertEquals(25, ran.get(), "the 25 not cancelled ran, once each");
        for (int i = 0; i < 50; i++) {
            assertEquals(i % 2 == 0, futures.get(i).isCancelled());
            assertTrue(futures.get(i).isDone());
        }
        assertEquals(0, timer.shutdownNow().size());
    }

    /**
     * The default shape: past the ring, cancels always chain, and starts chain only while cancels flow (the steady
     * load of a server): the owner took some within the last reap period, or some wait in the cancel queue now. A
     * burst of starts alone goes into the overflow's chunks, which the owner takes faster. A step that finds no
     * cancel does not end the flow; a reap period without any does, until cancels wait again.
     */
    @Test
    void startsChainOnlyWhileTheOwnerTakesCancels() {
        WheelTimer t = WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive()
                .executor(Runnable::run).build();
        try {
            int ring = t.starts.capacity();
            List<ScheduledFuture<?>> fs = new ArrayList<>();
            for (int i = 0; i < ring + 100; i++) {
                fs.add(t.schedule(() -> { }, 1, TimeUnit.HOURS));
            }
            assertEquals(100, t.starts.spills(), "a burst of starts alone spills");
            assertEquals(0, t.starts.chainPushes(), "into the chunks, not the chain");
            while (OwnerLoop.of(t).step()) {
                // link them all
            }
            for (int i = 0; i < ring + 10; i++) {
                assertTrue(fs.get(i).cancel(false));
            }
            assertEquals(10, t.cancels.chainPushes(), "cancels past the ring chain");
            OwnerLoop.of(t).step(); // takes cancels: the start chain opens
            for (int i = 0; i < ring + 5; i++) {
                t.schedule(() -> { }, 1, TimeUnit.HOURS);
            }
            assertEquals(5, t.starts.chainPushes(), "with cancels flowing, the starts past the ring chain too");
            assertEquals(105, t.starts.spills());
            while (OwnerLoop.of(t).step()) {
                // take every command
            }
            OwnerLoop.of(t).step(); // no cancel left to take, but cancels flowed within the reap period: still open
            for (int i = 0; i < ring + 2; i++) {
                t.schedule(() -> { }, 1, TimeUnit.HOURS);
            }
            assertEquals(7, t.starts.chainPushes(), "a step without cancels does not end the flow");
            while (OwnerLoop.of(t).step()) {
                // take them
            }
            clock.advance(CommandPort.REAP_NANOS + TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.NANOSECONDS);
            OwnerLoop.of(t).step(); // no cancel for a whole reap period: the start chain closes
            for (int i = 0; i < ring + 5; i++) {
                t.schedule(() -> { }, 1, TimeUnit.HOURS);
            }
            assertEquals(7, t.starts.chainPushes(), "no cancels flowing: starts spill into the chunks again");
            assertEquals(112, t.starts.spills());
            while (OwnerLoop.of(t).step()) {
                // drain
            }
            assertTrue(fs.get(ring + 10).cancel(false)); // waits in the cancel queue: the owner has not stepped
            for (int i = 0; i < ring + 3; i++) {
                t.schedule(() -> { }, 1, TimeUnit.HOURS);
            }
            assertEquals(10, t.starts.chainPushes(), "a cancel waiting in its queue: starts chain though the flag is shut");
            assertEquals(115, t.starts.spills());
            while (OwnerLoop.of(t).step()) {
                // drain
            }
            assertEquals(4 * ring + 104, OwnerLoop.of(t).wheel().size(), "every start linked once, the cancelled gone");
            assertEquals(4 * ring + 104, t.metrics().pending());
        } finally {
            t.shutdownNow();
        }
    }

    /**
     * A reschedule to an earlier time of a timer whose start is chained: its move command goes into the overflow
     * (it is no new timer, so it lends nothing), which the owner drains before the chain. Moving the timer then
     * would link it into the wheel through the field that links it to the starts behind it in the chain, and lose
     * them; the owner leaves it to its start, which makes the move. With the flaw, the starts behind are lost (or
     * the owner's next poll follows the overwritten link into the wheel).
     */
    @Test
    void aMoveThatOvertakesAChainedStartLosesNoStartBehindIt() {
        assertEquals(List.of(1, 1, 1, 1), overtake(timer));
        WheelTimer broken = WheelTimer.builder().timeSource(clock).tick(1, TimeUnit.MILLISECONDS).manualDrive()
                .commandQueues(2, 2, CommandPort.CHUNK, CommandQueue.Flaw.MOVE_OVERTAKES_CHAIN)
                .executor(Runnable::run).build();
        String what;
        try {
            what = "ran " + overtake(broken);
        } catch (ClassCastException e) {
            what = "followed the chain into the wheel: " + e.getMessage(); // the link now leads to a wheel's slot
        }
        assertFalse(what.equals("ran [1, 1, 1, 1]"), "the broken owner should lose the starts behind; it " + what);
    }

    /** @return how often each of the moved timer and the three chained behind it ran */
    private List<Integer> overtake(WheelTimer t) {
        t.schedule(() -> { }, 500, TimeUnit.MILLISECONDS);
        t.schedule(() -> { }, 500, TimeUnit.MILLISECONDS); // the start ring is full
        AtomicInteger[] runs = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
        List<TimerFuture<?>> chained = new ArrayList<>();
        for (AtomicInteger r : runs) {
            chained.add(t.schedule(r::incrementAndGet, 50, TimeUnit.MILLISECONDS));
        }
        assertEquals(4, t.starts.chainPushes());
        assertTrue(chained.get(0).reschedule(20, TimeUnit.MILLISECONDS), "moved earlier: a move command");
        assertEquals(1, t.starts.spills() - t.starts.chainPushes(), "the move went into the overflow");
        OwnerLoop.of(t).step();
        clock.advance(30, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();
        int firstEarly = runs[0].get();
        clock.advance(30, TimeUnit.MILLISECONDS);
        OwnerLoop.of(t).step();
        List<Integer> out = new ArrayList<>();
        for (AtomicInteger r : runs) {
            out.add(r.get());
        }
        if (out.equals(List.of(1, 1, 1, 1))) {
            assertEquals(1, firstEarly, "the moved timer ran at its new, earlier time");
        }
        return out;
    }
}

package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/**
 * The padded objects of the pool: the owner's side ({@link PoolOwnerSide}), whose fields the owner writes once per due
 * timer, the hand-off queue, whose tail the producers swap and whose head and turn the workers take, the workers, and
 * the idle workers' spinner flag, idle stack and awake count ({@link IdleWorkers}). Each hot field must share no
 * cache line with the other side's nor with whatever object lies before or after. Read off the layout by JOL, as
 * {@link TimerLayoutTest} reads the timer's: both tests failed on the first layouts, where the JVM had packed
 * {@code count} into the 4 bytes after the header and the consumers' {@code takeLock} into the 4 bytes after the
 * producers' {@code tail}.
 */
class PoolOwnerSideLayoutTest {

    private static final int LINE = 64;

    @Test
    void theOwnersFieldsHaveAWholeCacheLineOfPaddingOnEitherSide() {
        ClassLayout layout = layoutOf(PoolOwnerSide.class);
        long size = layout.instanceSize();
        for (String name : List.of("pool", "queue", "stalls", "first", "last", "count", "filling", "spare",
                "pooledBatches", "watchedTaken", "watchedSinceNanos", "seenTask", "seenTaskNanos")) {
            FieldLayout field = layout.fields().stream().filter(f -> f.name().equals(name)).findFirst()
                    .orElseThrow(() -> new AssertionError("no field " + name + ":\n" + layout.toPrintable()));
            assertTrue(field.offset() >= LINE, name + " at offset " + field.offset() + ", within a line of the object's"
                    + " start (and so of whatever lies before it):\n" + layout.toPrintable());
            assertTrue(field.offset() + field.size() + LINE <= size, name + " at offset " + field.offset()
                    + ", within a line of the object's end:\n" + layout.toPrintable());
        }
    }

    @Test
    void theQueuesProducerAndConsumerFieldsAreALineApartAndFromEitherEnd() {
        ClassLayout layout = layoutOf(HandOffQueue.class);
        long size = layout.instanceSize();
        long tail = offset(layout, "tail");
        for (String name : List.of("head", "takeLock", "taken", "freeBatches")) {
            long at = offset(layout, name);
            assertTrue(Math.abs(at - tail) >= LINE, name + " at " + at + " and the producers' tail at " + tail
                    + " share a line:\n" + layout.toPrintable());
        }
        for (String name : List.of("tail", "head", "takeLock", "taken", "freeBatches")) {
            long at = offset(layout, name);
            assertTrue(at >= LINE && at + 4 + LINE <= size, name + " at offset " + at + " of " + size
                    + ", within a line of the object's start or end:\n" + layout.toPrintable());
        }
    }

    /**
     * A worker writes its own fields on every run (whether it is in a task, its count of ends, what is left in its
     * batch), and thieves and the watchdog read the batch it holds; workers are made one after another, so without
     * padding two workers' fields would share a line that both write per timer.
     */
    @Test
    void aWorkersFieldsHaveAWholeCacheLineOfPaddingOnEitherSide() {
        ClassLayout layout = layoutOf(WorkerPool.Worker.class);
        long size = layout.instanceSize();
        for (String name : List.of("held", "heldGeneration", "left", "own", "nextVictim", "touched", "pool", "id",
                "thread", "state", "idleNext", "taskSeq", "servedTick", "ended")) {
            long at = offset(layout, name);
            assertTrue(at >= LINE && at + 8 + LINE <= size, name + " at offset " + at + " of " + size
                    + ", within a line of the object's start or end:\n" + layout.toPrintable());
        }
    }

    /**
     * The spinner flag, the idle stack and the awake count are written at each spin, park and wake-up and read by
     * every push; in an object of their own, the JVM may place any object next to them.
     */
    @Test
    void theIdleWorkersFieldsHaveAWholeCacheLineOfPaddingOnEitherSide() {
        ClassLayout layout = layoutOf(IdleWorkers.class);
        long size = layout.instanceSize();
        for (String name : List.of("pool", "workers", "standbySlot", "awakeCap", "spinning", "spinRounds", "awake",
                "idle")) {
            long at = offset(layout, name);
            assertTrue(at >= LINE && at + 8 + LINE <= size, name + " at offset " + at + " of " + size
                    + ", within a line of the object's start or end:\n" + layout.toPrintable());
        }
    }

    /**
     * Every worker's run reads its timer's wheel's attachment (the WheelTimer, for the lateness record and the end
     * count); the owner writes the wheel's own fields on every add, remove and advance. Before the padding the
     * attachment sat in the 4 bytes after the header, on the line of {@code occupiedLevels}, {@code now} and
     * {@code maxKey}.
     */
    @Test
    void theWheelsAttachmentIsALineFromEveryFieldTheOwnerWrites() {
        ClassLayout layout = layoutOf(TimingWheel.class);
        long at = offset(layout, "attachment");
        for (String name : List.of("occupiedLevels", "now", "maxKey", "visits", "size", "advancing")) {
            long w = offset(layout, name);
            assertTrue(Math.abs(w - at) >= LINE, "the attachment at " + at + " and " + name + " at " + w
                    + " share a line:\n" + layout.toPrintable());
        }
    }

    /** JOL reads layouts through sun.misc.Unsafe: under CI's JDK 25 pass, which denies it, the JDK 17 pass checks. */
    private static ClassLayout layoutOf(Class<?> type) {
        assumeTrue(!Boolean.getBoolean("tickwheel.unsafe.denied"),
                "JOL needs sun.misc.Unsafe, which this run denies (the JDK 17 pass checks the layout)");
        return ClassLayout.parseClass(type);
    }

    private static long offset(ClassLayout layout, String name) {
        return layout.fields().stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no field " + name + ":\n" + layout.toPrintable())).offset();
    }
}

package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.vm.VM;

/**
 * The size of a pending one-shot timer, which is the whole heap cost of a timer and a headline figure of the README:
 * 48 bytes with compressed references (the JVM's default below 32 GB of heap). Read off the object by JOL, so a
 * field added to the node, the state or the timer shows here, not months later in a benchmark. (A reschedule's key
 * once took a field of its own and made every timer 56 bytes, unnoticed, until this test.)
 */
class TimerLayoutTest {

    @Test
    void aPendingOneShotTimerIs48BytesWithCompressedReferences() {
        // JOL, a test tool, reads layouts through sun.misc.Unsafe: under CI's JDK 25 pass, which denies it to prove
        // that the library never needs it, JOL cannot work, and the layout is pinned by the JDK 17 pass instead.
        assumeTrue(!Boolean.getBoolean("tickwheel.unsafe.denied"),
                "JOL needs sun.misc.Unsafe, which this run denies (the JDK 17 pass checks the layout)");
        assumeTrue(VM.current().objectHeaderSize() == 12 && VM.current().arrayIndexScale("java.lang.Object") == 4,
                "compressed class pointers and references: the layout the README's figure is for");
        WheelTimer t = WheelTimer.builder().timeSource(new ManualTimeSource(0)).manualDrive().build();
        TimerFuture<?> f = t.schedule(() -> { }, 1, TimeUnit.HOURS);
        assertEquals(48, ClassLayout.parseInstance(f).instanceSize(), ClassLayout.parseInstance(f).toPrintable());
        assertEquals(48, ClassLayout.parseInstance(t.schedule(() -> 1, 1, TimeUnit.HOURS)).instanceSize(),
                "a Callable's timer");
        t.shutdownNow();
    }
}

package dev.tickwheel.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RetainedMemoryTest {

    /** Shaped as JDK 25's {@code GC.class_histogram} prints it (session 33), with a filler row of each kind. */
    private static final String JDK25 = String.join("\n",
            " num     #instances         #bytes  class name (module)",
            "-------------------------------------------------------",
            "   1:       1000000       48000000  dev.tickwheel.ScheduledTimer",
            "   2:         17817         962296  [B (java.base@25.0.3)",
            "   3:           131         230920  [Ljdk.internal.vm.FillerElement; (java.base@25.0.3)",
            "   4:            12            480  jdk.internal.vm.FillerObject (java.base@25.0.3)",
            "   5:            12            480  java.util.EnumMap (java.base@25.0.3)",
            "Total       1017972       49194176");

    @Test
    void theFillerRowsAreLeftOutOfTheLiveBytes() {
        assertArrayEquals(new long[] {49194176 - 230920 - 480, 230920 + 480},
                RetainedMemory.liveAndFillerBytes(JDK25));
    }

    @Test
    void jdk21sFillerArrayNameIsAFillerToo() {
        String jdk21 = String.join("\n",
                " num     #instances         #bytes  class name (module)",
                "-------------------------------------------------------",
                "   1:          1000          48000  dev.tickwheel.ScheduledTimer",
                "   2:             3           4096  Ljdk.internal.vm.FillerArray; (java.base@21.0.5)",
                "Total          1003          52096");
        assertArrayEquals(new long[] {48000, 4096}, RetainedMemory.liveAndFillerBytes(jdk21));
    }

    @Test
    void aHistogramWithoutFillersIsItsTotal() {
        String jdk17 = String.join("\n",
                " num     #instances         #bytes  class name (module)",
                "-------------------------------------------------------",
                "   1:          2000          96000  [I (java.base@17.0.15)",
                "   2:            10            480  java.util.EnumMap (java.base@17.0.15)",
                "Total          2010          96480");
        assertArrayEquals(new long[] {96480, 0}, RetainedMemory.liveAndFillerBytes(jdk17));
    }

    @Test
    void aHistogramWithoutItsTotalLineIsAnError() {
        assertThrows(IllegalStateException.class,
                () -> RetainedMemory.liveAndFillerBytes(JDK25.substring(0, JDK25.lastIndexOf('\n'))));
    }
}

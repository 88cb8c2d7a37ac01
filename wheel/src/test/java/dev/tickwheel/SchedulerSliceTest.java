package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link WheelTimer.Builder#schedulerSlice}: its range, and either the exception that names what this JVM lacks or,
 * where it can be set (JDK 22+, native access enabled, Linux 6.12+: CI's JDK 25 pass), the kernel's own reading of
 * the slice on the owner and on a worker, while the builder's thread keeps its own.
 */
class SchedulerSliceTest {

    @Test
    void aSliceOutsideTheKernelsRangeIsRefusedWithTheValueAndTheRange() {
        IllegalArgumentException low = assertThrows(IllegalArgumentException.class,
                () -> WheelTimer.builder().schedulerSlice(Duration.ofNanos(99_999)));
        assertTrue(low.getMessage().contains("99999 ns") && low.getMessage().contains("[100000, 100000000]"),
                low.getMessage());
        IllegalArgumentException high = assertThrows(IllegalArgumentException.class,
                () -> WheelTimer.builder().schedulerSlice(Duration.ofMillis(101)));
        assertTrue(high.getMessage().contains("101000000 ns"), high.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> WheelTimer.builder().schedulerSlice(Duration.ofDays(365L * 1_000_000_000L)));
        assertThrows(IllegalArgumentException.class, () -> WheelTimer.builder().schedulerSlice(Duration.ZERO));
        assertThrows(NullPointerException.class, () -> WheelTimer.builder().schedulerSlice(null));
    }

    @Test
    void theTimersThreadsRunWithTheSliceOrTheBuilderSaysWhatIsMissing() throws Exception {
        Duration slice = Duration.ofNanos(200_000);
        // CI's JDK 25 pass enables native access and sets this, so that the branch that applies the slice must run
        // there rather than pass by refusing.
        if (Boolean.getBoolean("tickwheel.slice.expected")) {
            assertTrue(Runtime.version().feature() >= 22 && nativeAccessEnabled() && linuxAtLeast(6, 12),
                    "tickwheel.slice.expected is set, but this JVM cannot set a slice: JDK " + Runtime.version()
                            + ", module " + SchedulerSlice.class.getModule() + ", os.version "
                            + System.getProperty("os.version"));
        }
        if (Runtime.version().feature() < 22) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> WheelTimer.builder().schedulerSlice(slice));
            assertTrue(e.getMessage().contains("JDK 22"), e.getMessage());
            return;
        }
        if (!nativeAccessEnabled()) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> WheelTimer.builder().schedulerSlice(slice));
            assertTrue(e.getMessage().contains("--enable-native-access="), e.getMessage());
            return;
        }
        if (!linuxAtLeast(6, 12)) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> WheelTimer.builder().schedulerSlice(slice));
            assertTrue(e.getMessage().contains("Linux 6.12"), e.getMessage());
            return;
        }
        long before = SchedulerSlice.currentThreadSlice();
        List<String> roles = new CopyOnWriteArrayList<>();
        ThreadFactory factory = r -> {
            roles.add(r.toString());
            return new Thread(r);
        };
        WheelTimer timer = WheelTimer.builder().schedulerSlice(slice).threadFactory(factory).workerThreads(2).build();
        try {
            long onWorker = timer.schedule(SchedulerSlice::currentThreadSlice, 1, TimeUnit.MILLISECONDS)
                    .get(10, TimeUnit.SECONDS);
            assertEquals(200_000L, onWorker, "a worker's se.slice");
            long[] onOwner = new long[1];
            WheelTimer inline = WheelTimer.builder().schedulerSlice(slice).runTasksOnOwnerThread().build();
            try {
                inline.schedule(() -> onOwner[0] = SchedulerSlice.currentThreadSlice(), 1, TimeUnit.MILLISECONDS)
                        .get(10, TimeUnit.SECONDS);
            } finally {
                inline.shutdown();
            }
            assertEquals(200_000L, onOwner[0], "the owner's se.slice");
        } finally {
            timer.shutdown();
            assertTrue(timer.awaitTermination(10, TimeUnit.SECONDS));
        }
        assertTrue(roles.stream().anyMatch(r -> r.endsWith("-owner")), "the factory still sees the roles: " + roles);
        assertTrue(roles.stream().anyMatch(r -> r.endsWith("-worker")), "the factory still sees the roles: " + roles);
        assertEquals(before, SchedulerSlice.currentThreadSlice(), "the builder's own thread keeps its slice");
    }

    /** @return whether this is Linux at or above major.minor, read from os.version ("6.18.0-...") */
    private static boolean linuxAtLeast(int major, int minor) {
        if (!"Linux".equals(System.getProperty("os.name"))) {
            return false;
        }
        String[] v = System.getProperty("os.version").split("[.-]");
        int ma = Integer.parseInt(v[0]);
        int mi = v.length > 1 ? Integer.parseInt(v[1]) : 0;
        return ma > major || (ma == major && mi >= minor);
    }

    private static boolean nativeAccessEnabled() throws ReflectiveOperationException {
        return (Boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(SchedulerSlice.class.getModule());
    }
}

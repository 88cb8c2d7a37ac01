package dev.tickwheel.consumer;

import dev.tickwheel.TimerFuture;
import dev.tickwheel.WheelTimer;
import dev.tickwheel.micrometer.WheelTimerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Schedules one timer that runs and one that is cancelled on a monitored WheelTimer, then checks what the meters
 * read once the timer has terminated. Prints one line and exits 0 only if every figure is the expected one.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        MeterRegistry registry = new SimpleMeterRegistry();
        WheelTimer timer = WheelTimerMetrics.monitor(registry, WheelTimer.builder().daemon(true).build(), "consumer",
                Tag.of("check", "release"));
        CountDownLatch ran = new CountDownLatch(1);
        timer.schedule(ran::countDown, 5, TimeUnit.MILLISECONDS);
        TimerFuture<?> never = timer.schedule(() -> { }, 1, TimeUnit.HOURS);
        if (!never.cancel(false) || !ran.await(30, TimeUnit.SECONDS)) {
            fail("the timer did not cancel or did not run");
        }
        timer.shutdown();
        if (!timer.awaitTermination(30, TimeUnit.SECONDS)) {
            fail("the timer did not terminate");
        }
        String figures = "scheduled=" + count(registry, "tickwheel.timers.scheduled")
                + " fired=" + count(registry, "tickwheel.timers.fired")
                + " cancelled=" + count(registry, "tickwheel.timers.cancelled")
                + " pending=" + (long) registry.get("tickwheel.timers.pending").tag("name", "consumer").gauge().value()
                + " lateness.count=" + count(registry, "tickwheel.timers.lateness.count");
        if (!figures.equals("scheduled=2 fired=1 cancelled=1 pending=0 lateness.count=1")) {
            fail("unexpected figures: " + figures);
        }
        System.out.println("tickwheel consumer check passed: " + figures);
    }

    private static long count(MeterRegistry registry, String meter) {
        return (long) registry.get(meter).tags("name", "consumer", "check", "release").functionCounter().count();
    }

    private static void fail(String why) {
        System.err.println("tickwheel consumer check FAILED: " + why);
        System.exit(1);
    }
}

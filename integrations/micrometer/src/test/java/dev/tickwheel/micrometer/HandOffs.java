package dev.tickwheel.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.tickwheel.TimerMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A timer's executor that runs nothing: the owner thread hands each due run here, and the test thread takes and runs
 * it when it chooses (on the manual clock: at a lateness it chooses). Safe from any thread.
 */
final class HandOffs implements Executor {

    private final BlockingQueue<Runnable> runs = new LinkedBlockingQueue<>();

    @Override
    public void execute(Runnable run) {
        runs.add(run);
    }

    /** Waits for {@code n} hand-offs (30 s at most each) and returns them in the order the owner gave them. */
    List<Runnable> take(int n) throws InterruptedException {
        List<Runnable> taken = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Runnable r = runs.poll(30, TimeUnit.SECONDS);
            assertNotNull(r, "hand-off " + (i + 1) + " of " + n + " never came");
            taken.add(r);
        }
        return taken;
    }

    /**
     * Waits until the owner has published {@code fired} runs. The owner hands runs out during its step and publishes
     * the count at the end of the step; no callback marks that end, so this polls the published figure (yielding,
     * 30 s at most). It waits for a state, not for a length of time.
     */
    static void awaitFired(Supplier<TimerMetrics> metrics, long fired) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (metrics.get().fired() != fired) {
            if (System.nanoTime() - deadline > 0) {
                assertEquals(fired, metrics.get().fired(), "the owner never published the runs it handed out");
            }
            Thread.yield();
        }
    }
}

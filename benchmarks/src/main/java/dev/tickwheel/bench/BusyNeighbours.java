package dev.tickwheel.bench;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Busy processes beside a benchmark: each a JVM whose one thread spins on arithmetic until it is stopped, what a
 * shared build box or an oversubscribed server looks like to the timer (issue 23's "two busy processes beside it").
 * A benchmark option starts them ({@code --busy N}), so anyone can repeat the loaded figures; they are destroyed
 * when the benchmark ends, and each also ends by itself after ten minutes.
 */
public final class BusyNeighbours {

    private BusyNeighbours() {
    }

    /** The neighbour's body: spin until killed, or for ten minutes at most. */
    public static void main(String[] args) {
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        long x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        System.out.println(x == 42 ? "?" : "");
    }

    /** Starts {@code n} busy JVMs (none for 0). */
    public static List<Process> start(int n) throws IOException {
        List<Process> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx64m", "-cp", System.getProperty("java.class.path"), BusyNeighbours.class.getName())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start());
        }
        return out;
    }

    /** Stops what {@link #start} started and waits for each to end. */
    public static void stop(List<Process> hogs) throws InterruptedException {
        for (Process p : hogs) {
            p.destroyForcibly();
        }
        for (Process p : hogs) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}

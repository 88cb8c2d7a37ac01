package dev.tickwheel.bench.peer;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

final class Shutdowns {
    private Shutdowns() {
    }

    /** Waits for an executor that was told to stop; a peer that will not stop is a failed benchmark. */
    static void await(ExecutorService executor) {
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(executor + " did not terminate within 30 s of shutdownNow");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + executor + " to stop", e);
        }
    }
}

package dev.tickwheel.bench;

import java.util.concurrent.atomic.LongAdder;

/** A task that counts its runs; a schedule + cancel benchmark uses it to notice timers that fired unexpectedly. */
public final class CountingTask extends Task {
    private final LongAdder runs = new LongAdder();

    @Override
    public void run() {
        runs.increment();
    }

    /** @return how many times the task ran */
    public long runs() {
        return runs.sum();
    }
}

package dev.tickwheel.bench;

import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The CPU time of a peer's own threads: those that appeared while it was created. Not thread-safe. */
final class ThreadCpu {
    private ThreadCpu() {
    }

    /** @return the live threads now that were not in {@code before} */
    static List<Thread> appearedSince(Set<Thread> before) {
        List<Thread> mine = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (!before.contains(t)) {
                mine.add(t);
            }
        }
        return mine;
    }

    /** @return the CPU ns of the threads (a thread that has ended reports -1 and is skipped) */
    static long nanos(ThreadMXBean mx, List<Thread> threads) {
        long sum = 0;
        for (Thread t : threads) {
            long ns = mx.getThreadCpuTime(t.getId());
            if (ns > 0) {
                sum += ns;
            }
        }
        return sum;
    }
}

package dev.tickwheel;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/** Session 18 harness: drain a prefilled HandOffQueue (single nodes) with 1 or 2 consumer threads; ns per take. */
public class BareTake {
    public static void main(String[] a) throws Exception {
        int n = 2_000_000;
        TimingWheel.Node[] nodes = new TimingWheel.Node[n];
        for (int i = 0; i < n; i++) nodes[i] = new TimingWheel.Node();
        for (int round = 0; round < 12; round++) {
            for (int consumers : new int[] {1, 2}) {
                HandOffQueue q = new HandOffQueue();
                for (int i = 0; i < n; i++) q.push(nodes[i]);
                AtomicLong taken = new AtomicLong();
                CountDownLatch go = new CountDownLatch(1);
                Thread[] ts = new Thread[consumers];
                long[] retries = new long[consumers];
                for (int c = 0; c < consumers; c++) {
                    int me = c;
                    ts[c] = new Thread(() -> {
                        try { go.await(); } catch (InterruptedException e) { return; }
                        long mine = 0, r = 0;
                        for (;;) {
                            TimingWheel.Node x = q.poll();
                            if (x == HandOffQueue.RETRY) { r++; Thread.onSpinWait(); continue; }
                            if (x == null) break;
                            mine++;
                        }
                        taken.addAndGet(mine);
                        retries[me] = r;
                    });
                    ts[c].start();
                }
                long t0 = System.nanoTime();
                go.countDown();
                for (Thread t : ts) t.join();
                long t1 = System.nanoTime();
                if (round >= 4) {
                    System.out.printf("consumers=%d taken=%d ns/take(wall)=%.1f retries=%d%n", consumers, taken.get(),
                            (t1 - t0) / (double) n, java.util.Arrays.stream(retries).sum());
                }
            }
        }
    }
}

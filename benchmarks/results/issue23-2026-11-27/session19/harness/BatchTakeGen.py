import sys
mode=sys.argv[1]
poll = "q.poll()" if mode=="old" else "q.poll(h)"
holder = "" if mode=="old" else "BatchHolder h = new BatchHolder() { }; holders[me] = h;"
steal = "" if mode=="old" else """
                            if (x == null) { // queue empty: one look at the other consumer's batch
                                for (int v = 0; v < consumers && x == null; v++) if (v != me && holders[v] != null) x = q.steal(h, holders[v]);
                                if (x != null) { steals[me]++; mine++; continue; }
                            }"""
print(f"""package dev.tickwheel;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/** Session 19 harness ({mode} take): drain a queue prefilled with 64-timer batches (as the owner's steps push them)
 *  with 1 or 2 consumer threads; wall ns per timer taken, failed tries (RETRY), steals. */
public class BatchTake {{
    public static void main(String[] a) throws Exception {{
        int n = 64 * 32_768;
        TimingWheel.Node[] nodes = new TimingWheel.Node[n];
        for (int i = 0; i < n; i++) nodes[i] = new TimingWheel.Node();
        for (int round = 0; round < 12; round++) {{
            for (int consumers : new int[] {{1, 2}}) {{
                HandOffQueue q = new HandOffQueue();
                for (int i = 0; i < n; i += 64) {{
                    HandOffBatch b = new HandOffBatch(false);
                    for (int k = 0; k < 64; k++) b.items[k] = nodes[i + k];
                    b.count = 64;
                    q.push(b);
                }}
                AtomicLong taken = new AtomicLong();
                CountDownLatch go = new CountDownLatch(1);
                Thread[] ts = new Thread[consumers];
                long[] retries = new long[consumers];
                long[] steals = new long[consumers];
                BatchHolder[] holders = new BatchHolder[consumers];
                for (int c = 0; c < consumers; c++) {{
                    int me = c;
                    ts[c] = new Thread(() -> {{
                        {holder}
                        try {{ go.await(); }} catch (InterruptedException e) {{ return; }}
                        long mine = 0, r = 0;
                        for (;;) {{
                            TimingWheel.Node x = {poll};
                            if (x == HandOffQueue.RETRY) {{ r++; Thread.onSpinWait(); continue; }}{steal}
                            if (x == null) break;
                            mine++;
                        }}
                        taken.addAndGet(mine);
                        retries[me] = r;
                    }});
                    ts[c].start();
                }}
                long t0 = System.nanoTime();
                go.countDown();
                for (Thread t : ts) t.join();
                long t1 = System.nanoTime();
                if (round >= 4) {{
                    System.out.printf("{mode} consumers=%d taken=%d ns/take(wall)=%.1f retries=%d steals=%d%n", consumers,
                            taken.get(), (t1 - t0) / (double) n, java.util.Arrays.stream(retries).sum(),
                            java.util.Arrays.stream(steals).sum());
                }}
            }}
        }}
    }}
}}""")

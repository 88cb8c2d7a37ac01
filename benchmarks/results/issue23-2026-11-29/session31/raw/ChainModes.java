import dev.tickwheel.*;
import java.util.*;
import java.util.concurrent.*;
/** Scratch: the 1,000-step chain built while it runs (AsyncChain's) against built first, then started. */
public class ChainModes {
  static Thread lastThread; static long switches;
  public static void main(String[] a) throws Exception {
    int reps = a.length > 4 ? Integer.parseInt(a[4]) : 1;
    for (int rep = 0; rep < reps; rep++) { lastThread = null; switches = 0; one(a); }
  }
  static void one(String[] a) throws Exception {
    String e = a[0]; boolean prebuilt = a[1].equals("pre"); int warm = Integer.parseInt(a[2]); int chains = Integer.parseInt(a[3]);
    int n = Math.max(2, Runtime.getRuntime().availableProcessors());
    ScheduledExecutorService ses = e.equals("TW") ? WheelTimer.create() : e.equals("TW1") ? WheelTimer.builder().workerThreads(1).build() : new ScheduledThreadPoolExecutor(n);
    double[] ms = new double[chains]; long mainSubmits = 0;
    for (int c = -warm; c < chains; c++) {
      long t0, t1; int last;
      if (prebuilt) {
        CompletableFuture<Integer> root = new CompletableFuture<>();
        CompletableFuture<Integer> f = root.thenApplyAsync(x -> x, ses);
        for (int i = 1; i < 1000; i++) f = f.thenApplyAsync(x -> { Thread t = Thread.currentThread(); if (t != lastThread) { lastThread = t; switches++; } return x + 1; }, ses);
        t0 = System.nanoTime();
        root.complete(0);  // the first step is submitted here, by this thread; every later one by the worker before it
        last = f.get(60, TimeUnit.SECONDS); t1 = System.nanoTime();
      } else {
        t0 = System.nanoTime();
        CompletableFuture<Integer> f = CompletableFuture.supplyAsync(() -> 0, ses);
        for (int i = 1; i < 1000; i++) f = f.thenApplyAsync(x -> x + 1, ses);
        last = f.get(60, TimeUnit.SECONDS); t1 = System.nanoTime();
      }
      if (last != 999) throw new IllegalStateException("ended at " + last);
      if (c >= 0) ms[c] = (t1 - t0) / 1e6;
    }
    long wk = ses instanceof WheelTimer ? ((WheelTimer) ses).metrics().workerWakeups() : -1;
    ses.shutdownNow();
    Arrays.sort(ms);
    System.out.printf("%s %s median %.3f p25 %.3f p75 %.3f thread switches/chain %.1f wakeups/chain %.1f%n", e, a[1], ms[chains/2], ms[chains/4], ms[3*chains/4], switches/(double)(warm+chains), wk/(double)(warm+chains));
  }
}

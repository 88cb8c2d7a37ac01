import java.lang.management.*;
public class Spin {
  static volatile boolean stop; static volatile long sink;
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]);
    Thread[] ts = new Thread[n];
    for (int i = 0; i < n; i++) { ts[i] = new Thread(() -> { long x = 0; while (!stop) x++; sink = x; }); ts[i].start(); }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long[] prev = new long[n]; long t0 = System.nanoTime(), tp = t0;
    int low = 0, windows = 0; double min = 999;
    StringBuilder sb = new StringBuilder();
    while (System.nanoTime() - t0 < 3_000_000_000L) {
      Thread.sleep(10);
      long now = System.nanoTime(); double tot = 0;
      for (int i = 0; i < n; i++) { long c = mx.getThreadCpuTime(ts[i].getId()); tot += (c - prev[i]); prev[i] = c; }
      double pct = tot * 100 / (now - tp) ; tp = now;
      if (windows++ > 0) { if (pct < 150 * n / 2.0) low++; min = Math.min(min, pct); if (windows < 40) sb.append(String.format("%.0f ", pct)); }
    }
    stop = true;
    System.out.printf("%d spinners: windows %d, below 75%%/thread: %d, min %.0f%%; first: %s%n", n, windows, low, min, sb);
  }
}

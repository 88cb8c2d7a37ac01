import java.util.*;
public class JitWatch {
  public static void main(String[] a) throws Exception {
    long t0 = System.nanoTime();
    Thread s = new Thread(() -> {
      try {
        Map<String, Long> prev = Who.snap();
        StringBuilder sb = new StringBuilder();
        while (true) {
          Thread.sleep(500);
          Map<String, Long> now = Who.snap();
          long c = 0, g = 0;
          for (var e : now.entrySet()) { long d = e.getValue() - prev.getOrDefault(e.getKey(), 0L); if (e.getKey().startsWith("C# Comp")) c += d; if (e.getKey().startsWith("G1") || e.getKey().startsWith("GC")) g += d; }
          prev = now;
          System.err.printf("JIT t=%.1fs compiler %d ms gc %d ms (per 500 ms)%n", (System.nanoTime() - t0) / 1e9, c * 10, g * 10);
        }
      } catch (Exception e) { }
    });
    s.setDaemon(true); s.start();
    dev.tickwheel.bench.FiringShots.main(a);
  }
}

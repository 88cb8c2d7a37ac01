import dev.tickwheel.WheelTimer;
import java.lang.management.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.LockSupport;
public class Timeline {
  static Map<String,String> tidByName() throws Exception {
    Map<String,String> m = new HashMap<>();
    for (java.io.File f : new java.io.File("/proc/self/task").listFiles()) {
      String comm = new String(java.nio.file.Files.readAllBytes(new java.io.File(f, "comm").toPath())).trim();
      m.put(comm, f.getName());
    }
    return m;
  }
  static long[] ctxt(String tid) {
    long v = 0, n = 0;
    try { for (String l : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/task/" + tid + "/status"))) {
      if (l.startsWith("voluntary_ctxt_switches")) v = Long.parseLong(l.split("\\s+")[1]);
      if (l.startsWith("nonvoluntary_ctxt_switches")) n = Long.parseLong(l.split("\\s+")[1]); } } catch (Exception e) {}
    return new long[]{v, n};
  }
  static long[] schedstat(String tid) {
    try { String[] f = new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/self/task/" + tid + "/schedstat"))).trim().split(" ");
      return new long[]{Long.parseLong(f[0]), Long.parseLong(f[1])}; } catch (Exception e) { return new long[2]; }
  }
  static long steal() throws Exception { String[] f = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0).trim().split("\\s+"); return Long.parseLong(f[8]); }
  public static void main(String[] a) throws Exception {
    int producers = Integer.parseInt(a[0]); int shots = Integer.parseInt(a[1]);
    Set<Thread> existing = Set.copyOf(Thread.getAllStackTraces().keySet());
    WheelTimer ses = WheelTimer.create();
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    int N = 1_000_000;
    long[][] delays = new long[producers][N / producers];
    for (int p = 0; p < producers; p++) { SplittableRandom r = new SplittableRandom(0xE4B1 + p); for (int i = 0; i < delays[p].length; i++) delays[p][i] = r.nextInt(100); }
    for (int s = 0; s < shots; s++) {
      LongAdder fired = new LongAdder();
      Runnable task = fired::increment;
      CountDownLatch go = new CountDownLatch(1);
      long[] loopEnd = new long[producers];
      Thread[] ps = new Thread[producers];
      for (int p = 0; p < producers; p++) { int me = p; ps[p] = new Thread(() -> { try { go.await(); } catch (InterruptedException e) {} for (long d : delays[me]) ses.schedule(task, d, TimeUnit.MILLISECONDS); loopEnd[me] = System.nanoTime(); }, "prod" + p); ps[p].start(); }
      List<Thread> mine = new ArrayList<>();
      for (Thread t : Thread.getAllStackTraces().keySet()) if (!existing.contains(t) && t.getName().startsWith("tickwheel")) mine.add(t);
      mine.sort(Comparator.comparing(Thread::getName));
      List<long[]> samples = new ArrayList<>();
      List<String> wtids = new ArrayList<>(); for (var e : tidByName().entrySet()) { }
      for (java.io.File f : new java.io.File("/proc/self/task").listFiles()) { String comm = new String(java.nio.file.Files.readAllBytes(new java.io.File(f, "comm").toPath())).trim(); if (comm.contains("-wor")) wtids.add(f.getName()); }
      Map<String,Long> who0 = Who.snap(); long start = System.nanoTime(); go.countDown();
      while (true) {
        long now = System.nanoTime();
        long[] row = new long[3 + mine.size() + producers + 3];
        row[0] = now - start; row[1] = fired.sum(); var m = ses.metrics(); row[2] = m.fired() * 1000 + Math.min(999, m.lagNanos()/1000000);
        int k = 3; for (Thread t : mine) row[k++] = mx.getThreadCpuTime(t.getId());
        for (Thread t : ps) row[k++] = Math.max(0, mx.getThreadCpuTime(t.getId()));
        long vv = 0, nn = 0; for (String tid : wtids) { long[] c = schedstat(tid); vv += c[0]; nn += c[1]; }
        row[k++] = vv; row[k++] = nn; row[k++] = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        samples.add(row);
        if (row[1] >= N) break;
        LockSupport.parkNanos(2_000_000);
      }
      long end = 0; for (long e : loopEnd) end = Math.max(end, e);
      long window = end - start + 99_000_000L; // approx: loop end + 99 ms (latest deadline upper bound-ish)
      long done = samples.get(samples.size()-1)[0];
      Map<String,Long> who1 = Who.snap();
      Who.diff(who0, who1, "shot " + s + " " + String.format("%.0f ms", done/1e6));
      if (s < shots - 3) continue;
      System.out.printf("shot %d: %.1f ms, loop end %.1f ms, window ~%.1f, lag ~%.1f%n", s, done/1e6, (end-start)/1e6, window/1e6, (done-window)/1e6);
      StringBuilder names = new StringBuilder(); for (Thread t : mine) names.append(t.getName().replaceAll("tickwheel-\\d+-","")).append(' ');
      System.out.println("  t(ms)  ran(k) handed(k) ownerLag(ms) cpu%% per thread in the last 10 ms: " + names + " producers");
      long[] prev = samples.get(0); long base2 = samples.get(0)[2]/1000;
      for (int i = 1; i < samples.size(); i++) {
        long[] r = samples.get(i);
        if (r[0] - prev[0] < 10_000_000 && i != samples.size()-1) continue;
        StringBuilder b = new StringBuilder(String.format("  %6.1f %8.1f %8.1f %4d ", r[0]/1e6, r[1]/1e3, (r[2]/1000 - base2)/1e3, r[2]%1000));
        double dt = r[0] - prev[0];
        for (int k = 3; k < r.length - 3; k++) b.append(String.format(" %4.0f", Math.max(0, r[k]-Math.max(0,prev[k]))*100/dt));
        int L = r.length; b.append(String.format("   workers run %3.0f%% rq-wait %3.0f%% process %3.0f%%", (r[L-3]-prev[L-3])*100/dt, (r[L-2]-prev[L-2])*100/dt, (r[L-1]-prev[L-1])*100/dt));
        System.out.println(b); prev = r;
      }
    }
    ses.shutdownNow();
  }
}

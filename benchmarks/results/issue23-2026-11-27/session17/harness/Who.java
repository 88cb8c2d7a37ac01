import java.util.*;
import java.nio.file.*;
public class Who {
  // comm -> ticks (utime+stime) summed over tasks of this process
  static Map<String, Long> snap() throws Exception {
    Map<String, Long> m = new TreeMap<>();
    for (java.io.File f : new java.io.File("/proc/self/task").listFiles()) {
      try {
        String st = new String(Files.readAllBytes(new java.io.File(f, "stat").toPath()));
        String comm = st.substring(st.indexOf('(') + 1, st.lastIndexOf(')'));
        String[] r = st.substring(st.lastIndexOf(')') + 2).split(" ");
        long t = Long.parseLong(r[11]) + Long.parseLong(r[12]);
        m.merge(comm.replaceAll("[0-9]+", "#"), t, Long::sum);
      } catch (Exception e) { }
    }
    return m;
  }
  static void diff(Map<String, Long> a, Map<String, Long> b, String label) {
    StringBuilder sb = new StringBuilder(label + " (ms of CPU, by thread name):");
    List<Map.Entry<String, Long>> l = new ArrayList<>();
    for (var e : b.entrySet()) { long d = e.getValue() - a.getOrDefault(e.getKey(), 0L); if (d > 0) l.add(Map.entry(e.getKey(), d)); }
    l.sort((x, y) -> Long.compare(y.getValue(), x.getValue()));
    for (var e : l) sb.append(" ").append(e.getKey()).append("=").append(e.getValue() * 10);
    System.out.println(sb);
  }
}

import dev.tickwheel.*;
import dev.tickwheel.bench.*;
import java.util.concurrent.*;
public class Backlog {
  public static void main(String[] a) throws Exception {
    int pending = Integer.parseInt(a[0]); int producers = Integer.parseInt(a[1]); int secs = Integer.parseInt(a[2]);
    WheelTimer wt = WheelTimer.builder().pooledQueueChunks(Integer.parseInt(a[3])).build();
    TimerAdapter t = new TimerAdapter(){ public Object schedule(Task task,long d){return wt.schedule(task,d,TimeUnit.MILLISECONDS);} public void cancel(Object h){((ScheduledFuture<?>)h).cancel(false);} public void close(){wt.shutdownNow();} };
    CountingTask task = new CountingTask();
    ProducerRing[] rings = new ProducerRing[producers];
    for (int i=0;i<producers;i++) rings[i] = new ProducerRing(t, task, pending, 0x5EED+i);
    java.util.concurrent.atomic.LongAdder ops = new java.util.concurrent.atomic.LongAdder();
    volatile_stop[0] = false;
    Thread[] th = new Thread[producers];
    for (int i=0;i<producers;i++){ final ProducerRing r = rings[i]; th[i]=new Thread(() -> { long n=0; while(!volatile_stop[0]){ for(int k=0;k<1000;k++) r.step(t, task); n+=1000; if((n&0xFFFF)==0){} ops.add(1000);} }); th[i].start(); }
    long prevOps=0, prevSp=0, prevSch=0;
    for (int s=0;s<secs;s++){ Thread.sleep(1000); TimerMetrics m = wt.metrics(); long o=ops.sum();
      if(s>=2) System.out.printf("t=%ds ops/us=%.2f spills/s=%d pending=%d scheduled/s=%d heapMB=%d%n", s+1, (o-prevOps)/1e6, m.commandQueueSpills()-prevSp, m.pending(), m.scheduled()-prevSch, (Runtime.getRuntime().totalMemory()-Runtime.getRuntime().freeMemory())>>20);
      prevOps=o; prevSp=m.commandQueueSpills(); prevSch=m.scheduled(); }
    volatile_stop[0]=true; for(Thread x:th) x.join();
    long t0=System.nanoTime(); while (wt.metrics().pending() > (long)pending*producers + 10) Thread.sleep(1);
    System.out.printf("drained backlog in %.1f ms%n", (System.nanoTime()-t0)/1e6);
    t.close();
  }
  static volatile boolean[] volatile_stop = new boolean[1];
}

import sys, re, collections
# wake->run latency per thread name from perf script output (comm,tid,cpu,time,event,trace)
pat = re.compile(r'^\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:(\w+):\s+(.*)$')
kv = re.compile(r'(\w+)=(\S+)')
pend = {}       # pid -> (t_wakeup, cpu, running-at-wake)
curr = {}       # cpu -> (pid, comm)
names = {}
lat = collections.defaultdict(list)
ran_during = collections.defaultdict(collections.Counter)   # group -> comm -> us of others running on target cpu while waiting (long waits)
runs = collections.defaultdict(list)   # group -> run lengths
start_run = {}
def group(c):
    if c.startswith('tickwheel') : return c
    if c.startswith('jdk-stpe'): return c
    if c in ('java','lateness-load'): return c
    return None
seg = collections.defaultdict(list)  # cpu -> list of (t, pid, comm) switches
events = []
for line in open(sys.argv[1]):
    m = pat.match(line)
    if not m: continue
    comm, tid, cpu, t, ev, rest = m.groups()
    t = float(t); cpu = int(cpu)
    if ev == 'sched_wakeup':
        d = dict(kv.findall(rest.replace(' comm=',' comm=')))
        pid = int(re.search(r'pid=(\d+)', rest).group(1)); c = re.search(r'comm=(.+?) pid=', rest).group(1)
        tc = int(d['target_cpu'])
        names[pid] = c
        pend[pid] = (t, tc, curr.get(tc, (None, '?'))[1])
    elif ev == 'sched_switch':
        pc = re.search(r'prev_comm=(.+?) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.+?) next_pid=(\d+)', rest)
        prev_comm, prev_pid, pstate, next_comm, next_pid = pc.groups(); prev_pid=int(prev_pid); next_pid=int(next_pid)
        seg[cpu].append((t, next_pid, next_comm))
        curr[cpu] = (next_pid, next_comm)
        if prev_pid in start_run:
            g = group(prev_comm)
            if g: runs[g].append((t - start_run.pop(prev_pid))*1e6)
        start_run[next_pid] = t
        if next_pid in pend:
            tw, tc, atwake = pend.pop(next_pid)
            g = group(next_comm)
            if g:
                l = (t - tw)*1e6
                lat[g].append((l, atwake, cpu != tc))
def pct(a, q):
    a = sorted(a); return a[min(len(a)-1, int(q*len(a)))] if a else float('nan')
for g in sorted(lat):
    L = [x[0] for x in lat[g]]
    if len(L) < 200: continue
    long_ = [x for x in lat[g] if x[0] > 300]
    who = collections.Counter(x[1] for x in long_)
    long1 = sum(1 for x in L if x > 1000)
    R = runs[g]
    print("%-18s wakes %6d  lat p50 %6.1f p90 %6.1f p99 %7.1f p99.9 %7.1f us  >300us %5.2f%% >1ms %5.2f%%  run p50 %5.1f mean %5.1f us  long-wait curr: %s" % (
        g, len(L), pct(L,.5), pct(L,.9), pct(L,.99), pct(L,.999), 100.0*len(long_)/len(L), 100.0*long1/len(L), pct(R,.5), sum(R)/max(1,len(R)), dict(who.most_common(4))))

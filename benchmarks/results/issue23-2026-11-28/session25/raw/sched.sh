#!/bin/bash
# usage: sched.sh JAR PEER BUSY OUT : runs FiringLateness, samples per-thread schedstat of the measured child JVM each 1 s, keeps the last sample
java -cp $1 dev.tickwheel.bench.FiringLateness --peers $2 --busy $3 > $4.run 2>&1 &
top=$!
while kill -0 $top 2>/dev/null; do
  p=$(pgrep -f "FiringLateness.*--child" | head -1)
  [ -n "$p" ] && grep -H . /proc/$p/task/*/comm /proc/$p/task/*/schedstat > $4.snap.tmp 2>/dev/null && [ -s $4.snap.tmp ] && mv $4.snap.tmp $4.snap
  sleep 1
done
python3 - $4.snap > $4 <<'PY'
import sys,re,collections
d=collections.defaultdict(dict)
for line in open(sys.argv[1]):
    path,val=line.rstrip('\n').split(':',1)
    parts=path.split('/'); tid=parts[4]; kind=parts[5]
    d[tid][kind]=val
rows=[]
for tid,v in d.items():
    if 'schedstat' not in v: continue
    run,wait,sl=map(int,v['schedstat'].split())
    if sl<100: continue
    rows.append((sl,v.get('comm','?'),run,wait))
for sl,c,run,wait in sorted(rows,reverse=True):
    print("%-22s slices %7d run %7.1f ms wait %7.1f ms  wait/slice %6.1f us  run/slice %6.1f us"%(c,sl,run/1e6,wait/1e6,wait/sl/1e3,run/sl/1e3))
PY
grep -E "^(Tickwheel|JDK)" $4.run | head -1 >> $4

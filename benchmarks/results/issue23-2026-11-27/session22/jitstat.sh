#!/bin/bash
# usage: jitstat.sh JAR RUNS [PEER]  -> shot medians and C2 compile time, deopt count for take/schedule
JAR=$1; RUNS=$2; PEER=${3:-TICKWHEEL}
for r in $(seq 1 $RUNS); do
  rm -f /tmp/s22/jl-*.log
  java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -XX:+CITime -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=/tmp/s22/jl-%p.log -cp $JAR dev.tickwheel.bench.FiringShots --child true --peer $PEER --workers 0 --producers 1 --shots 30 --warmup 0 > /tmp/s22/jit-out.txt 2>&1
  python3 - <<'PY'
import re,glob,os,statistics as st,collections
o=open('/tmp/s22/jit-out.txt').read()
m=re.search(r'shotsMs=(\S+)',o)
shots=[float(x.split('/')[0]) for x in m.group(1).split(',')]
c2=re.search(r'C2 Compile Time:\s+([\d.]+)',o).group(1)
c1=re.search(r'C1 Compile Time:\s+([\d.]+)',o).group(1)
f=max(glob.glob('/tmp/s22/jl-*.log'), key=os.path.getsize)
log=open(f).read()
ids={}
for cid,meth in re.findall(r"<task_queued compile_id='(\d+)' method='([^']*)'",log): ids[cid]=meth.split(' (')[0].split('.')[-1]
n=collections.Counter()
for cid,lvl in re.findall(r"<nmethod compile_id='(\d+)' compiler='c2' level='(\d)'",log): n[ids.get(cid,'?')]+=1
traps=len(re.findall(r"<uncommon_trap thread=", log))
print('1-5 %.0f | 6-12 %.0f | 20-30 %.0f | C2 %ss C1 %ss, %d traps | C2 nmethods: %s'%(st.median(shots[:5]),st.median(shots[5:12]),st.median(shots[19:30]),c2,c1,traps,', '.join('%s %d'%kv for kv in n.most_common(5))))
PY
done

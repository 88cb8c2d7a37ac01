#!/bin/bash
# usage: [BUSY=2] [JAVA=java] trace.sh JAR PEER OUT : FiringLateness child with BUSY busy loops beside; perf sched tracepoints for 3 s mid-run
jar=$1; peer=$2; out=$3
hogs=()
for i in $(seq 1 ${BUSY:-2}); do ( while :; do :; done ) & hogs+=($!); done
${JAVA:-java} -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC $FLAGS -cp $jar dev.tickwheel.bench.FiringLateness --child $peer --seconds 10 --warmup 2 > $out.run 2>&1 &
j=$!
sleep 6
perf record -q -a -e sched:sched_waking,sched:sched_wakeup,sched:sched_switch,sched:sched_migrate_task -o $out.data -- sleep 3 2>/dev/null
wait $j
for h in "${hogs[@]}"; do kill $h; done
perf script -i $out.data -F comm,tid,cpu,time,event,trace > $out.txt 2>/dev/null
grep RESULT $out.run | tr ' ' '\n' | grep -E "^(p50|p99|p999|max)ms" | tr '\n' ' '; echo

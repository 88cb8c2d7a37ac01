#!/bin/bash
# sst.sh JAVA JAR PEER BUSY [flags...]: per-thread schedstat deltas (cpu ns, run-queue wait ns, switch-ins) over 6 s of a
# FiringLateness child (seconds 10 after 2 s warm-up), read from /proc from 5 s to 11 s into the child
java=$1; jar=$2; peer=$3; busy=$4; shift 4
hogs=(); for i in $(seq 1 $busy); do ( while :; do :; done ) & hogs+=($!); done
$java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC "$@" -cp $jar dev.tickwheel.bench.FiringLateness --child $peer --seconds 10 --warmup 2 > /tmp/s28/sst-child.out 2>&1 &
pid=$!
snap() { for t in /proc/$pid/task/*; do echo "$(basename $t) $(tr ' ' '_' < $t/comm) $(cat $t/schedstat)"; done 2>/dev/null; }
sleep 5; snap > /tmp/s28/sst-a; sleep 6; snap > /tmp/s28/sst-b
wait $pid
for h in "${hogs[@]}"; do kill $h; done
echo "== $peer busy=$busy $* : $(grep RESULT /tmp/s28/sst-child.out | tr ' ' '\n' | grep -E '^(p50ms|p99ms|over1msPct)' | tr '\n' ' ')"
join <(sort /tmp/s28/sst-a) <(sort /tmp/s28/sst-b) | awk '{dc=$6-$3; dw=$7-$4; ds=$8-$5; if (ds>500) printf "%-28s slices %6d  cpu/slice %6.1f us  wait/slice %6.1f us  cpu %6.1f ms\n", $2, ds, dc/ds/1000, dw/ds/1000, dc/1e6}'

#!/bin/bash
# usage: warm.sh OUT BUSY ROUNDS : FiringLateness children (the suite's heap flags), warm-up 2 s and 15 s, Tickwheel and the JDK's STPE alternated, with BUSY hog processes beside
out=$1; busy=$2; rounds=$3
hogs=()
for i in $(seq 1 $busy); do ( while :; do :; done ) & hogs+=($!); done
for r in $(seq 1 $rounds); do for w in 2 15; do for peer in TICKWHEEL JDK_STPE; do
  res=$(java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -cp /tmp/s25/split.jar dev.tickwheel.bench.FiringLateness --child $peer --seconds 10 --warmup $w 2>&1 | grep RESULT | tr ' ' '\n' | grep -E "^(p50|p99|p999|max)ms" | tr '\n' ' ')
  echo "busy=$busy warmup=$w $peer $res" >> $out
done; done; done
for h in "${hogs[@]}"; do kill $h; done

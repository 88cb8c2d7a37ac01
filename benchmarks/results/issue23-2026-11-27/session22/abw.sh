#!/bin/bash
# usage: abw.sh PAIRS WORKERS JAR...
P=$1; W=$2; shift 2
for i in $(seq 1 $P); do for J in "$@"; do
  java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -cp $J dev.tickwheel.bench.FiringShots --child true --peer TICKWHEEL --workers $W --producers 1 --shots 7 --warmup 20 2>&1 | grep RESULT | tr ' ' '\n' | grep -E '^(shotMedianMs|lagMedianMs|ownerCpuNs|poolCpuNs|wakeupsPer1M|handOffsPer1M)=' | tr '\n' ' ' | sed "s|^|w$W $(basename $J) |"; echo
done; done

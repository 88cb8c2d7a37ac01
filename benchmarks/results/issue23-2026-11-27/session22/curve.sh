#!/bin/bash
# usage: curve.sh JAR PEER WORKERS RUNS [SHOTS]
JAR=$1; PEER=$2; W=$3; RUNS=$4; SHOTS=${5:-30}
for r in $(seq 1 $RUNS); do
  java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -cp $JAR dev.tickwheel.bench.FiringShots --child true --peer $PEER --workers $W --producers 1 --shots $SHOTS --warmup 0 2>&1 | grep RESULT | tr ' ' '\n' | grep '^shotsMs=' | sed 's/shotsMs=//' | tr ',' '\n' | awk -F/ -v p="$PEER/$W" '{a[NR]=$1} END {printf "%s 1-5:", p; for(i=1;i<=5;i++) printf " %d", a[i]; printf " | 6-12:"; for(i=6;i<=12;i++) printf " %d", a[i]; printf " | 20-%d:", NR; for(i=20;i<=NR;i++) printf " %d", a[i]; print ""}'
done

#!/bin/bash
# usage: ab.sh PAIRS JAR_A JAR_B [producers] ; prints per run: shot median, lag median, owner/pool/prod CPU per fire
P=$1; A=$2; B=$3; PR=${4:-1}
for i in $(seq 1 $P); do
  for J in $A $B; do
    java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -cp $J dev.tickwheel.bench.FiringShots --child true --peer TICKWHEEL --workers 0 --producers $PR --shots 10 --warmup 20 2>&1 | grep RESULT | tr ' ' '\n' | grep -E '^(shotMedianMs|lagMedianMs|ownerCpuNs|poolCpuNs|producerCpuNs|firstShotsMedianMs)=' | tr '\n' ' ' | sed "s|^|$(basename $J) |"; echo
  done
done

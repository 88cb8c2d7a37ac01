#!/bin/bash
# usage: ab.sh OUT P N JAR_A JAR_B [java]  -- alternated FiringShots children, TICKWHEEL default
OUT=$1; P=$2; N=$3; A=$4; B=$5; JAVA=${6:-java}
: > $OUT
for i in $(seq 1 $N); do
  for J in $A $B; do
    r=$($JAVA -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -cp $J dev.tickwheel.bench.FiringShots --child true --peer TICKWHEEL --workers 0 --producers $P --shots 11 --warmup 20 2>&1 | grep RESULT | grep -o 'ownerCpuNs=[^ ]*\|poolCpuNs=[^ ]*\|producerCpuNs=[^ ]*\|shotMedianMs=[^ ]*\|lagMedianMs=[^ ]*\|loopMedianMs=[^ ]*' | tr '\n' ' ')
    echo "$i $(basename $J) $r" >> $OUT
  done
done

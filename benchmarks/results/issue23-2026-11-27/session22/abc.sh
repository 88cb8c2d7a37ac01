#!/bin/bash
# usage: abc.sh PAIRS CHUNKS_A CHUNKS_B [producers]
P=$1; A=$2; B=$3; PR=${4:-1}
for i in $(seq 1 $P); do for C in $A $B; do
  java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -Dtickwheel.bench.pooledQueueChunks=$C -cp /tmp/s22/chunks.jar dev.tickwheel.bench.FiringShots --child true --peer TICKWHEEL --workers 0 --producers $PR --shots 7 --warmup 20 2>&1 | grep RESULT | tr ' ' '\n' | grep -E '^(shotMedianMs|lagMedianMs|ownerCpuNs|poolCpuNs|producerCpuNs)=' | tr '\n' ' ' | sed "s|^|chunks=$C |"; echo
done; done

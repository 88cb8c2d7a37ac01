#!/bin/bash
# usage: shot.sh JAR TAG PRODUCERS
java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -cp $1 dev.tickwheel.bench.FiringShots --child true --peer TICKWHEEL --workers 0 --producers $3 --shots 7 --warmup 20 2>&1 | grep RESULT | tr ',' '\n' | grep -E 'shotMedianMs|lagMedianMs|producerCpuNs|ownerCpuNs' | tr '\n' ' ' | sed "s/^/$2 p=$3 /"; echo

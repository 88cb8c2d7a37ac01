#!/bin/bash
# usage: pin.sh JAR PCPU OCPU WCPU PRODUCERS  -- one FiringShots child, its threads pinned by name ("-": leave alone)
JAR=$1; PC=$2; OC=$3; WC=$4; P=$5
java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -cp $JAR dev.tickwheel.bench.FiringShots --child true --peer TICKWHEEL --workers 0 --producers $P --shots 11 --warmup 20 > /tmp/s40/pin.out 2>&1 &
PID=$!
declare -A done
while kill -0 $PID 2>/dev/null; do
  for t in /proc/$PID/task/*; do
    tid=${t##*/}
    read -r c < $t/comm 2>/dev/null || continue
    [ "${done[$tid]}" = "$c" ] && continue
    cpu=
    case "$c" in
      shot-producer*|java) cpu=$PC ;;
      tickwheel-1-own*) cpu=$OC ;;
      tickwheel-1-wor*) cpu=$WC ;;
      *) done[$tid]=$c; continue ;;
    esac
    [ "$cpu" != "-" ] && taskset -p -c $cpu $tid >/dev/null 2>&1
    done[$tid]=$c
  done
  sleep 0.005
done
echo "$(grep RESULT /tmp/s40/pin.out | grep -o 'ownerCpuNs=[^ ]*\|poolCpuNs=[^ ]*\|producerCpuNs=[^ ]*\|shotMedianMs=[^ ]*\|lagMedianMs=[^ ]*\|loopMedianMs=[^ ]*' | tr '\n' ' ')"

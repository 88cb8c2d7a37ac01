#!/bin/bash
# usage: ab3.sh OUT BUSY ROUNDS JAVA JAR TAG=PEER[:FLAG,FLAG...] ... : FiringLateness children (the suite's heap flags,
# warm-up 2 s, 10 s) on the JVM JAVA, in turn each round, with BUSY bash busy loops beside
out=$1; busy=$2; rounds=$3; java=$4; jar=$5; shift 5
hogs=()
for i in $(seq 1 $busy); do ( while :; do :; done ) & hogs+=($!); done
for r in $(seq 1 $rounds); do for spec in "$@"; do
  j=$jar; case "$spec" in *@*) j=${spec##*@}; spec=${spec%@*};; esac; tag=${spec%%=*}; rest=${spec#*=}; peer=${rest%%:*}; flags=""; [ "$rest" != "$peer" ] && flags=$(echo ${rest#*:} | tr ',' ' ')
  res=$($java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC $flags -cp $j dev.tickwheel.bench.FiringLateness --child $peer --seconds 10 --warmup 2 2>&1 | grep RESULT | tr ' ' '\n' | grep -E "^(p50|p99|p999|max)ms|Pct=" | tr '\n' ' ')
  echo "busy=$busy $tag $res" >> $out
done; done
for h in "${hogs[@]}"; do kill $h; done

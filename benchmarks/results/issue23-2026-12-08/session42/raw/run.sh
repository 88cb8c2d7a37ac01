#!/bin/bash
# Paired runs for issue 23's "nothing else regresses": the Netty adapter's table and the reschedule row,
# before (83c81e9, issue 23 filed) and after (12fae74), alternated.
O=/tmp/s42/pair
for round in 1 2; do
  for v in before after; do
    if [ $v = before ]; then J=/tmp/s42/before.jar; else J=/tmp/s42/suite.jar; fi
    echo "== round $round $v NettyDropIn $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -cp $J dev.tickwheel.bench.NettyDropIn > $O/dropin-$round-$v.txt 2>&1
    echo "== round $round $v IdleTimeout CPU $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -cp $J dev.tickwheel.bench.IdleTimeoutBenchmark --idle-ms 30000,100 > $O/idlecpu-$round-$v.txt 2>&1
    echo "== round $round $v IdleTimeout JMH $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -jar $J IdleTimeoutBenchmark -prof gc -rf json -rff $O/idlejmh-$round-$v.json > $O/idlejmh-$round-$v.txt 2>&1
  done
done
echo "== done $(date -u +%T)"

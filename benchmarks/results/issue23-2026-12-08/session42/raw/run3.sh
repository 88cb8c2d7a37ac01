#!/bin/bash
# schedule + cancel, paired before (83c81e9) / after (592a103's code): JMH 3 JVMs each at 1k and 1M, and CpuPerOperation.
O=/tmp/s42/pair
for round in 1 2; do
  for v in after before; do
    if [ $v = before ]; then J=/tmp/s42/before.jar; else J=/tmp/s42/suite.jar; fi
    echo "== round $round $v ScheduleCancel JMH $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -jar $J 'ScheduleCancelBenchmark.oneProducer' -p peer=TICKWHEEL,NETTY_1MS -p pending=1000,1000000 -f 3 -rf json -rff $O/sc-$round-$v.json > $O/sc-$round-$v.txt 2>&1
    echo "== round $round $v CpuPerOperation $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    for p in 1000 1000000; do
      java -cp $J dev.tickwheel.bench.CpuPerOperation --peers TICKWHEEL,NETTY_1MS --pending $p > $O/cpu-$p-$round-$v.txt 2>&1
    done
  done
done
echo "== done $(date -u +%T)"

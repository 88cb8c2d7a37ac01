#!/bin/bash
O=/tmp/s42/pair
for round in 3 4 5 6; do
  for v in after before; do
    if [ $v = before ]; then J=/tmp/s42/before.jar; else J=/tmp/s42/suite.jar; fi
    echo "== round $round $v IdleTimeout CPU 100 ms $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -cp $J dev.tickwheel.bench.IdleTimeoutBenchmark --idle-ms 100 > $O/idlecpu100-$round-$v.txt 2>&1
  done
done
echo "== done $(date -u +%T)"

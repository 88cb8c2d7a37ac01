#!/bin/bash
# usage: alloc.sh JAR TAG BENCH PENDING
java -jar $1 "ScheduleCancelBenchmark.$3\$" -p peer=TICKWHEEL -p pending=$4 -prof gc 2>&1 | grep -E 'gc.alloc.rate.norm: |^ScheduleCancelBenchmark.*(thrpt.*ops/us)' | tr -s ' ' | awk -v t=$2 -v b=$3 -v p=$4 '{printf "%s %s %s: %s\n", t, b, p, $0}'

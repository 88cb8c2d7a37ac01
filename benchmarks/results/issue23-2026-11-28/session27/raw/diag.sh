#!/bin/bash
# diag.sh OUT ROUNDS [flags]: the counting build under two busy loops
out=$1; rounds=$2; shift 2
hogs=(); for i in 1 2; do ( while :; do :; done ) & hogs+=($!); done
for r in $(seq 1 $rounds); do
java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC "$@" -cp /tmp/s27/diag.jar dev.tickwheel.bench.FiringLateness --child TICKWHEEL --seconds 10 --warmup 2 2>&1 | grep -E "FRAC|DEEP|BY owner|WHY|DIAG|RESULT|STANDBYSTEP" | sed 's/ownCount.*//' >> $out
echo -- >> $out
done
for h in "${hogs[@]}"; do kill $h; done

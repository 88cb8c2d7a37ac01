#!/bin/bash
# usage: ab-lat.sh JAVA ROUNDS BUSY OUT jarA jarB
J=$1; R=$2; B=$3; OUT=$4; shift 4
: > $OUT
for r in $(seq 1 $R); do
  if [ $((r % 2)) -eq 1 ]; then order="$*"; else order=$(echo "$@" | awk '{for(i=NF;i>0;i--) printf "%s ", $i}'); fi
  for jar in $order; do
    echo "== round $r $(basename $jar)" >> $OUT
    $J -cp $jar dev.tickwheel.bench.FiringLateness --peers TICKWHEEL,JDK_STPE --seconds 10 --busy $B 2>&1 | grep -A2 'peer (lateness' >> $OUT
  done
done

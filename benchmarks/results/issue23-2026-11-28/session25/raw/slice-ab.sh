#!/bin/bash
# usage: slice-ab.sh OUT BUSY ROUNDS JAR [SLICE_NS] [tickwheel-only]
# Per round, FiringLateness children (the suite's heap flags, warm-up 2 s, 10 s measured), BUSY bash busy loops beside:
# Tickwheel as is, then Tickwheel with an EEVDF slice of SLICE_NS (default 100,000) on its own threads (slice.py); unless
# "tickwheel-only", then the JDK's STPE as is and the STPE with the same slice on its worker.
# slice-busy.txt and slice-quiet.txt: SLICE_NS 100000; slice200.txt, slice300.txt: 200000 / 300000, tickwheel-only.
out=$1; busy=$2; rounds=$3; jar=$4; slice=${5:-100000}; only=$6
here=$(cd "$(dirname "$0")" && pwd)
hogs=()
for i in $(seq 1 $busy); do ( while :; do :; done ) & hogs+=($!); done
one() { # tag peer thread-name-prefix (empty: no slice)
  java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -cp $jar dev.tickwheel.bench.FiringLateness --child $2 --seconds 10 --warmup 2 > /tmp/slice-one.out 2>&1 &
  jp=$!
  if [ -n "$3" ]; then python3 "$here/slice.py" $jp $3 $slice 13 > /tmp/slice.$1.log 2>&1 & fi
  wait $jp
  res=$(grep RESULT /tmp/slice-one.out | tr ' ' '\n' | grep -E "^(p50|p99|p999|max)ms" | tr '\n' ' ')
  n=$(grep -c "rc 0" /tmp/slice.$1.log 2>/dev/null)
  echo "busy=$busy $1 $res sliced=${n:-0}" >> $out
  rm -f /tmp/slice.$1.log
}
tag=tw-slice; [ "$slice" != 100000 ] && tag=tw-slice$slice
for r in $(seq 1 $rounds); do
  one tw TICKWHEEL ""; one $tag TICKWHEEL tickwheel
  if [ "$only" != tickwheel-only ]; then one stpe JDK_STPE ""; one stpe-slice JDK_STPE jdk-stpe; fi
done
for h in "${hogs[@]}"; do kill $h; done

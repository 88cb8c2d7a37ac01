#!/bin/bash
# usage: slice-ab.sh OUT BUSY ROUNDS JAR : per round, FiringLateness children (the suite's heap flags, warm-up 2 s, 10 s):
# Tickwheel as is, Tickwheel with a 100 µs EEVDF slice on its own threads (slice.py), the JDK's STPE as is, the STPE with
# the same slice on its worker; BUSY bash busy loops beside
out=$1; busy=$2; rounds=$3; jar=$4
hogs=()
for i in $(seq 1 $busy); do ( while :; do :; done ) & hogs+=($!); done
one() { # tag peer prefix
  java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -cp $jar dev.tickwheel.bench.FiringLateness --child $2 --seconds 10 --warmup 2 > /tmp/s25/one.out 2>&1 &
  jp=$!
  if [ -n "$3" ]; then python3 /tmp/s25/slice.py $jp $3 $SLICE 13 > /tmp/s25/slice.$1.log 2>&1 & fi
  wait $jp
  res=$(grep RESULT /tmp/s25/one.out | tr ' ' '\n' | grep -E "^(p50|p99|p999|max)ms" | tr '\n' ' ')
  n=$(grep -c "rc 0" /tmp/s25/slice.$1.log 2>/dev/null)
  echo "busy=$busy $1 $res sliced=${n:-0}" >> $out
  rm -f /tmp/s25/slice.$1.log
}
for r in $(seq 1 $rounds); do
  one tw TICKWHEEL ""; one tw-slice$SLICE TICKWHEEL tickwheel
done
for h in "${hogs[@]}"; do kill $h; done

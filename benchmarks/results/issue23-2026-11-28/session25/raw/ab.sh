#!/bin/bash
# usage: ab.sh OUT BUSY ROUNDS JAR_A TAG_A JAR_B TAG_B ; each round runs A, B, then the JDK's STPE; marks runs that overlapped a maven build
out=$1; busy=$2; rounds=$3; ja=$4; ta=$5; jb=$6; tb=$7
run() { # jar tag peer
    ( while sleep 1; do pgrep -f "maven|surefire" >/dev/null && echo M; done ) > /tmp/s25/mon.$$ & mon=$!
    line=$(java -cp $1 dev.tickwheel.bench.FiringLateness --peers $3 --busy $busy 2>&1 | grep -E "^(Tickwheel|JDK)" | head -1)
    kill $mon; m=$(grep -c M /tmp/s25/mon.$$)
    echo "$2 $line maven=$m" >> $out
}
for r in $(seq 1 $rounds); do
  run $ja $ta TICKWHEEL; run $jb $tb TICKWHEEL; run $ja stpe JDK_STPE
done

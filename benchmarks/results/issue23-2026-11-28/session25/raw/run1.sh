#!/bin/bash
# usage: run1.sh OUT BUSY JAR TAG PEER : one FiringLateness run, marks maven overlap
( while sleep 1; do pgrep -f "maven|surefire" >/dev/null && echo M; done ) > /tmp/s25/mon.$$ & mon=$!
line=$(java -cp $3 dev.tickwheel.bench.FiringLateness --peers $5 --busy $2 2>&1 | grep -E "^(Tickwheel|JDK)" | head -1)
kill $mon; m=$(grep -c M /tmp/s25/mon.$$); rm -f /tmp/s25/mon.$$
echo "$4 $line maven=$m" >> $1

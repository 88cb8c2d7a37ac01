#!/bin/bash
# usage: lat.sh JAR TAG PEERS BUSY
java -cp $1 dev.tickwheel.bench.FiringLateness --peers $3 --busy $4 2>&1 | grep -E "^(Tickwheel|JDK)" | head -1 | sed "s/^/$2 /"

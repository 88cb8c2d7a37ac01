#!/bin/bash
# prof.sh JAR PEER OUT: perf samples (25 kHz) of a quiet FiringLateness child for 4 s mid-run, with the JIT's perf map
jar=$1; peer=$2; out=$3
java -Xms1g -Xmx1g -Xmn256m -XX:+AlwaysPreTouch -XX:+UseG1GC -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer -cp $jar dev.tickwheel.bench.FiringLateness --child $peer --seconds 10 --warmup 2 > $out.run 2>&1 &
sleep 6
pid=$(pgrep -f "child $peer" | head -1)
perf record -q -F 25000 -p $pid -o $out.data -- sleep 4 > /dev/null 2>&1
wait
perf report -i $out.data --sort comm,sym --stdio 2>/dev/null | grep -v "^#" | grep -v "^$" > $out.txt

#!/bin/bash
# usage: allock.sh JAR TAG BENCH PENDING CHUNKS
java -jar $1 "ScheduleCancelBenchmark.$3\$" -p peer=TICKWHEEL -p pending=$4 -prof gc -jvmArgsAppend "-Dtickwheel.bench.pooledQueueChunks=$5" -rf json -rff /tmp/s23/sc-$2-$3-$4-$5.json > /dev/null 2>&1
python3 - /tmp/s23/sc-$2-$3-$4-$5.json $2 $5 <<'PY'
import json,sys,statistics
for b in json.load(open(sys.argv[1])):
    it=b['secondaryMetrics']['gc.alloc.rate.norm']['rawData'][0]
    print(sys.argv[2], 'chunks', sys.argv[3], b['benchmark'].split('.')[-1], b['params']['pending'], 'ops/us %.2f'%b['primaryMetric']['score'], 'B/op median %.3f'%statistics.median(it), ' '.join('%.3f'%x for x in it))
PY

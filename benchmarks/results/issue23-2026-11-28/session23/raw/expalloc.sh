#!/bin/bash
# usage: expalloc.sh JAR TAG
java -jar $1 'ExpiryBenchmark.(oneProducer|twoProducers)$' -p peer=TICKWHEEL -prof gc -rf json -rff /tmp/s23/exp-$2.json > /tmp/s23/exp-$2.log 2>&1
python3 - $2 <<'PY'
import json,sys,statistics
t=sys.argv[1]
for b in json.load(open('/tmp/s23/exp-%s.json'%t)):
    th=b['threads']; per=1_000_000/th
    it=[x for x in b['secondaryMetrics']['gc.alloc.rate.norm']['rawData'][0]]
    ms=b['primaryMetric']['rawData'][0]
    print(t, b['benchmark'].split('.')[-1], 'shot ms median %.1f'%statistics.median(ms), 'B/fire median %.2f'%(statistics.median(it)/per), 'per-iteration', ' '.join('%.2f'%(x/per) for x in it))
PY

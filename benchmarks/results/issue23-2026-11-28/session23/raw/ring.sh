#!/bin/bash
# usage: ring.sh CHUNKS BENCH(oneProducer|twoProducers) PENDING
cd /work/main
java -jar benchmarks/target/benchmarks.jar "ScheduleCancelBenchmark.$2\$" -p peer=TICKWHEEL -p pending=$3 -prof gc -jvmArgsAppend "-Dtickwheel.bench.pooledQueueChunks=$1" -rf json -rff /tmp/s23/ring-$1-$2-$3.json 2>&1 | grep -E '^Iteration|gc.alloc.rate.norm|^ScheduleCancel' | awk -v c=$1 '{print "chunks="c, $0}'

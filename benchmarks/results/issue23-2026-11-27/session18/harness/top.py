#!/usr/bin/env python3
import sys, collections, re
f = sys.argv[1]; N = int(sys.argv[2]) if len(sys.argv) > 2 else 15
by = collections.defaultdict(lambda: [0, collections.Counter(), collections.Counter()])
for line in open(f):
    stack, _, cnt = line.rstrip().rpartition(' ')
    cnt = int(cnt); frames = stack.split(';')
    th = re.sub(r'[-_ ]?\d+\]?$', '', frames[0].strip('[]'))
    b = by[th]; b[0] += cnt; b[1][frames[-1]] += cnt
    for fr in set(frames[1:]):
        if 'tickwheel' in fr or 'netty' in fr: b[2][fr] += cnt
tot = sum(v[0] for v in by.values())
for th, (c, self_, incl) in sorted(by.items(), key=lambda x: -x[1][0])[:6]:
    print("== %s: %d samples (%.0f%%)" % (th, c, 100.0 * c / tot))
    for fr, k in self_.most_common(N): print("   self %5.1f%% %s" % (100.0 * k / c, fr[:150]))
    for fr, k in incl.most_common(8): print("   incl %5.1f%% %s" % (100.0 * k / c, fr[:150]))

#!/usr/bin/env python3
"""C2 bill from a -XX:+LogCompilation file: wall per compile task (start..done), per method, traps."""
import re, sys, collections
txt = open(sys.argv[1], errors='replace').read()
tasks = re.finditer(r"<task (?P<attrs>[^>]*)>(?P<body>.*?)<task_done (?P<done>[^>]*)/>", txt, re.S)
def attr(s, k):
    m = re.search(r"\b%s='([^']*)'" % k, s); return m.group(1) if m else None
per = collections.defaultdict(lambda: [0, 0.0, []])
total = 0.0; n = 0; c1 = 0.0
for m in tasks:
    a, d, body = m.group('attrs'), m.group('done'), m.group('body')
    lvl = attr(a, 'level')
    t0 = float(attr(a, 'stamp')); t1 = float(attr(d, 'stamp'))
    if lvl != '4' and lvl is not None:
        c1 += t1 - t0; continue
    meth = attr(a, 'method').split(' ')
    name = meth[0].split('.')[-1] + '::' + meth[1]
    nm = int(attr(d, 'nmsize') or 0)
    inl = body.count('<inline_success')
    per[name][0] += 1; per[name][1] += t1 - t0; per[name][2].append((t0, nm, inl))
    total += t1 - t0; n += 1
print("C2 wall total %.2f s in %d compiles; C1 %.2f s" % (total, n, c1))
for name, (k, w, l) in sorted(per.items(), key=lambda x: -x[1][1])[:int(sys.argv[2]) if len(sys.argv) > 2 else 12]:
    print("  %6.0f ms %2d x %s   %s" % (w * 1000, k, name, ' '.join('%.1fs:%dB/%d' % x for x in l)))
traps = collections.Counter(re.findall(r"<uncommon_trap thread='\d+' reason='(\w+)'[^>]*method='dev\.tickwheel", txt))
print("  uncommon traps hit in the library:", dict(traps))

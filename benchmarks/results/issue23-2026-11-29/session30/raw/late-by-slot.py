# Tallies the counting build's LATE lines (probes later than 150 us) by (stepper, worker path, standby slot state),
# per variant tag of an abd.sh output's .diag file, with the lateness (us) of each group.
# usage: python3 late-by-slot.py FILE.diag
import re, sys, collections
txt = open(sys.argv[1]).read()
agg = collections.defaultdict(collections.Counter)
lat = collections.defaultdict(list)
for r in txt.split('busy=')[1:]:
    tag = r.split()[1]
    if tag == 'jdk':
        continue
    for name in ('by2', 'by11'):
        m = re.search(name + r':n=(\d+)', r)
        agg[tag][name] += int(m.group(1)) if m else 0
    for l in r.split('\n'):
        if l.startswith('LATE'):
            d = dict((k, float(v)) for k, v in re.findall(r'(\w+)=(-?[\d.]+)', l))
            key = (int(d['by']), int(d['path']), int(d['slot']) if d['by'] != 2 else -1)
            agg[tag][key] += 1
            lat[(tag, key)].append(int(d['late']))
for t in agg:
    print(t, 'by2 (standby stepped) and by11 (owner stepped, standby armed) probes:', agg[t]['by2'], agg[t]['by11'])
    print('  later than 150 us, (by, path, slot): count',
          sorted(((k, v) for k, v in agg[t].items() if isinstance(k, tuple)), key=lambda x: -x[1])[:10])
for k in sorted(lat):
    if len(lat[k]) >= 5:
        v = sorted(lat[k])
        print(k, len(v), 'median', v[len(v) // 2], 'lowest', v[:8])

import sys
for f in sys.argv[1:]:
    rows=[tuple(map(int,l.split())) for l in open(f)]
    rows.sort()
    t0=rows[0][0]
    dues=[r[0] for r in rows]
    tids={}
    for r in rows: tids[r[2]]=tids.get(r[2],0)+1
    print(f, len(rows), "threads:", tids)
    late=[(i,r) for i,r in enumerate(rows) if r[1]>100_000]
    print(" >100us:",len(late))
    # gap to previous due
    import collections
    gapc=collections.Counter()
    for i,r in late:
        gap=(r[0]-rows[i-1][0]) if i>0 else 10**9
        # are neighbouring probes also late? (cluster)
        cl=sum(1 for j in range(max(0,i-3),min(len(rows),i+4)) if j!=i and rows[j][1]>100_000 and abs(rows[j][0]-r[0])<5_000_000)
        print("  at %.3f s late %.3f ms gap-prev %.3f ms tid %d cluster %d" % ((r[0]-t0)/1e9, r[1]/1e6, gap/1e6, r[2], cl))

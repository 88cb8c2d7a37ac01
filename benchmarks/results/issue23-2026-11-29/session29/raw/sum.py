import sys, re, statistics as st
rows=[]
for line in open(sys.argv[1]):
    p=line.split()
    if len(p)<3: continue
    tag=p[1]; d={}
    for kv in p[2:]:
        if '=' in kv:
            k,v=kv.split('=',1)
            try: d[k]=float(v)
            except: pass
    rows.append((tag,d))
tags=[]
for t,_ in rows:
    if t not in tags: tags.append(t)
by={t:[d for tt,d in rows if tt==t] for t in tags}
print("%-14s %3s %8s %8s %8s %8s %8s %8s"%("variant","n","p50med","p99med","p999med","300us%","1ms%","1ms%med"))
for t in tags:
    L=by[t]
    g=lambda k:[d[k] for d in L if k in d]
    print("%-14s %3d %8.3f %8.3f %8.3f %8.2f %8.2f %8.2f"%(t,len(L),st.median(g('p50ms')),st.median(g('p99ms')),st.median(g('p999ms')),st.mean(g('over300usPct')),st.mean(g('over1msPct')),st.median(g('over1msPct'))))
ref=sys.argv[2] if len(sys.argv)>2 else None
if ref and ref in by:
    n=min(len(by[t]) for t in tags)
    for t in tags:
        if t==ref: continue
        diffs=[by[t][i]['over1msPct']-by[ref][i]['over1msPct'] for i in range(n)]
        sd=st.stdev(diffs) if n>1 else 0
        print("paired %s - %s (>1ms pp): mean %+.2f  se %.2f  n %d  wins %d/%d"%(t,ref,st.mean(diffs),sd/n**0.5,n,sum(1 for x in diffs if x<0),n))

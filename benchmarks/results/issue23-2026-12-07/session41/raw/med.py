import sys,re,statistics as st
d={}
for l in open(sys.argv[1]):
    f=l.split()
    if len(f)<3: continue
    k=f[1]
    for kv in f[2:]:
        a,b=kv.split('='); d.setdefault(k,{}).setdefault(a,[]).append(float(b))
for k,v in d.items():
    print(k, ' '.join('%s=%.1f'%(a,st.median(b)) for a,b in v.items()))

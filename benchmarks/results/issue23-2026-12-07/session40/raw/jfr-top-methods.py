import json,sys,collections
d=json.load(open(sys.argv[1]))
events=d['recording']['events']
by=collections.defaultdict(collections.Counter); tot=collections.Counter(); top=collections.defaultdict(collections.Counter)
for e in events:
    v=e['values']; th=v['sampledThread']['javaName'] if v.get('sampledThread') else '?'
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    if not fr: continue
    t=th.split('-')[0] if 'producer' not in th else 'producer'
    tot[th]+=1
    m=fr[0]['method']; top[th][m['type']['name'].split('.')[-1]+'.'+m['name']+':'+str(fr[0].get('lineNumber'))]+=1
    seen=set()
    for f in fr:
        m=f['method']; k=m['type']['name'].split('.')[-1]+'.'+m['name']
        if k not in seen: by[th][k]+=1; seen.add(k)
for th,n in tot.most_common(6):
    print("==",th,n)
    for k,c in top[th].most_common(int(sys.argv[2]) if len(sys.argv)>2 else 25): print("  top %5.1f%% %s"%(100*c/n,k))
    for k,c in by[th].most_common(int(sys.argv[3]) if len(sys.argv)>3 else 25): print("  incl %5.1f%% %s"%(100*c/n,k))

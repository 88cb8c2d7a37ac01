import re, sys, collections
txt=open(sys.argv[1],errors='replace').read()
late=[]
for m in re.finditer(r"<task (?P<a>[^>]*)>(?P<b>.*?)<task_done (?P<d>[^>]*)/>", txt, re.S):
    a=m.group('a'); d=m.group('d')
    lv=re.search(r"\blevel='(\d)'",a); lv=lv.group(1) if lv else None
    if lv is not None and lv!='4': continue
    t0=float(re.search(r"\bstamp='([\d.]+)'",a).group(1)); t1=float(re.search(r"\bstamp='([\d.]+)'",d).group(1))
    meth=re.search(r"\bmethod='([^']*)'",a).group(1).split(' ')
    osr='osr' if 'osr_bci' in a else ''
    late.append((t0,t1-t0,meth[0].split('.')[-1]+'::'+meth[1],osr))
for lo,hi in [(0,1),(1,2),(2,3),(3,4),(4,5),(5,6),(6,9)]:
    xs=[x for x in late if lo<=x[0]<hi]
    print("%d-%d s: %3d C2 compiles, %4.0f ms wall" % (lo,hi,len(xs),1000*sum(x[1] for x in xs)))
print("late (>=3 s, >15 ms):", [(round(t,1), round(w*1000), n+(' osr' if o else '')) for t,w,n,o in late if t>=3 and w>0.015])

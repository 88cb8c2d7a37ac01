#!/usr/bin/env python3
# usage: slice.py PID PREFIX[,PREFIX...] SLICE_NS DURATION_S : every 100 ms for DURATION_S, gives each thread of PID whose
# name starts with a prefix a custom EEVDF slice (sched_setattr, SCHED_OTHER, sched_runtime = SLICE_NS; Linux 6.12+)
import ctypes, os, struct, sys, time
pid, prefixes, slice_ns, dur = int(sys.argv[1]), sys.argv[2].split(','), int(sys.argv[3]), float(sys.argv[4])
libc = ctypes.CDLL(None, use_errno=True)
SYS_sched_setattr = 314
done = {}
end = time.time() + dur
while time.time() < end:
    try:
        tids = os.listdir(f'/proc/{pid}/task')
    except FileNotFoundError:
        break
    for t in tids:
        if t in done: continue
        try:
            name = open(f'/proc/{pid}/task/{t}/comm').read().strip()
        except OSError:
            continue
        if not any(name.startswith(p) for p in prefixes): continue
        # struct sched_attr (VER0, 48 bytes): size u32, policy u32, flags u64, nice s32, priority u32, runtime u64, deadline u64, period u64
        attr = struct.pack('IIQiIQQQ', 48, 0, 0, 0, 0, slice_ns, 0, 0)
        buf = ctypes.create_string_buffer(attr, 48)
        r = libc.syscall(SYS_sched_setattr, int(t), buf, 0)
        sl = ''
        try:
            sl = [l for l in open(f'/proc/{pid}/task/{t}/sched') if l.startswith('se.slice')][0].split()[-1]
        except Exception:
            pass
        done[t] = (name, r, ctypes.get_errno() if r else 0, sl)
        print('set', t, name, 'rc', r, 'errno', done[t][2], 'se.slice', sl, flush=True)
    time.sleep(0.1)

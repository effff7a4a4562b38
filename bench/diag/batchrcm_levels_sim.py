#!/usr/bin/env python3
# An emulation of kernels/batchrcm/levels.cu's kernel logic (first written for the patch it came from: the blocks' runs of parents,
# tiles, G lanes of K entries, the block scans, the block prefix and the shuffle ranks), run level by level
# in Python against a serial Cuthill-McKee with the reference's tie rules, on grids and random graphs, one
# to seven blocks and tiles of 32 to 1024 threads (the narrow and the wide path). It checks the index
# arithmetic, not CUDA's semantics (barriers, shuffles, atomics), and it claims with the parent's key
# alone: graphs with a neighbour stored twice need the kernel's (parent, row offset) keys, which it
# gained after its first device run (the emulation's graphs have no duplicate entries). All OK on 2026-11-30. Run: python3 bench/diag/batchrcm_levels_sim.py (about a minute)
import random, sys
def serial_cm(n, rp, ci, val, roots):
    vis=[False]*n; out=[]
    for r in roots:
        if vis[r]: raise Exception('ordered')
        vis[r]=True; q=[r]; h=0
        while h < len(q):
            v=q[h]; h+=1
            kids=[]
            for off,e in enumerate(range(rp[v],rp[v+1])):
                w=ci[e]
                if not vis[w]: vis[w]=True; kids.append((val[w],off,w))
            kids.sort()
            q += [w for _,_,w in kids]
        out+=q
    return out
def emulate(n, rp, ci, val, roots, nblocks, T=1024):
    maxrow=max(rp[i+1]-rp[i] for i in range(n)); LI=4
    G=1
    while G<32 and (G*LI<maxrow or (G<8 and G<maxrow)): G*=2
    K=max(1,(maxrow+G-1)//G)
    assert K<=LI
    INF=1<<62; mark=[INF]*n; perm=[None]*n; start=0
    per_tile=T//G
    for root in roots:
        assert mark[root]==INF
        perm[start]=root; mark[root]=0
        lb,le=start,start+1
        while True:
            size=le-lb; narrow = size <= nblocks*per_tile
            # claim (order irrelevant for min)
            for p in range(lb,le):
                v=perm[p]
                for e in range(rp[v],rp[v+1]):
                    w=ci[e]; mark[w]=min(mark[w],p+1)
            per=(size+nblocks-1)//nblocks
            totals=[0]*nblocks; child_off={}
            def lanerow(p,active,lane):
                eb=ee=0
                if active: v=perm[p]; eb,ee=rp[v],rp[v+1]
                items=[]
                for k in range(LI):
                    e=eb+lane+k*G
                    w=ci[e] if (k<K and e<ee) else -1
                    own = w>=0 and mark[w]==p+1
                    items.append((w,own,val[w] if own else INF))
                return items
            for b in range(nblocks):
                rb=min(lb+per*b,le); re=min(rb+per,le)
                running=0; t0=rb
                while t0<re:
                    counts=[]
                    for tid in range(T):
                        p=t0+tid//G; lane=tid%G
                        it=lanerow(p,p<re,lane)
                        counts.append(sum(1 for x in it if x[1]))
                    # group sums, exclusive scan over lane-0 threads
                    acc=0
                    for tid in range(0,T,G):
                        p=t0+tid//G
                        c=sum(counts[tid:tid+G]) if p<re else 0
                        if p<re: child_off[p]=running+acc
                        acc+=c
                    running+=acc; t0+=per_tile
                    if narrow: break
                totals[b]=running
            total=sum(totals)
            for b in range(nblocks):
                rb=min(lb+per*b,le); re=min(rb+per,le); base=sum(totals[:b])
                for p in range(rb,re):
                    rows=[lanerow(p,True,lane) for lane in range(G)]
                    at=le+base+child_off[p]
                    for lane in range(G):
                        for k in range(LI):
                            w,own,v=rows[lane][k]
                            rank=0
                            for k2 in range(K):
                                for s in range(G):
                                    v2=rows[s][k2][2]
                                    earlier = k2<k or (k2==k and s<lane)
                                    rank += v2<v or (v2==v and earlier)
                            if own: perm[at+rank]=w
            if total==0: break
            lb,le=le,le+total
        start=le
    assert start==n, (start,n)
    return perm
def graph_grid(nx,ny,diag=True):
    n=nx*ny; rows=[]
    for j in range(ny):
        for i in range(nx):
            r=[]
            for dj,di in [(-1,0),(0,-1),(0,0),(0,1),(1,0)]:
                if not diag and dj==0 and di==0: continue
                a,b=i+di,j+dj
                if 0<=a<nx and 0<=b<ny: r.append(b*nx+a)
            rows.append(r)
    return rows
def graph_random(n,deg,seed):
    rnd=random.Random(seed); adj=[set([i]) for i in range(n)]
    for _ in range(n*deg//2):
        a,b=rnd.randrange(n),rnd.randrange(n); adj[a].add(b); adj[b].add(a)
    rows=[]
    for i in range(n):
        r=list(adj[i]); rnd.shuffle(r); rows.append(r)
    return rows
def run(rows,nblocks,name):
    n=len(rows); rp=[0]; ci=[]
    for r in rows: ci+=r; rp.append(len(ci))
    val=[rp[i+1]-rp[i] for i in range(n)]
    # components in order of smallest vertex, root = smallest vertex
    comp=[-1]*n; roots=[]
    for s in range(n):
        if comp[s]>=0: continue
        roots.append(s); st=[s]; comp[s]=s
        while st:
            v=st.pop()
            for w in rows[v]:
                if comp[w]<0: comp[w]=s; st.append(w)
    ref=serial_cm(n,rp,ci,val,roots)
    got=emulate(n,rp,ci,val,roots,nblocks)
    print(name, 'blocks',nblocks, 'OK' if ref==got else 'MISMATCH')
    if ref!=got:
        for i,(a,b) in enumerate(zip(ref,got)):
            if a!=b: print(' first diff at',i,a,b); break
for nb in (1,3,7):
    run(graph_grid(23,17),nb,'grid5')
    run(graph_random(400,6,1),nb,'random6')
    run(graph_random(300,40,2),nb,'random40')
    rows=graph_grid(30,5,False)+[[150+i] for i in range(3)]  # three isolated vertices (a self loop each)
    run(rows,nb,'grid-nodiag+isolated')
for T in (32,64):
    _e=emulate
    def emulate2(n,rp,ci,val,roots,nb,T=T): return _e(n,rp,ci,val,roots,nb,T)
    globals()['emulate']=emulate2
    for nb in (1,2,5):
        run(graph_grid(23,17),nb,'grid5 T=%d'%T)
        run(graph_random(300,40,2),nb,'random40 T=%d'%T)
    globals()['emulate']=_e

# Culberson iterated greedy for the distance-2 colouring of fem2d's row-overlap graph (thirty-second
# session, issue 11): does recolouring class by class (reversed, largest first, shuffled classes) get
# below the greedy 9 colours toward the lattice's 7? usage: python3 carpcg_iterated_greedy.py n iterations
# Result: 9 after 200 iterations at n = 60 and after 600 at n = 40; it never found 8.
import sys, random
n=int(sys.argv[1]); iters=int(sys.argv[2])
N=n*n
def idx(x,y): return x+n*y
# fem2d interior couplings (x+-1,y),(x,y+-1),(x+1,y+1),(x-1,y-1); boundary rows identity
offs=[(1,0),(-1,0),(0,1),(0,-1),(1,1),(-1,-1)]
cols=[]
for y in range(n):
    for x in range(n):
        if x in (0,n-1) or y in (0,n-1): cols.append([idx(x,y)]); continue
        c=[idx(x,y)]+[idx(x+dx,y+dy) for dx,dy in offs]
        cols.append(c)
rows_of=[[] for _ in range(N)]
for i,c in enumerate(cols):
    for j in c: rows_of[j].append(i)
nb=[set() for _ in range(N)]
for j in range(N):
    for a in rows_of[j]:
        for b in rows_of[j]:
            if a!=b: nb[a].add(b)
nb=[sorted(s) for s in nb]
def greedy(order):
    col=[-1]*N
    for v in order:
        used=set(col[u] for u in nb[v] if col[u]>=0)
        c=0
        while c in used: c+=1
        col[v]=c
    return col
col=greedy(range(N)); k=max(col)+1; print("natural greedy", k)
best=k
for it in range(iters):
    classes=[[] for _ in range(max(col)+1)]
    for v in range(N): classes[col[v]].append(v)
    mode=it%3
    if mode==0: classes=classes[::-1]
    elif mode==1: classes.sort(key=len, reverse=True)
    else: random.Random(it).shuffle(classes)
    order=[v for c in classes for v in c]
    col=greedy(order); k=max(col)+1
    if k<best: best=k; print("iter",it,"colours",k)
print("best",best)

#!/usr/bin/env python3
"""Reads a trace of the device batch RCM's chain and prints where a hop and a generation cycle go.

Diagnostic only, never part of the library. On a GPU node, in the bundle's source tree:
  git apply bench/diag/batchrcm_trace.patch   (thread 0 of each batch stamps %globaltimer at each step)
  rebuild bench_batchrcm, then PGK_RCM_TRACE=/path/trace.bin build/bench/bench_batchrcm -runs 1 ...
Each batch kernel launch overwrites the file, so it holds the last launch. Then, anywhere with numpy:
  python3 bench/diag/batchrcm_trace.py trace.bin
Record of batch id (16 u64): 0 ticket taken, 1 publication seen, 2 slot free (run starts), 3 discovery
done, 4 signalCount starts (Counted payload received), 5 signalCount done, 6 output written, 14 the
predecessor's Completed (when waited for) done, 7 generation published, 8 parents, 9 children,
10 first generated id (~0: forwarded whole), 11 batches generated, 12 discovery path (0 exact at
dequeue, 1 before sort, 2 after sort), 13 counted before the sort, 15 block. Used for bench/NOTES.md,
eighteenth session (the patch then applied to 0e2e1c7; this one applies to ab0eced)."""
import sys

import numpy as np


def main(path):
    a = np.fromfile(path, dtype=np.uint64).reshape(-1, 16).astype(np.int64)
    real = (a[:, 2] > 0) & (a[:, 5] > 0)
    ids = np.nonzero(real)[0]
    A = a[ids]
    t0 = A[:, 0].min()

    def us(k):
        return (A[:, k] - t0) / 1000.0

    count_end, count_start, discovered = us(5), us(4), us(3)
    hop = np.diff(count_end)
    print(f"{path}: {len(ids)} executed batches of {len(a)} tickets")
    print(f"  Counted chain {count_end[-1] - count_end[0]:.1f} us, hop median {np.median(hop):.2f} mean {hop.mean():.2f}")
    slack = count_end[:-1] - discovered[1:]
    print("  slack (predecessor's count end - own discovery done) p10/25/50/75/90 us:", np.percentile(slack, [10, 25, 50, 75, 90]).round(2))
    print(f"  batches not discovered when the predecessor counted: {(slack < 0).mean():.3f}")
    print(f"  signalCount median {np.median(count_end - count_start):.2f} us; own count start - predecessor's count end median "
          f"{np.median(count_start[1:] - count_end[:-1]):.2f} us")
    generator = {}
    for i, row in zip(ids, A):
        if 0 <= row[10] < 2**62 and row[11] > 0:
            for k in range(row[11]):
                generator[row[10] + k] = i
    where = {i: j for j, i in enumerate(ids)}
    steps = []
    for j, i in enumerate(ids):
        g = generator.get(i)
        if g is None or g not in where:
            continue
        G, R = A[where[g]], A[j]
        steps.append([G[5], G[6], G[14], G[7], R[1], R[2], R[3], R[4], R[5]])
    s = (np.array(steps) - t0) / 1000.0
    names = ["generator: count -> output written", "written -> predecessor's Completed", "-> children published",
             "published -> seen by the child's block", "seen -> slot free", "slot free -> discovery done",
             "discovery done -> count starts", "signalCount"]
    for k, name in enumerate(names):
        d = s[:, k + 1] - s[:, k]
        print(f"  {name:40s} median {np.median(d):7.2f} p90 {np.percentile(d, 90):7.2f} us")
    print(f"  generator's count end -> child's count end, median {np.median(s[:, 8] - s[:, 0]):.2f} us")
    print("  discovery paths (exact at dequeue, before sort, after sort):", np.bincount(A[:, 12].clip(0, 2), minlength=3),
          "counted before the sort:", int((A[:, 13] == 1).sum()))
    print("  parents a batch, median", np.median(A[:, 8]), "children a batch, median", np.median(A[:, 9]))


if __name__ == "__main__":
    for f in sys.argv[1:]:
        main(f)

// Shared-memory layout and block-wide building blocks of the device batch RCM (internal to
// batch.cu): the candidate scratch, the CUB sort of a batch's children, the reductions,
// and the warp that cuts the ordered children into new batches.
#pragma once

#include "kernels/batchrcm/batch_ring.cuh"

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

namespace pgk::cuda::rcm_detail {

constexpr int kBlock = 256; // threads per worker block (paper: 256)
// Scratch entries of the two kernels (kScratchSmallEntries, kScratchLargeEntries; internal.cuh).
// The large scratch makes fewer, fuller batches where rows bound a batch (T / row length < B),
// but its 16 entries a thread cost each batch more latency (more spilled to local memory), so it
// only pays on wide BFS levels (driver.cu picks it; measured in bench/NOTES.md).
constexpr int kMaxB = 2 * kBlock; // the largest batch_nodes: two parents per thread
constexpr int kParentsPerThread = kMaxB / kBlock;
constexpr int kRowItems = 8;  // row entries per thread in a tile of the large-row path
constexpr int kBins = 128;    // valence histogram of the large-row path (paper: 128)
constexpr int kMaxDepth = 12; // its recursion; each level narrows the range >= 64x

// Per-thread partial sums over a batch's children, combined with one block scan.
struct Acc {
  u32 cnt;  // children
  u32 smax; // the largest min(row length, T + 1): what a node-cut batch's scratch needs per parent
  u64 w;    // weight: sum of min(max(row length, 1), T), what the batch reservation counts
  u64 s;    // slots: sum of min(row length, T + 1), what the scratch of a batch holds
  u64 vsum; // valences, for the histogram's mean
  Index vmin, vmax;
};
__device__ __forceinline__ Acc acc_zero() {
  Acc a;
  a.cnt = a.smax = 0;
  a.w = a.s = a.vsum = 0;
  a.vmin = max_of<Index>();
  a.vmax = -1;
  return a;
}
struct AccOp {
  __device__ Acc operator()(const Acc &a, const Acc &b) const {
    Acc r;
    r.cnt = a.cnt + b.cnt;
    r.smax = a.smax > b.smax ? a.smax : b.smax;
    r.w = a.w + b.w;
    r.s = a.s + b.s;
    r.vsum = a.vsum + b.vsum;
    r.vmin = a.vmin < b.vmin ? a.vmin : b.vmin;
    r.vmax = a.vmax > b.vmax ? a.vmax : b.vmax;
    return r;
  }
};
__device__ __forceinline__ void acc_add(Acc &a, Index rowlen, Index valence, u32 T) {
  const u64 r = static_cast<u64>(rowlen);
  a.cnt += 1;
  a.w += r < 1 ? 1 : (r > T ? T : r);
  const u64 slots = r > T ? T + 1 : r;
  a.s += slots;
  a.smax = slots > a.smax ? static_cast<u32>(slots) : a.smax;
  a.vsum += static_cast<u64>(valence);
  a.vmin = valence < a.vmin ? valence : a.vmin;
  a.vmax = valence > a.vmax ? valence : a.vmax;
}

// One level of the large-row histogram: bins [0, 64) split [lo, split] evenly, bins
// [64, 128) split (split, hi]; counts per bin, and how far the level has been worked off.
struct Level {
  Index lo, split, hi;
  Index out;  // ordering position of the first bin not yet worked off
  u32 cursor; // that bin
  u32 cnt[kBins];
};

template <int IPT> using Sorter = cub::BlockRadixSort<u64, kBlock, IPT, u16>;
using AccScan = cub::BlockScan<Acc, kBlock>;
using CountScan = cub::BlockScan<u32, kBlock>;

// Values thread 0 decides and the block reads after a barrier.
struct Bcast {
  u64 id, target; // this batch, and the batch it signals (id + 1 + skip)
  Index in_begin, in_end;
  u32 skip;
  int action;     // see batch.cu
  int quit;       // the batch was abandoned (abort, or it lies past the end)
  u32 early, mid; // signal received before / after discovery
  int counted, is_end, forwarded;
  int pred_completed; // the Counted payload said the predecessor had nothing pending
  u32 split;          // node cut: parents forwarded while the full batches are generated (batch_chain.cuh)
  Index out_offset;
  Acc sums; // over the exact children
  // Generation, fixed at Counted time.
  u64 gen_first, gen_count;
  Index gen_begin;
  u32 gen_cn, gen_cs;
  u32 gen_cut; // node cut: every generated batch holds gen_cut parents (the last may hold fewer); 0: Walker
  // Large-row path.
  Index rb, rlen;
  int depth;
  int task; // what the histogram loop does next
  Index t_lo, t_hi, t_out;
};

// Shared memory of a worker block with a scratch of Cap entries (kItems per thread).
template <int Cap> struct BlockSmem {
  static constexpr int kT = Cap;
  static constexpr int kItems = Cap / kBlock;
  union {
    struct {
      Index rb[kMaxB];    // rowptr[p] of each parent
      u32 off[kMaxB + 1]; // slot prefix: parent j owns slots [off[j], off[j+1])
    } par;
    Level lv[kMaxDepth]; // large-row path
  } u;
  Index cnode[Cap]; // candidate vertex (by slot while discovering, then compacted)
  Index cval[Cap];  // its valence; after the output is written: its weight, in output order
  u16 cw[Cap];      // min(row length, T + 1)
  u16 cpar[Cap];    // local parent; after sorting: order[rank] = compact index
  u16 cslot[Cap];   // slot, which is the low half of the batch's mark code
  union {
    typename Sorter<1>::TempStorage s1;
    typename Sorter<2>::TempStorage s2;
    typename Sorter<4>::TempStorage s4;
    typename Sorter<8>::TempStorage s8;
    typename Sorter<kItems>::TempStorage s_all; // s8 again in the small kernel
    typename AccScan::TempStorage acc;
    typename CountScan::TempStorage cnt;
  } tmp;
  Bcast bc;
};

__device__ __forceinline__ int bit_width(u64 x) { return x ? 64 - __clzll(static_cast<long long>(x)) : 0; }

// Stable sort of the m compacted children by key = (parent << vbits) | (valence - vbase), or
// (valence - vbase) alone: ties keep compact order, which is slot order, which is the position in
// the parent's row (the tie rule). Leaves order[rank] = compact index in cpar. The common case of
// children already in order (meshes: equal valences) skips the sort.
template <int IPT, class Smem>
__device__ void sort_to_order(Smem &sm, u32 m, bool use_parent, Index vbase, int vbits, int pbits) {
  const u32 t = threadIdx.x;
  auto key_of = [&](u32 i) -> u64 {
    const u64 v = static_cast<u64>(sm.cval[i] - vbase);
    return use_parent ? (static_cast<u64>(sm.cpar[i]) << vbits) | v : v;
  };
  u64 key[IPT];
  u16 val[IPT];
  bool in_order = true;
#pragma unroll
  for (int q = 0; q < IPT; ++q) {
    const u32 i = t * IPT + q;
    key[q] = i < m ? key_of(i) : ~0ull;
    val[q] = static_cast<u16>(i);
    if (i + 1 < m) in_order = in_order && key[q] <= key_of(i + 1);
  }
  const int bits = (use_parent ? pbits : 0) + vbits;
  const bool sorted = __syncthreads_and(in_order) || bits == 0;
  if (!sorted) Sorter<IPT>(*reinterpret_cast<typename Sorter<IPT>::TempStorage *>(&sm.tmp)).Sort(key, val, 0, bits);
  __syncthreads(); // every key is read before cpar becomes the order
#pragma unroll
  for (int q = 0; q < IPT; ++q) {
    const u32 rank = t * IPT + q;
    if (rank < m) sm.cpar[rank] = sorted ? static_cast<u16>(rank) : val[q];
  }
  __syncthreads();
}

template <class Smem>
__device__ inline void sort_children(Smem &sm, u32 m, bool use_parent, Index vbase, int vbits, int pbits) {
  if (m == 0) return;
  if (m <= kBlock) sort_to_order<1>(sm, m, use_parent, vbase, vbits, pbits);
  else if (m <= 2 * kBlock) sort_to_order<2>(sm, m, use_parent, vbase, vbits, pbits);
  else if (m <= 4 * kBlock) sort_to_order<4>(sm, m, use_parent, vbase, vbits, pbits);
  else if constexpr (Smem::kItems > 8) {
    if (m <= 8 * kBlock) sort_to_order<8>(sm, m, use_parent, vbase, vbits, pbits);
    else sort_to_order<Smem::kItems>(sm, m, use_parent, vbase, vbits, pbits);
  } else {
    sort_to_order<8>(sm, m, use_parent, vbase, vbits, pbits);
  }
}

__device__ __forceinline__ u64 warp_inclusive_sum(u64 x) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const u64 y = __shfl_up_sync(~0u, x, d);
    if (lane >= d) x += y;
  }
  return x;
}

// Cuts the ordered children (preceded by the incoming overhang) into batches, warp 0 only,
// every lane holding the same state. Rule, for each next vertex x of row length r(x):
// x joins the open batch unless the batch is non-empty and either holds B vertices already or
// its slots plus r(x) would pass T; so only a vertex longer than T can exceed the scratch, and it
// is alone. The reservation made at Counted time bounds the number of batches this makes for
// any order of the children (see reserve_batches), so they always fit the ids reserved.
struct Walker {
  Index start; // ordering position where the open batch begins
  u64 c, s;    // its vertices and slots
  u64 made;    // batches published
  u64 first, count;
  bool ok;

  __device__ void begin(const Bcast &bc) {
    start = bc.gen_begin;
    c = bc.gen_cn;
    s = bc.gen_cs;
    made = 0;
    first = bc.gen_first;
    count = bc.gen_count;
    ok = true;
  }

  // Publishes the k-th reserved batch (thread 0's lane only).
  __device__ bool publish_kth(const ChainParams &P, u64 me, u64 k, Index begin, Index end, u32 skip) const {
    if (k >= count) {
      raise_error(P, kInternal, me, 1, k); // more batches than reserved: the bound was violated
      return false;
    }
    return publish(P, me, first + k, begin, end, skip);
  }

  // w[0, len): min(row length, T + 1) of the vertices at ordering positions pos0 ...
  __device__ void feed(const ChainParams &P, u64 me, const Index *w, u32 len, Index pos0) {
    const int lane = threadIdx.x & 31;
    u32 x = 0;
    while (x < len && ok) {
      const u32 idx = x + lane;
      const bool valid = idx < len;
      const u64 r = valid ? static_cast<u64>(w[idx]) : 0;
      const u64 incl = warp_inclusive_sum(r);
      bool accept = valid && s + incl <= P.T && c + lane + 1 <= P.B;
      if (lane == 0 && c == 0 && valid) accept = true; // an empty batch takes any vertex
      const u32 rejected = __ballot_sync(~0u, valid && !accept);
      const u32 nvalid = len - x < 32 ? len - x : 32;
      if (rejected == 0) {
        s += __shfl_sync(~0u, incl, nvalid - 1);
        c += nvalid;
        x += nvalid;
        continue;
      }
      const int j = __ffs(rejected) - 1; // vertices x .. x+j-1 join, x+j starts the next batch
      const u64 add = __shfl_sync(~0u, incl, j > 0 ? j - 1 : 0);
      if (j > 0) {
        s += add;
        c += j;
      }
      const Index end = pos0 + static_cast<Index>(x + j);
      bool done = true;
      if (lane == 0) done = publish_kth(P, me, made, start, end, 0);
      ok = __shfl_sync(~0u, done, 0);
      ++made;
      start = end;
      c = 0;
      s = 0;
      x += j;
    }
  }

  // The open batch ends at `end`; it carries the number of empty batches that follow it, which
  // are then published empty (parent range [end, end)).
  __device__ void finish(const ChainParams &P, u64 me, Index end) {
    const int lane = threadIdx.x & 31;
    if (!ok) return;
    bool done = true;
    if (lane == 0) done = publish_kth(P, me, made, start, end, static_cast<u32>(count - made - 1));
    ok = __shfl_sync(~0u, done, 0);
    if (!ok) return;
    ++made;
    for (u64 y = made + lane; y < count; y += 32) publish(P, me, first + y, end, end, 0);
    __syncwarp();
  }
};

// Node cut (see count_batch): the gen_count batches are consecutive runs of gen_cut parents from
// gen_begin, the last one cut at `end` (this batch's output end). Warp 0, a batch a lane: the
// boundaries need no walk, and nothing is reserved that stays empty.
__device__ inline void publish_node_cut(const ChainParams &P, const Bcast &bc, Index end) {
  for (u64 y = threadIdx.x & 31; y < bc.gen_count; y += 32) {
    const Index begin = bc.gen_begin + static_cast<Index>(y * bc.gen_cut);
    const Index stop = begin + static_cast<Index>(bc.gen_cut);
    publish(P, bc.id, bc.gen_first + y, begin, stop < end ? stop : end, 0);
  }
  __syncwarp();
}

} // namespace pgk::cuda::rcm_detail

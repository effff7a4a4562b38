// Level-synchronous Cuthill-McKee on the device (GpuAlgorithm::Levels): the host's level_rcm
// (src/batchrcm/level_rcm.hpp) in one persistent cooperative kernel, for graphs whose rows hold
// at most kLevelsMaxRow entries. Same permutation as the serial reference.
//
// Why it is exact (level_rcm.hpp): a vertex of level L+1 is the child of its neighbour in level L
// that comes first in the order, and a parent's children follow by ascending valence, ties in
// row order. So each level is fixed by the one before: every neighbour of a parent at position p
// is offered the key (p + 1, the entry's offset in p's row) (an atomic minimum; the roots hold 0
// and vertices of earlier levels smaller keys, so they keep theirs), a parent owns the neighbours
// that hold one of its keys, and the new level lists the parents' owned children parent by parent,
// each parent's by (valence, offset). The offset in the key makes the owner one entry even where a
// row stores a neighbour twice (duplicate entries): its first, as in the reference.
//
// One level, three phases, each ended by a grid barrier (or __syncthreads() when the grid is one
// block, which narrow levels favour: thousands of 2D-mesh levels with a few thousand entries):
//   claim  every row entry of the level offers its parent's key;
//   count  each block counts the owned children of a contiguous run of parents, in order (block
//          scan), keeps each parent's offset in its run and publishes the run's total;
//   write  each block adds the totals of the blocks before it, ranks every owned child among its
//          parent's by (valence, offset) with shuffles across the parent's lanes, and writes it.
// A parent takes G lanes (a power of two up to 32), each lane up to kLaneItems of its entries,
// so a row of kLevelsMaxRow = 32 x kLaneItems entries is ranked in registers.
#include "kernels/batchrcm/batch_ring.cuh" // error codes shared with the batch kernel
#include "kernels/batchrcm/device_loops.cuh"
#include "kernels/batchrcm/internal.cuh"
#include "kernels/common/atomics.cuh"

#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>

#include <stdexcept>
#include <string>

namespace cg = cooperative_groups;

namespace pgk::cuda::rcm_detail {
namespace {

constexpr int kLevelThreads = 1024;
constexpr int kLaneItems = kLevelsMaxRow / 32;

// A claim: the parent's position + 1 above the entry's offset in its row (< kLevelsMaxRow), so
// a smaller key is an earlier parent, or the same parent's earlier entry. 64 bits for any n;
// unsigned, unclaimed = all ones (one cudaMemset), as the batch kernel's marks (batch.cu).
using Key = u64;
constexpr Key kUnclaimed = ~Key(0);
constexpr int kSlotBits = 7;
static_assert(kLevelsMaxRow <= (1 << kSlotBits), "a row's offsets fit the key's low bits");
__device__ __forceinline__ Key claim_key(Index p, int slot) { return (static_cast<Key>(p + 1) << kSlotBits) | slot; }

struct LevelsParams {
  const Index *rowptr, *colidx, *valence;
  const Index *roots, *root_offset; // root_offset null: each component right after the last
  Index nroots, chain_end;
  Index *perm, *comp_begin;
  Key *mark;          // claim_key of the claiming entry; 0: a root; kUnclaimed
  Index *child_off;   // by parent position: its children's offset in its block's run
  Index *block_total; // by block: its run's children
  int G;              // lanes per parent
  int K;              // entries per lane: ceil(longest row / G) <= kLaneItems
  int *error;         // kOk, kRootsShort (reached), kRootOrdered (root), kInternal (position)
  Index *err_value;
};

using Scan = cub::BlockScan<Index, kLevelThreads>;

__device__ __forceinline__ void barrier(cg::grid_group &grid) {
  if (gridDim.x == 1) __syncthreads();
  else grid.sync();
}

// Block b's run of the level's parents [lb, le): contiguous, in order.
__device__ __forceinline__ void run_of(Index lb, Index le, Index &rb, Index &re) {
  const Index size = le - lb, per = (size + gridDim.x - 1) / gridDim.x;
  rb = lb + per * blockIdx.x;
  re = rb + per < le ? rb + per : le;
  if (rb > le) rb = le;
}

// This lane's entries of parent p's row (entry eb + lane + k G in item k): the child, whether p
// owns it, its valence (max when not owned: it ranks after every owned entry).
struct LaneRow {
  Index w[kLaneItems], val[kLaneItems];
  bool own[kLaneItems];
  int owned;
  __device__ void load_row(const LevelsParams &L, Index p, bool active, int lane) {
    Index eb = 0, ee = 0;
    if (active) {
      const Index v = load_relaxed(L.perm[p]);
      eb = L.rowptr[v];
      ee = L.rowptr[v + 1];
    }
#pragma unroll
    for (int k = 0; k < kLaneItems; ++k) {
      const Index e = eb + lane + static_cast<Index>(k) * L.G;
      w[k] = k < L.K && e < ee ? L.colidx[e] : Index(-1);
    }
  }
  __device__ void offer(const LevelsParams &L, Index p, int lane) const {
#pragma unroll
    for (int k = 0; k < kLaneItems; ++k) {
      const Key key = claim_key(p, lane + k * L.G);
      if (w[k] >= 0 && load_relaxed(L.mark[w[k]]) > key) atomicMin(&L.mark[w[k]], key);
    }
  }
  __device__ void check(const LevelsParams &L, Index p, int lane) {
    owned = 0;
#pragma unroll
    for (int k = 0; k < kLaneItems; ++k) {
      own[k] = w[k] >= 0 && load_relaxed(L.mark[w[k]]) == claim_key(p, lane + k * L.G);
      val[k] = own[k] ? L.valence[w[k]] : max_of<Index>();
      owned += own[k] ? 1 : 0;
    }
  }
  // Writes the owned children from perm[at] on, ranked by (valence, offset) across the group.
  __device__ void write(const LevelsParams &L, Index at, int lane) const {
    Index rank[kLaneItems];
#pragma unroll
    for (int k = 0; k < kLaneItems; ++k) rank[k] = 0;
#pragma unroll
    for (int k2 = 0; k2 < kLaneItems; ++k2) {
      if (k2 >= L.K) break;
      for (int s = 0; s < L.G; ++s) {
        const Index v2 = __shfl_sync(~0u, val[k2], s, L.G); // max: not owned, never counted
#pragma unroll
        for (int k = 0; k < kLaneItems; ++k) {
          const bool earlier = k2 < k || (k2 == k && s < lane);
          rank[k] += v2 < val[k] || (v2 == val[k] && earlier);
        }
      }
    }
#pragma unroll
    for (int k = 0; k < kLaneItems; ++k)
      if (own[k]) store_relaxed(L.perm[at + rank[k]], w[k]);
  }
};

// Sum of x over the G lanes of this lane's group (every lane gets it).
__device__ __forceinline__ int group_sum(int x, int G) {
  for (int d = G / 2; d > 0; d /= 2) x += __shfl_xor_sync(~0u, x, d, G);
  return x;
}

// Block scan of the parents' owned counts in parent order (the first lane of each group holds
// its parent's count): each parent's offset in the tile, and the tile's total.
__device__ __forceinline__ Index tile_offsets(const LaneRow &r, bool active, int lane, Scan::TempStorage &scan,
                                              Index &tile_total, int G) {
  const int owned = group_sum(r.owned, G);
  Index before;
  Scan(scan).ExclusiveSum(lane == 0 && active ? Index(owned) : Index(0), before, tile_total);
  return __shfl_sync(~0u, before, 0, G); // every lane of the group
}

// Wide levels (more parents than the grid holds in one tile): claim over the grid, then count
// and write tile by tile, the rows read again in each phase.
__device__ void claim_wide(const LevelsParams &L, Index lb, Index le) {
  const Index parents_per_pass = static_cast<Index>(gridDim.x) * (kLevelThreads / L.G);
  const int lane = threadIdx.x % L.G;
  for (Index p = lb + static_cast<Index>(blockIdx.x) * (kLevelThreads / L.G) + threadIdx.x / L.G; p < le;
       p += parents_per_pass) {
    LaneRow r;
    r.load_row(L, p, true, lane);
    r.offer(L, p, lane);
  }
}

// Count phase of block b: child_off[p] for its run, block_total[b].
__device__ void count_wide(const LevelsParams &L, Index lb, Index le, Scan::TempStorage &scan) {
  Index rb, re;
  run_of(lb, le, rb, re);
  const int per_tile = kLevelThreads / L.G, lane = threadIdx.x % L.G;
  Index running = 0;
  for (Index t0 = rb; t0 < re; t0 += per_tile) { // uniform across the block
    const Index p = t0 + threadIdx.x / L.G;
    LaneRow r;
    r.load_row(L, p, p < re, lane);
    r.check(L, p, lane);
    Index tile_total;
    const Index before = tile_offsets(r, p < re, lane, scan, tile_total, L.G);
    if (lane == 0 && p < re) L.child_off[p] = running + before;
    running += tile_total;
    __syncthreads(); // scan storage reused
  }
  if (threadIdx.x == 0) store_relaxed(L.block_total[blockIdx.x], running);
}

// Write phase of block b: its run's children from out_base on (out_base: the level's end plus
// the totals of the blocks before it).
__device__ void write_wide(const LevelsParams &L, Index lb, Index le, Index out_base) {
  Index rb, re;
  run_of(lb, le, rb, re);
  const int per_tile = kLevelThreads / L.G, lane = threadIdx.x % L.G;
  for (Index t0 = rb; t0 < re; t0 += per_tile) {
    const Index p = t0 + threadIdx.x / L.G;
    LaneRow r;
    r.load_row(L, p, p < re, lane);
    r.check(L, p, lane);
    r.write(L, p < re ? out_base + load_relaxed(L.child_off[p]) : 0, lane);
  }
}

// The start of block b's output (the totals of blocks 0..b-1) and the level's total.
__device__ void block_prefix(const LevelsParams &L, Index &base, Index &total) {
  __shared__ Index s_base, s_total;
  if (threadIdx.x < 32) {
    Index mine = 0, all = 0;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += 32) {
      const Index t = load_relaxed(L.block_total[i]);
      all += t;
      if (i < blockIdx.x) mine += t;
    }
    for (int d = 16; d > 0; d /= 2) {
      mine += __shfl_xor_sync(~0u, mine, d);
      all += __shfl_xor_sync(~0u, all, d);
    }
    if (threadIdx.x == 0) {
      s_base = mine;
      s_total = all;
    }
  }
  __syncthreads();
  base = s_base;
  total = s_total;
  __syncthreads(); // read before the next level's call rewrites them
}

// A level whose parents fit one tile of every block: each thread keeps its parent's row in
// registers from the claim to the write, so only the marks (and valences) are read again.
__device__ Index narrow_level(const LevelsParams &L, Index lb, Index le, Scan::TempStorage &scan,
                              cg::grid_group &grid) {
  Index rb, re;
  run_of(lb, le, rb, re);
  const int lane = threadIdx.x % L.G;
  const Index p = rb + threadIdx.x / L.G;
  const bool active = p < re;
  LaneRow r;
  r.load_row(L, p, active, lane);
  r.offer(L, p, lane);
  barrier(grid);
  r.check(L, p, lane);
  Index tile_total;
  const Index before = tile_offsets(r, active, lane, scan, tile_total, L.G);
  if (threadIdx.x == 0) store_relaxed(L.block_total[blockIdx.x], tile_total);
  barrier(grid);
  Index base, total;
  block_prefix(L, base, total);
  if (total > 0) r.write(L, le + base + before, lane);
  barrier(grid);
  return total;
}

// Any level: claim, count and write, the rows read again in each phase. The new level's size.
__device__ Index wide_level(const LevelsParams &L, Index lb, Index le, Scan::TempStorage &scan, cg::grid_group &grid) {
  claim_wide(L, lb, le);
  barrier(grid);
  count_wide(L, lb, le, scan);
  barrier(grid);
  Index base, total;
  block_prefix(L, base, total);
  if (total > 0) write_wide(L, lb, le, le + base);
  barrier(grid);
  return total;
}

__device__ void report(const LevelsParams &L, int code, Index value) {
  if (atomicCAS(L.error, kOk, code) == kOk) *L.err_value = value;
}

__global__ void __launch_bounds__(kLevelThreads, 1) levels_kernel(LevelsParams L) {
  cg::grid_group grid = cg::this_grid();
  __shared__ Scan::TempStorage scan;
  Index start = 0;
  for (Index j = 0; j < L.nroots; ++j) {
    const Index root = L.roots[j];
    if (L.root_offset) start = L.root_offset[j];
    const bool taken = load_relaxed(L.mark[root]) != kUnclaimed; // read before anyone writes it
    barrier(grid);
    if (taken) {
      if (blockIdx.x == 0 && threadIdx.x == 0) report(L, kRootOrdered, root);
      return; // every block read the same mark
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      store_relaxed(L.perm[start], root);
      store_relaxed(L.mark[root], Key(0));
      L.comp_begin[j] = start;
    }
    barrier(grid);
    Index lb = start, le = start + 1;
    for (;;) {
      const bool narrow = le - lb <= static_cast<Index>(gridDim.x) * (kLevelThreads / L.G); // uniform
      const Index total = narrow ? narrow_level(L, lb, le, scan, grid) : wide_level(L, lb, le, scan, grid);
      if (total == 0) break;
      lb = le;
      le += total;
    }
    start = le;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0 && start != L.chain_end) report(L, kRootsShort, start);
}

} // namespace

LevelsResult run_levels_chain_device(const CsrView &g, const Index *valence, Index max_row, const ChainRun &run,
                                     Index *perm, Index *comp_begin, int max_blocks, cudaStream_t s) {
  if (max_row > kLevelsMaxRow)
    throw std::invalid_argument("gpu rcm levels: rows of up to " + std::to_string(kLevelsMaxRow) + " entries, got " +
                                std::to_string(max_row));
  const Index n = g.nrows;
  DeviceBuffer<Key> mark(static_cast<std::size_t>(n), s);
  DeviceBuffer<Index> child_off(static_cast<std::size_t>(n), s);
  PGK_CUDA_CHECK(cudaMemsetAsync(mark.data(), 0xff, static_cast<std::size_t>(n) * sizeof(Key), s));
  LevelsResult res;
  // Lanes per parent: the fewest that hold the longest row in kLaneItems entries a lane, but at
  // least the row itself up to 8 (short rows: all their entries in flight at once).
  int G = 1;
  while (G < 32 && (G * kLaneItems < max_row || (G < 8 && G < max_row))) G *= 2;
  const int K = static_cast<int>((max_row + G - 1) / G);
  res.lanes = G;
  res.blocks = cooperative_grid(reinterpret_cast<const void *>(&levels_kernel), kLevelThreads, 0, max_blocks);
  DeviceBuffer<Index> block_total(static_cast<std::size_t>(res.blocks), s), err_value(1, s);
  DeviceBuffer<int> error(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(error.data(), 0, sizeof(int), s));

  LevelsParams L{};
  L.rowptr = g.rowptr;
  L.colidx = g.colidx;
  L.valence = valence;
  L.roots = run.roots;
  L.root_offset = run.root_offset;
  L.nroots = run.nroots;
  L.chain_end = run.chain_end;
  L.perm = perm;
  L.comp_begin = comp_begin;
  L.mark = mark.data();
  L.child_off = child_off.data();
  L.block_total = block_total.data();
  L.G = G;
  L.K = K > 0 ? K : 1;
  L.error = error.data();
  L.err_value = err_value.data();
  void *args[] = {&L};
  PGK_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(&levels_kernel), dim3(res.blocks),
                                             dim3(kLevelThreads), args, 0, s));
  PGK_CUDA_CHECK_LAUNCH();
  if (run.while_running && *run.while_running) (*run.while_running)();
  const int code = error.get(0, s);
  if (code == kRootOrdered)
    throw std::invalid_argument("rcm: root " + std::to_string(err_value.get(0, s)) +
                                " lies in a component that is already ordered");
  if (code == kRootsShort)
    throw std::invalid_argument("rcm: the roots reach " + std::to_string(err_value.get(0, s)) + " of " +
                                std::to_string(run.chain_end) + " vertices");
  if (code != kOk) throw std::runtime_error("gpu rcm levels: internal error " + std::to_string(code));
  return res;
}

} // namespace pgk::cuda::rcm_detail

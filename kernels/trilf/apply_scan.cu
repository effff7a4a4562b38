// The apply of the scalar device PC trilf: z = Q T~^-1 Q^T r from the factor of tridiag.cu,
// without per-path loops. Both triangular solves are affine recurrences
// x_t = a_t x_{t-1} + b_t (x_{-1} = 0), i.e. a scan of the maps f_t(x) = a_t x + b_t under
// composition, which is associative. m_k = 0 at path starts and splits makes a_t = 0 there, so
// the recurrence restarts by itself. The scan is our own, not CUB's DeviceScan: the decoupled
// look-back of DeviceScan uses whichever predecessor has published its inclusive prefix, so its
// floating-point association depends on timing (not reproducible run to run). Each block scans
// a tile of 2048 rows with zero carry-in (fixed association: thread-sequential, then
// cub::BlockScan); a row's value for the true carry-in c is b + s c, where s, the row's
// sensitivity to the carry-in, is the product of a over [tile start, row]. Two ways to get c:
//   * chained (one kernel a scan): each tile publishes its composed map and composes those of
//     its predecessors, nearest first, until the composition's slope is at most 2^-60 or exactly 0
//     (a path start); only maps, never prefixes, so the association is a function of the data
//     alone. The tile then stores b + s c straight away: one pass over the rows. It waits on its
//     predecessors' maps, so it pays where each tile's map decays by itself, the common case
//     (|a| ~ 0.4-0.96 on issue 15's rows: one predecessor); the factor checks that
//     (flag_slow_decay) and the apply takes the fix-up otherwise.
//   * fix-up (three kernels a scan): the tile kernel also stores s for the tile's leading rows
//     while |s| > 2^-60; one block scans the tile maps in order (every tile's carry-in); a fix
//     kernel adds s c to those rows. Its cost does not depend on how far a carry reaches back.
// Every step has a fixed order, so results are bit-reproducible for either way; the two ways
// agree to rounding. The gather r[perm[k]] is fused into the forward scan's loads; the backward
// scan writes x over y in path order and one pass z_i = x[iperm[i]] puts it in A's numbering (a
// scatter z[perm[k]] in the scan's stores, each 8-byte store its own sector where paths cross the
// numbering, took 128 us against 51 + 40; ncu, H200, bench/NOTES.md).
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "kernels/common/atomics.cuh"
#include "kernels/common/pdl.cuh"
#include "kernels/trilf/internal.hpp"
#include "kernels/trilf/launch.cuh"

namespace pgk::cuda::trilf {
namespace {

using namespace detail;

constexpr int kScanThreads = 256, kScanItems = 8, kTile = kScanThreads * kScanItems;
constexpr int kGatherThreads = 256;
// A row's sensitivity to its tile's carry-in decays geometrically along a long path
// (|m| ~ 0.4 on ANISO2) and only reaches 0 by underflow, after ~700 rows. Sensitivities at
// most 2^-60 are dropped: what they would add is below 2^-60 |carry|, under a hundredth of one
// rounding unit of the carry, and the cut-off is fixed, so results stay deterministic. The
// fix-up stores and fixes every row up to the last kept one (zeros are absorbing, so those rows
// all have a nonzero sensitivity); the chained scan stops composing predecessors at the same bound.
constexpr double kSensitivityDrop = 0x1p-60;
// flag_slow_decay's bound on a tile's log2 |slope|: 4 bits under the drop, so that the chained
// scan's look-back, whose products round differently, still ends at the nearest predecessor.
constexpr double kTileDecayLog2 = -64.0;

struct Affine {
  double a, b; // x -> a x + b
};
// first, then second. A constant map (a == 0) absorbs whatever came before, exactly; this
// also keeps 0 * inf out of long products.
__device__ inline Affine compose(const Affine &f, const Affine &s) {
  if (s.a == 0) return s;
  return Affine{f.a == 0 ? 0.0 : s.a * f.a, s.a * f.b + s.b};
}
struct MaxIndex {
  __device__ Index operator()(Index x, Index y) const { return x > y ? x : y; }
};
struct Compose {
  __device__ Affine operator()(const Affine &f, const Affine &s) const { return compose(f, s); }
};

// The four recurrences. t: position in scan order; k: row of T. slope(t) is load(t).a without
// the loads of r or y (flag_slow_decay reads the factor alone).
struct Forward { // L y = Q^T r
  const double *mult, *r;
  const Index *perm;
  double *y;
  Index n;
  __device__ double slope(Index t) const { return -mult[t]; }
  __device__ Affine load(Index t) const { return Affine{slope(t), r[perm[t]]}; }
  __device__ void store(Index t, double x) const { y[t] = x; }
  __device__ void fix(Index t, double d) const { y[t] += d; }
};
// The backward scans write x over y: a tile reads its own rows of y (all of them, before its
// first store) and writes only those rows, and fix_tiles touches only its tile's rows.
struct Backward { // U x = y, x over y (path order)
  const double *cu, *dinv;
  double *y;
  Index n;
  __device__ double slope(Index t) const { return cu[n - 1 - t]; }
  __device__ Affine load(Index t) const {
    const Index k = n - 1 - t;
    return Affine{cu[k], dinv[k] * y[k]};
  }
  __device__ void store(Index t, double x) const { y[n - 1 - t] = x; }
  __device__ void fix(Index t, double d) const { y[n - 1 - t] += d; }
};
struct ForwardT { // U^T w = Q^T r
  const double *cl, *dinv, *r;
  const Index *perm;
  double *y;
  Index n;
  __device__ double slope(Index t) const { return cl[t]; }
  __device__ Affine load(Index t) const { return Affine{cl[t], dinv[t] * r[perm[t]]}; }
  __device__ void store(Index t, double x) const { y[t] = x; }
  __device__ void fix(Index t, double d) const { y[t] += d; }
};
struct BackwardT { // L^T x = w, x over w (path order)
  const double *mult;
  double *y;
  Index n;
  __device__ double slope(Index t) const {
    const Index k = n - 1 - t;
    return k + 1 < n ? -mult[k + 1] : 0.0;
  }
  __device__ Affine load(Index t) const { return Affine{slope(t), y[n - 1 - t]}; }
  __device__ void store(Index t, double x) const { y[n - 1 - t] = x; }
  __device__ void fix(Index t, double d) const { y[n - 1 - t] += d; }
};

// z_i = x[iperm[i]]: the solution back in A's numbering (coalesced stores, gathered loads).
__global__ void from_path_order(Index n, const Index *iperm, const double *x, double *z) {
  pdl_prologue();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) z[i] = x[iperm[i]];
}

using Exchange = cub::BlockExchange<double, kScanThreads, kScanItems>;
using TileScan = cub::BlockScan<Affine, kScanThreads>;
using Count = cub::BlockReduce<Index, kScanThreads>;
union TileTemp {
  typename Exchange::TempStorage exchange;
  typename TileScan::TempStorage scan;
  typename Count::TempStorage count;
};

// The tile at `base` with carry-in 0: thread tid owns rows base + tid * kScanItems + j, and leaves
// in a[j] that row's sensitivity to the carry-in and in b[j] its value for carry-in 0; `total`
// is the tile's composed map. Loads are striped (coalesced), then exchanged to blocked.
template <class Op>
__device__ void scan_tile(const Op &op, Index n, Index base, TileTemp &temp, double (&a)[kScanItems],
                          double (&b)[kScanItems], Affine &total) {
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    const Index t = base + j * kScanThreads + threadIdx.x;
    const Affine f = t < n ? op.load(t) : Affine{1.0, 0.0};
    a[j] = f.a;
    b[j] = f.b;
  }
  Exchange(temp.exchange).StripedToBlocked(a, a);
  __syncthreads();
  Exchange(temp.exchange).StripedToBlocked(b, b);
  __syncthreads();
  Affine agg{1.0, 0.0};
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) agg = compose(agg, Affine{a[j], b[j]});
  Affine run;
  TileScan(temp.scan).ExclusiveScan(agg, run, Affine{1.0, 0.0}, Compose(), total);
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    run = compose(run, Affine{a[j], b[j]});
    a[j] = run.a;
    b[j] = run.b;
  }
}

// Three blocks an SM (at most 80 registers, from 100 at two): the scans wait on latency, not
// bandwidth, so more tiles in flight pay: apply 1.19-1.21 / 0.88-0.91 / 0.82 MatMults on issue 15's
// y / x / convection rows against 1.23-1.25 / 0.96-0.98 / 0.90-0.92 at two; four blocks (64
// registers) spill and lose (bench/results/trilf_scan_occupancy_c28c9f1_h200.txt).
template <class Op>
__global__ void __launch_bounds__(kScanThreads, 3)
    tile_scan(Op op, Index n, double *agg_a, double *agg_b, Index *fixlen, double *sens) {
  pdl_prologue();
  __shared__ TileTemp temp;
  const Index base = static_cast<Index>(blockIdx.x) * kTile;
  double a[kScanItems], b[kScanItems];
  Affine total;
  scan_tile(op, n, base, temp, a, b, total);
  Index last = 0; // rows of the tile, from its start, whose carry-in sensitivity is kept
#pragma unroll
  for (int j = 0; j < kScanItems; ++j)
    if (fabs(a[j]) > kSensitivityDrop) last = static_cast<Index>(threadIdx.x) * kScanItems + j + 1;
  const Index len = Count(temp.count).Reduce(last, MaxIndex());
  __syncthreads();
  Exchange(temp.exchange).BlockedToStriped(b, b);
  __syncthreads();
  Exchange(temp.exchange).BlockedToStriped(a, a);
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    const Index t = base + j * kScanThreads + threadIdx.x;
    if (t < n) {
      op.store(t, b[j]);
      if (t - base < len) sens[t] = a[j]; // only the rows fix_tiles reads
    }
  }
  if (threadIdx.x == 0) {
    agg_a[blockIdx.x] = total.a;
    agg_b[blockIdx.x] = total.b;
    fixlen[blockIdx.x] = len;
  }
}
// carry[i] = value after tiles 0..i-1, i.e. B of their composition (x_{-1} = 0). One block:
// thread t composes its own run of consecutive tiles in order, one block scan of the runs, then
// each thread walks its run again: deterministic. (A block scan per 256 tiles took 10 us for 2048
// tiles, 7% of an apply, H200.)
__global__ void __launch_bounds__(kScanThreads)
    tile_carries(Index ntiles, const double *agg_a, const double *agg_b, double *carry) {
  using Scan = cub::BlockScan<Affine, kScanThreads>;
  __shared__ typename Scan::TempStorage temp;
  pdl_prologue();
  const Index per = (ntiles + kScanThreads - 1) / kScanThreads;
  const Index lo = min(ntiles, static_cast<Index>(threadIdx.x) * per), hi = min(ntiles, lo + per);
  Affine run{1.0, 0.0};
#pragma unroll 8
  for (Index i = lo; i < hi; ++i) run = compose(run, Affine{agg_a[i], agg_b[i]});
  Scan(temp).ExclusiveScan(run, run, Affine{1.0, 0.0}, Compose());
#pragma unroll 8
  for (Index i = lo; i < hi; ++i) {
    carry[i] = run.b;
    run = compose(run, Affine{agg_a[i], agg_b[i]});
  }
}

template <class Op>
__global__ void fix_tiles(Op op, Index n, const Index *fixlen, const double *carry, const double *sens) {
  pdl_prologue();
  const Index tile = blockIdx.x + 1; // tile 0 has carry-in 0
  const double c = carry[tile];
  if (c == 0) return;
  const Index base = tile * kTile;
  const Index len = fixlen[tile];
  for (Index t = base + threadIdx.x; t < base + len && t < n; t += blockDim.x) op.fix(t, sens[t] * c);
}

// ---- chained: one kernel a scan ---------------------------------------------------------------

// ScanWorkspace::chain: [0] the next tile to hand out, [1] the generation, [2 + i] tile i's flag.
// Tiles are handed out in the order blocks start (a ticket), so every tile a block waits for
// belongs to a block already running: no wait can hang. The block that takes the last ticket
// resets the ticket and advances the generation; a tile's flag holds the generation of the
// launch that published its map, so no flag needs clearing between launches (the next launch
// reads the generation after pdl_prologue, when this grid has completed). The generation is 64
// bits, so it does not wrap.
struct Chain {
  unsigned long long *words;
  double *agg_a, *agg_b;
};

// Thread 0: this block's tile; returns the generation its flags carry.
__device__ unsigned long long take_tile(const Chain &c, Index ntiles, Index &tile) {
  const unsigned long long mark = load_relaxed(c.words[1]) + 1;
  // acq_rel: the generation was read before the ticket, by every block, when the last is taken.
  const unsigned long long ticket = DeviceRef<unsigned long long>(c.words[0]).fetch_add(1, ::cuda::memory_order_acq_rel);
  if (ticket + 1 == static_cast<unsigned long long>(ntiles)) {
    store_relaxed(c.words[0], 0ull);
    store_relaxed(c.words[1], mark);
  }
  tile = static_cast<Index>(ticket);
  return mark;
}

// Thread 0: tile's map, then its carry-in: the composition of its predecessors' maps, nearest
// first, applied to 0, until the composed slope is at most the drop (0 at a path start).
__device__ double publish_and_look_back(const Chain &c, Index tile, Affine total, unsigned long long mark) {
  store_relaxed(c.agg_a[tile], total.a);
  store_relaxed(c.agg_b[tile], total.b);
  store_release(c.words[2 + tile], mark);
  Affine back{1.0, 0.0}; // from the start of tile j to the start of this tile
  for (Index j = tile - 1; j >= 0; --j) {
    while (load_acquire(c.words[2 + j]) != mark) __nanosleep(20);
    back = compose(Affine{load_relaxed(c.agg_a[j]), load_relaxed(c.agg_b[j])}, back);
    if (fabs(back.a) <= kSensitivityDrop) break;
  }
  return back.b;
}

// Same occupancy as tile_scan (three blocks an SM).
template <class Op>
__global__ void __launch_bounds__(kScanThreads, 3) chained_scan(Op op, Index n, Index ntiles, Chain chain) {
  __shared__ TileTemp temp;
  __shared__ Index tile_of_block;
  __shared__ unsigned long long mark_of_block;
  __shared__ double carry_of_block;
  pdl_prologue();
  if (threadIdx.x == 0) mark_of_block = take_tile(chain, ntiles, tile_of_block);
  __syncthreads();
  const Index tile = tile_of_block, base = tile * kTile;
  double a[kScanItems], b[kScanItems];
  Affine total;
  scan_tile(op, n, base, temp, a, b, total);
  if (threadIdx.x == 0) carry_of_block = publish_and_look_back(chain, tile, total, mark_of_block);
  __syncthreads();
  const double carry = carry_of_block;
#pragma unroll
  for (int j = 0; j < kScanItems; ++j)
    if (a[j] != 0 && carry != 0) b[j] = fma(a[j], carry, b[j]); // a restarted row keeps its own value
  Exchange(temp.exchange).BlockedToStriped(b, b);
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    const Index t = base + j * kScanThreads + threadIdx.x;
    if (t < n) op.store(t, b[j]);
  }
}

// One block a full tile that some later tile looks back over (all but the last), in each of the
// apply's four scans: sets *flag when the tile's log2 |slope| exceeds kTileDecayLog2 (or is NaN).
__global__ void __launch_bounds__(kScanThreads)
    slow_decay(Forward f, Backward bw, ForwardT ft, BackwardT bt, unsigned long long *flag) {
  using Reduce = cub::BlockReduce<double, kScanThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const Index base = static_cast<Index>(blockIdx.x) * kTile;
  double sum[4] = {0, 0, 0, 0};
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    const Index t = base + j * kScanThreads + threadIdx.x;
    sum[0] += log2(fabs(f.slope(t)));
    sum[1] += log2(fabs(bw.slope(t)));
    sum[2] += log2(fabs(ft.slope(t)));
    sum[3] += log2(fabs(bt.slope(t)));
  }
  bool slow = false;
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const double tile_log2 = Reduce(temp).Sum(sum[q]);
    __syncthreads();
    slow = slow || !(tile_log2 <= kTileDecayLog2);
  }
  if (threadIdx.x == 0 && slow) store_relaxed(*flag, 1ull);
}

// Each scan's kernels, and the gather after them, are launched as dependent launches
// (kernels/common/pdl.cuh): each may be scheduled while the one before it finishes.
template <class Op> void affine_scan(const Op &op, Index n, ScanWorkspace &ws, bool chained, cudaStream_t s) {
  const Index ntiles = (n + kTile - 1) / kTile;
  if (chained) {
    launch_dependent(chained_scan<Op>, dim3(static_cast<unsigned>(ntiles)), dim3(kScanThreads), s, op, n, ntiles,
                     Chain{ws.chain.data(), ws.agg_a.data(), ws.agg_b.data()});
    return;
  }
  if (ws.sens.size() < static_cast<std::size_t>(n)) ws.sens.allocate(static_cast<std::size_t>(n));
  launch_dependent(tile_scan<Op>, dim3(static_cast<unsigned>(ntiles)), dim3(kScanThreads), s, op, n, ws.agg_a.data(),
                   ws.agg_b.data(), ws.fixlen.data(), ws.sens.data());
  if (ntiles < 2) return;
  launch_dependent(tile_carries, dim3(1), dim3(kScanThreads), s, ntiles, ws.agg_a.data(), ws.agg_b.data(),
                   ws.carry.data());
  launch_dependent(fix_tiles<Op>, dim3(static_cast<unsigned>(ntiles - 1)), dim3(128), s, op, n, ws.fixlen.data(),
                   ws.carry.data(), ws.sens.data());
}

} // namespace

void flag_slow_decay(const DeviceTridiagonal &t, unsigned long long *flag, void *stream) {
  const Index n = t.n, ntiles = (n + kTile - 1) / kTile; // tiles 0 .. ntiles - 2 are full
  if (ntiles < 2) return;
  slow_decay<<<static_cast<unsigned>(ntiles - 1), kScanThreads, 0, as_stream(stream)>>>(
      Forward{t.mult.data(), nullptr, nullptr, nullptr, n}, Backward{t.cu.data(), t.dinv.data(), nullptr, n},
      ForwardT{t.cl.data(), t.dinv.data(), nullptr, nullptr, nullptr, n}, BackwardT{t.mult.data(), nullptr, n}, flag);
  PGK_CUDA_CHECK_LAUNCH();
}

void ScanWorkspace::reserve(Index n, void *stream) {
  const auto ntiles = static_cast<std::size_t>((n + kTile - 1) / kTile);
  agg_a.allocate(ntiles);
  agg_b.allocate(ntiles);
  carry.allocate(ntiles);
  fixlen.allocate(ntiles);
  chain.allocate(2 + ntiles);
  PGK_CUDA_CHECK(cudaMemsetAsync(chain.data(), 0, sizeof(unsigned long long) * (2 + ntiles), as_stream(stream)));
  y.allocate(static_cast<std::size_t>(n));
}

void solve_tridiagonal(const DeviceTridiagonal &t, const DevicePathOrder &order, ScanWorkspace &ws, const double *r,
                       double *z, bool transpose, bool chained, void *stream) {
  const Index n = t.n;
  if (n == 0) return;
  cudaStream_t s = as_stream(stream);
  if (ws.y.size() < static_cast<std::size_t>(n)) ws.reserve(n, stream);
  const Index *perm = order.perm.data();
  if (!transpose) {
    affine_scan(Forward{t.mult.data(), r, perm, ws.y.data(), n}, n, ws, chained, s);
    affine_scan(Backward{t.cu.data(), t.dinv.data(), ws.y.data(), n}, n, ws, chained, s);
  } else {
    affine_scan(ForwardT{t.cl.data(), t.dinv.data(), r, perm, ws.y.data(), n}, n, ws, chained, s);
    affine_scan(BackwardT{t.mult.data(), ws.y.data(), n}, n, ws, chained, s);
  }
  launch_dependent(from_path_order, dim3(grid_for(n, kGatherThreads, 4096)), dim3(kGatherThreads), s, n,
                   order.iperm.data(), ws.y.data(), z);
}

} // namespace pgk::cuda::trilf

// The apply of the scalar device PC trilf: z = Q T~^-1 Q^T r from the factor of tridiag.cu,
// without per-path loops. Both triangular solves are affine recurrences
// x_t = a_t x_{t-1} + b_t (x_{-1} = 0), i.e. a scan of the maps f_t(x) = a_t x + b_t under
// composition, which is associative. m_k = 0 at path starts and splits makes a_t = 0 there,
// so the recurrence restarts by itself. The scan is our own, not CUB's DeviceScan, because
// the decoupled look-back of DeviceScan associates floating-point partial results in an
// order that depends on timing (not reproducible run to run). Here:
//   1. tile kernel: each block scans its tile with zero carry-in (fixed association:
//      thread-sequential, then cub::BlockScan), writes the outputs, the tile's composed map,
//      and the sensitivity s_t = d x_t / d(carry) = product of a over [tile start, t] for the
//      leading rows where |s_t| > 2^-60 (kSensitivityDrop);
//   2. one block scans the tile maps in order: carry-in of every tile;
//   3. fix kernel: x_t += s_t * carry for those leading rows only.
// Every step has a fixed order, so results are bit-reproducible. When paths are short
// compared with a tile (2048 rows) step 3 touches a few rows per tile. The gather r[perm[k]] is
// fused into the forward scan's loads; the backward scan writes x over y in path order and one
// pass z_i = x[iperm[i]] puts it in A's numbering (a scatter z[perm[k]] in the scan's stores, each
// 8-byte store its own sector where paths cross the numbering, took 128 us against 51 + 40; ncu,
// H200, bench/NOTES.md). A chained scan (one kernel a scan, each tile composing its predecessors'
// maps before it stores) was measured against this one (bench/NOTES.md, fifty-second session;
// bench/diag/trilf_apply_chained.patch).
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>

#include "kernels/common/pdl.cuh"
#include "kernels/trilf/internal.hpp"
#include "kernels/trilf/launch.cuh"

namespace pgk::cuda::trilf {
namespace {

using namespace detail;

constexpr int kScanThreads = 256, kScanItems = 8, kTile = kScanThreads * kScanItems;
// A row's sensitivity to its tile's carry-in decays geometrically along a long path
// (|m| ~ 0.4 on ANISO2) and only reaches 0 by underflow, after ~700 rows, so fix_tiles would touch
// a third of every tile. Sensitivities at most 2^-60 are dropped instead: what they would add is
// below 2^-60 |carry|, under a hundredth of one rounding unit of the carry, and the cut-off is
// fixed, so results stay deterministic. fix_tiles covers every row up to the last kept one, and
// the tile kernel stores the sensitivities of exactly those rows (zeros are absorbing, so they are
// all nonzero): storing every nonzero one, as before, wrote up to the whole tile on the strongly
// coupled rows, where a sensitivity underflows only after thousands of rows.
constexpr double kSensitivityDrop = 0x1p-60;

struct Affine {
  double a, b; // x -> a x + b
};
// first, then second. A constant map (a == 0) absorbs whatever came before, exactly; this
// also keeps 0 * inf out of long products.
__device__ inline Affine compose(const Affine &f, const Affine &s) {
  if (s.a == 0) return s;
  return Affine{f.a == 0 ? 0.0 : s.a * f.a, s.a * f.b + s.b};
}
struct Compose {
  __device__ Affine operator()(const Affine &f, const Affine &s) const { return compose(f, s); }
};

// The four recurrences. t: position in scan order; k: row of T.
struct Forward { // L y = Q^T r
  const double *mult, *r;
  const Index *perm;
  double *y;
  Index n;
  __device__ Affine load(Index t) const { return Affine{-mult[t], r[perm[t]]}; }
  __device__ void store(Index t, double x) const { y[t] = x; }
  __device__ void fix(Index t, double d) const { y[t] += d; }
};
// The backward scans write x over y: a tile reads its own rows of y (all of them, before its
// first store) and writes only those rows, and fix_tiles touches only its tile's rows.
struct Backward { // U x = y, x over y (path order)
  const double *cu, *dinv;
  double *y;
  Index n;
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
  __device__ Affine load(Index t) const { return Affine{cl[t], dinv[t] * r[perm[t]]}; }
  __device__ void store(Index t, double x) const { y[t] = x; }
  __device__ void fix(Index t, double d) const { y[t] += d; }
};
struct BackwardT { // L^T x = w, x over w (path order)
  const double *mult;
  double *y;
  Index n;
  __device__ Affine load(Index t) const {
    const Index k = n - 1 - t;
    return Affine{k + 1 < n ? -mult[k + 1] : 0.0, y[k]};
  }
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
  __shared__ Index tile_len;
  const Index len = Count(temp.count).Reduce(last, ::cuda::maximum<Index>{}); // valid in thread 0
  if (threadIdx.x == 0) tile_len = len;
  __syncthreads();
  const Index kept = tile_len;
  Exchange(temp.exchange).BlockedToStriped(b, b);
  __syncthreads();
  Exchange(temp.exchange).BlockedToStriped(a, a);
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    const Index t = base + j * kScanThreads + threadIdx.x;
    if (t < n) {
      op.store(t, b[j]);
      if (t - base < kept) sens[t] = a[j]; // only the rows fix_tiles reads
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

// Each scan's kernels, and the gather after them, are launched as dependent launches
// (kernels/common/pdl.cuh): each may be scheduled while the one before it finishes.
template <class Op> void affine_scan(const Op &op, Index n, ScanWorkspace &ws, cudaStream_t s) {
  const Index ntiles = (n + kTile - 1) / kTile;
  launch_dependent(tile_scan<Op>, dim3(static_cast<unsigned>(ntiles)), dim3(kScanThreads), s, op, n, ws.agg_a.data(),
                   ws.agg_b.data(), ws.fixlen.data(), ws.sens.data());
  if (ntiles < 2) return;
  launch_dependent(tile_carries, dim3(1), dim3(kScanThreads), s, ntiles, ws.agg_a.data(), ws.agg_b.data(),
                   ws.carry.data());
  launch_dependent(fix_tiles<Op>, dim3(static_cast<unsigned>(ntiles - 1)), dim3(128), s, op, n, ws.fixlen.data(),
                   ws.carry.data(), ws.sens.data());
}

} // namespace

void ScanWorkspace::reserve(Index n) {
  const auto ntiles = static_cast<std::size_t>((n + kTile - 1) / kTile);
  agg_a.allocate(ntiles);
  agg_b.allocate(ntiles);
  carry.allocate(ntiles);
  fixlen.allocate(ntiles);
  sens.allocate(static_cast<std::size_t>(n));
  y.allocate(static_cast<std::size_t>(n));
}

void solve_tridiagonal(const DeviceTridiagonal &t, const DevicePathOrder &order, ScanWorkspace &ws, const double *r,
                       double *z, bool transpose, void *stream) {
  const Index n = t.n;
  if (n == 0) return;
  cudaStream_t s = as_stream(stream);
  if (ws.y.size() < static_cast<std::size_t>(n)) ws.reserve(n);
  const Index *perm = order.perm.data();
  if (!transpose) {
    affine_scan(Forward{t.mult.data(), r, perm, ws.y.data(), n}, n, ws, s);
    affine_scan(Backward{t.cu.data(), t.dinv.data(), ws.y.data(), n}, n, ws, s);
  } else {
    affine_scan(ForwardT{t.cl.data(), t.dinv.data(), r, perm, ws.y.data(), n}, n, ws, s);
    affine_scan(BackwardT{t.mult.data(), ws.y.data(), n}, n, ws, s);
  }
  launch_dependent(from_path_order, dim3(grid_for(n, kThreads, 4096)), dim3(kThreads), s, n, order.iperm.data(),
                   ws.y.data(), z);
}

} // namespace pgk::cuda::trilf

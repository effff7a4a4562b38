// Device speculative scan LU of PC trilf (src/trilf/scan_lu.hpp says what and why): passes 1-3
// compute the pivot of every row as a ratio of a segmented prefix product of 2x2 Moebius maps
// (double-double), pass 4 checks the pivot rules on the rows of long paths and marks, per
// path, the first row the sequential loop of tridiag.cu has to redo.
//
// Determinism: every composition has a fixed place (tile, thread, warp, lane: the shape of
// scan_lu.hpp, which pgk::trilf::factor_scan emulates on the host), the operations are
// separately rounded (scan_lu.hpp's mul/add/fma_rn) and the only atomic is an integer minimum,
// so the bits do not depend on timing. Cost: each pass reads T's three arrays once (pass 3
// also writes the pivots, pass 4 the multipliers and u~), the compositions are about 200 FP64
// operations per row, and pass 2 is one block over N / 2048 tile totals.
#include "kernels/common/atomics.cuh"
#include "kernels/trilf/internal.hpp"
#include "kernels/trilf/launch.cuh"
#include "src/trilf/scan_lu.hpp"

namespace pgk::cuda::trilf {
namespace {

using namespace pgk::trilf::scan_lu;
using detail::kMaxBlocks;
using detail::kThreads;

__device__ __forceinline__ DD shfl_up(const DD &x, int off) {
  return DD{__shfl_up_sync(0xffffffffu, x.hi, off), __shfl_up_sync(0xffffffffu, x.lo, off)};
}
__device__ __forceinline__ Mobius shfl_up(const Mobius &x, int off) {
  return Mobius{shfl_up(x.a, off), shfl_up(x.b, off), shfl_up(x.c, off), shfl_up(x.d, off),
                __shfl_up_sync(0xffffffffu, x.head, off)};
}

struct Rows {
  const double *lower, *diag, *upper;
  const Index *path_head;
  Index n;
  // Row k's map; the identity past N (the padding of the last tile).
  __device__ Mobius load(Index k) const {
    if (k >= n) return identity();
    const bool first = path_head[k] == k;
    return row_map(diag[k], lower[k], first ? 0.0 : upper[k - 1], first);
  }
  // This thread's rows of the tile, composed left to right.
  __device__ Mobius aggregate(Index k0) const {
    Mobius x = load(k0);
    for (int j = 1; j < kScanItems; ++j) x = compose(x, load(k0 + j));
    return x;
  }
};

__device__ __forceinline__ Index first_row_of_thread() {
  return static_cast<Index>(blockIdx.x) * kScanTile + static_cast<Index>(threadIdx.x) * kScanItems;
}

// Kogge-Stone inclusive scan over the warp's lanes.
__device__ Mobius warp_scan(Mobius x) {
  const int lane = static_cast<int>(threadIdx.x % kWarp);
  for (int off = 1; off < kWarp; off <<= 1) {
    const Mobius y = shfl_up(x, off);
    if (lane >= off) x = compose(y, x);
  }
  return x;
}

// block_scan of scan_lu.hpp: this thread's exclusive prefix with carry-in `carry`; with
// `total`, also the block's total, carry included (the same left-to-right composition of the
// warp totals in every thread). wtot: kWarps entries of shared memory.
__device__ Mobius block_scan(const Mobius &x, const Mobius &carry, Mobius *wtot, Mobius *total) {
  const int lane = static_cast<int>(threadIdx.x % kWarp), warp = static_cast<int>(threadIdx.x / kWarp);
  const Mobius inc = warp_scan(x);
  if (lane == kWarp - 1) wtot[warp] = inc;
  __syncthreads();
  Mobius w = carry;
  for (int i = 0; i < warp; ++i) w = compose(w, wtot[i]);
  const Mobius before = shfl_up(inc, 1);
  const Mobius excl = lane == 0 ? w : compose(w, before);
  if (total) {
    for (int i = warp; i < kWarps; ++i) w = compose(w, wtot[i]);
    *total = w;
  }
  __syncthreads(); // wtot is reused by the caller's next block_scan
  return excl;
}

// Pass 1: the composed map of every tile (its warp totals left to right).
__global__ void __launch_bounds__(kScanThreads) tile_totals(Rows r, Mobius *total) {
  __shared__ Mobius wtot[kWarps];
  const Mobius inc = warp_scan(r.aggregate(first_row_of_thread()));
  if (threadIdx.x % kWarp == kWarp - 1) wtot[threadIdx.x / kWarp] = inc;
  __syncthreads();
  if (threadIdx.x != 0) return;
  Mobius t = wtot[0];
  for (int i = 1; i < kWarps; ++i) t = compose(t, wtot[i]);
  total[blockIdx.x] = t;
}

// Pass 2, one block: carry[i] = tiles 0..i-1 composed (the identity for tile 0).
__global__ void __launch_bounds__(kScanThreads) tile_carries(Index ntiles, const Mobius *total, Mobius *carry) {
  __shared__ Mobius wtot[kWarps];
  Mobius running = identity();
  for (Index c = 0; c < ntiles; c += kScanThreads) {
    const Index i = c + static_cast<Index>(threadIdx.x);
    const Mobius x = i < ntiles ? total[i] : identity();
    Mobius next;
    const Mobius excl = block_scan(x, running, wtot, &next);
    if (i < ntiles) carry[i] = excl;
    running = next;
  }
}

// Pass 3: every row's pivot from its inclusive prefix.
__global__ void __launch_bounds__(kScanThreads) tile_pivots(Rows r, const Mobius *carry, double *pivot) {
  __shared__ Mobius wtot[kWarps];
  const Index k0 = first_row_of_thread();
  Mobius run = block_scan(r.aggregate(k0), carry[blockIdx.x], wtot, nullptr);
  for (int j = 0; j < kScanItems; ++j) {
    const Index k = k0 + j;
    run = compose(run, r.load(k));
    if (k < r.n) pivot[k] = pivot_of(run);
  }
}

// path_end[h] = one past the last row of the path with head h; first_bad[h] starts there.
__global__ void path_ends(Index n, const Index *path_head, Index *path_end, Index *first_bad) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x) {
    if (k + 1 < n && path_head[k + 1] != k + 1) continue;
    path_end[path_head[k]] = k + 1;
    first_bad[path_head[k]] = k + 1;
  }
}

// Pass 4 on the rows of paths of at least min_path rows: the multiplier and u~ of every row, and
// the first row per path whose scan pivot fails a check (integer minimum: order-independent).
__global__ void check_rows(Index n, const Index *path_head, const Index *path_end, const double *lower,
                           const double *diag, const double *upper, const double *pivot, double tau, Index min_path,
                           double *mult, double *ueff, Index *first_bad) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x) {
    const Index h = path_head[k];
    if (path_end[h] - h < min_path) continue;
    double m = 0;
    const bool ok = scan_row_ok(lower[k], diag[k], upper[k], k == h, k > h ? pivot[k - 1] : 0.0, pivot[k], tau, m);
    mult[k] = m;
    ueff[k] = upper[k];
    if (!ok) atomic_min_t(first_bad + h, k);
  }
}

} // namespace

void scan_factor_long_paths(DeviceTridiagonal &t, const DevicePathOrder &order, Index min_path, double tau,
                            double *ueff, Index *path_end, Index *first_bad, void *stream) {
  cudaStream_t s = as_stream(stream);
  const Index n = t.n;
  if (n == 0) return;
  const Rows rows{t.lower.data(), t.diag.data(), t.upper.data(), order.path_head.data(), n};
  const Index ntiles = (n + kScanTile - 1) / kScanTile;
  DeviceBuffer<Mobius> total(static_cast<std::size_t>(ntiles), s), carry(static_cast<std::size_t>(ntiles), s);
  tile_totals<<<static_cast<unsigned>(ntiles), kScanThreads, 0, s>>>(rows, total.data());
  PGK_CUDA_CHECK_LAUNCH();
  tile_carries<<<1, kScanThreads, 0, s>>>(ntiles, total.data(), carry.data());
  PGK_CUDA_CHECK_LAUNCH();
  tile_pivots<<<static_cast<unsigned>(ntiles), kScanThreads, 0, s>>>(rows, carry.data(), t.pivot.data());
  PGK_CUDA_CHECK_LAUNCH();
  const int grid = grid_for(n, kThreads, kMaxBlocks);
  path_ends<<<grid, kThreads, 0, s>>>(n, order.path_head.data(), path_end, first_bad);
  PGK_CUDA_CHECK_LAUNCH();
  check_rows<<<grid, kThreads, 0, s>>>(n, order.path_head.data(), path_end, t.lower.data(), t.diag.data(),
                                       t.upper.data(), t.pivot.data(), tau, min_path, t.mult.data(), ueff, first_bad);
  PGK_CUDA_CHECK_LAUNCH();
}

} // namespace pgk::cuda::trilf

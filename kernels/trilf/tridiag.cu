// Scalar tridiagonal part of device PC trilf: assembly of T from A on the path order,
// factorization with the reference's pivot rules (src/trilf/tridiag.hpp; long paths by the
// speculative scan of scan_lu.cu first, src/trilf/scan_lu.hpp), and the apply.
//
// Apply without per-path loops: both triangular solves are affine recurrences
// x_t = a_t x_{t-1} + b_t (x_{-1} = 0), i.e. a scan of the maps f_t(x) = a_t x + b_t under
// composition, which is associative. m_k = 0 at path starts and splits makes a_t = 0 there,
// so the recurrence restarts by itself. The scan is our own, not CUB's DeviceScan, because
// the decoupled look-back of DeviceScan associates floating-point partial results in an
// order that depends on timing (not reproducible run to run). Here:
//   1. tile kernel: each block scans its tile with zero carry-in (fixed association:
//      thread-sequential, then cub::BlockScan), writes the outputs, the tile's composed map,
//      and the sensitivity s_t = d x_t / d(carry) = product of a over [tile start, t] for the
//      leading rows where it is not 0 (it is 0 from the first restart on);
//   2. one block scans the tile maps in order: carry-in of every tile;
//   3. fix kernel: x_t += s_t * carry for those leading rows only.
// Every step has a fixed order, so results are bit-reproducible. When paths are short
// compared with a tile (2048 rows) step 3 touches a few rows per tile. The gather r[perm[k]] is
// fused into the forward scan's loads; the backward scan writes x over y in path order and one
// pass z_i = x[iperm[i]] puts it in A's numbering (a scatter z[perm[k]] in the scan's stores, each
// 8-byte store its own sector where paths cross the numbering, took 128 us against 51 + 40; ncu,
// H200, bench/NOTES.md).
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include <stdexcept>
#include <string>

#include "kernels/common/pdl.cuh"
#include "kernels/trilf/launch.cuh"
#include "kernels/trilf/internal.hpp"
#include "src/trilf/scan_lu.hpp"

namespace pgk::cuda::trilf {
namespace {

using namespace detail;

// ---- assembly ---------------------------------------------------------------------------------

constexpr int kAsmThreads = 256;

// One thread per permuted row k (row i = perm[k] of A): T's three entries, exactly as the
// host (0.0 + v, one pass over the row); with cov, per-block sums of |a_ij| (i != j): all,
// on the sub/superdiagonal of A, and on forest edges. With pos, the positions in A's value
// array of the three entries (pos[3k + 0/1/2] = lower/diag/upper, -1 for none): rows are
// sorted and unique (checked before), so each entry of T is at most one entry of A.
__global__ void assemble_kernel(CsrView a, const Index *perm, const Index *path_head, double *lower, double *diag,
                                double *upper, double *partials, Index *pos) {
  double tot = 0, idn = 0, kept = 0;
  const Index n = a.nrows;
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x) {
    const Index i = perm[k];
    const Index h = path_head[k];
    const Index prev = h < k ? perm[k - 1] : -1;
    const Index next = (k + 1 < n && path_head[k + 1] == h) ? perm[k + 1] : -1;
    double dl = 0.0, dd = 0.0, du = 0.0;
    Index pl = -1, pd = -1, pu = -1;
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      const Index j = a.colidx[e];
      const double v = a.values ? a.values[e] : 1.0;
      if (j == i) {
        dd += v;
        pd = e;
        continue;
      }
      if (j == prev) {
        dl += v;
        pl = e;
      } else if (j == next) {
        du += v;
        pu = e;
      }
      if (partials) {
        const double m = fabs(v);
        tot += m;
        if (j == i - 1 || j == i + 1) idn += m;
        if (j == prev || j == next) kept += m;
      }
    }
    lower[k] = dl;
    diag[k] = dd;
    upper[k] = du;
    if (pos) {
      pos[3 * k] = pl;
      pos[3 * k + 1] = pd;
      pos[3 * k + 2] = pu;
    }
  }
  if (!partials) return;
  using Reduce = cub::BlockReduce<double, kAsmThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const double t0 = Reduce(temp).Sum(tot);
  __syncthreads();
  const double t1 = Reduce(temp).Sum(idn);
  __syncthreads();
  const double t2 = Reduce(temp).Sum(kept);
  if (threadIdx.x == 0) {
    partials[3 * blockIdx.x] = t0;
    partials[3 * blockIdx.x + 1] = t1;
    partials[3 * blockIdx.x + 2] = t2;
  }
}

// The values-only re-assembly: T's entries gathered through the positions assemble_kernel
// recorded, 0.0 + v as the host's one-pass sum of a single entry (so -0.0 becomes +0.0 there too).
__global__ void gather_kernel(Index n, const double *values, const Index *pos, double *lower, double *diag,
                              double *upper) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x) {
    const Index pl = pos[3 * k], pd = pos[3 * k + 1], pu = pos[3 * k + 2];
    lower[k] = pl < 0 ? 0.0 : __dadd_rn(0.0, values ? values[pl] : 1.0);
    diag[k] = pd < 0 ? 0.0 : __dadd_rn(0.0, values ? values[pd] : 1.0);
    upper[k] = pu < 0 ? 0.0 : __dadd_rn(0.0, values ? values[pu] : 1.0);
  }
}

// Sums the per-block partials in a fixed order (one block): deterministic.
__global__ void sum_partials(const double *partials, int nblocks, double *out) {
  using Reduce = cub::BlockReduce<double, kAsmThreads>;
  __shared__ typename Reduce::TempStorage temp;
  for (int c = 0; c < 3; ++c) {
    double s = 0;
    for (int b = threadIdx.x; b < nblocks; b += blockDim.x) s += partials[3 * b + c];
    const double t = Reduce(temp).Sum(s);
    __syncthreads();
    if (threadIdx.x == 0) out[c] = t;
  }
}

// ---- factorization ----------------------------------------------------------------------------

// One thread per path (started at k == path_head[k]), the host's loop verbatim
// (pgk::trilf::scan_lu::pivot_step, separately rounded operations: no FMA contraction), so
// pivots, splits and replacements are the host's bit for bit. err: atomicMin of
// (k << 1 | what) over the first failure of each path = the host's first failure.
// With path_end (paths of at least min_path rows were factored by the scan, scan_lu.cu): such a
// path starts at first_bad[h], the first row the scan's pivots fail a rule at, with the scan's
// pivot of the row before it, and ends at once when no row failed.
// The loop is latency-bound on long paths, and an FP64 division is a long dependent
// instruction sequence: the loop keeps only the one division of the recurrence
// (m_k = l_k / d'_{k-1}) and leaves 1/d'_k and the apply coefficients to coefficients_kernel
// (parallel over rows); it stores the effective superdiagonal u~_k in ueff. Rows are loaded
// kFactorChunk at a time (their loads do not depend on the recurrence).
constexpr int kFactorChunk = 8;

struct LongPaths { // null path_end: every path runs from its head
  const Index *path_end, *first_bad;
  Index min_path;
};

__global__ void factor_kernel(Index n, const Index *path_head, const double *lower, const double *diag,
                              const double *upper, double tau, LongPaths lp, double *mult, double *pivot, double *ueff,
                              unsigned long long *counts, unsigned long long *err) {
  for (Index h = blockIdx.x * Index(blockDim.x) + threadIdx.x; h < n; h += Index(gridDim.x) * blockDim.x) {
    if (path_head[h] != h) continue;
    Index start = h;
    if (lp.path_end && lp.path_end[h] - h >= lp.min_path) start = lp.first_bad[h];
    unsigned long long splits = 0, replaced = 0;
    double dprev = start > h && start < n ? pivot[start - 1] : 0.0, uprev = start > h ? upper[start - 1] : 0.0;
    bool stop = start >= n || path_head[start] != h;
    for (Index k0 = start; !stop; k0 += kFactorChunk) {
      double lo[kFactorChunk], di[kFactorChunk], up[kFactorChunk];
      bool in[kFactorChunk];
#pragma unroll
      for (int c = 0; c < kFactorChunk; ++c) {
        const Index k = k0 + c;
        in[c] = k < n && path_head[k] == h; // paths are contiguous: true, then false
        lo[c] = in[c] ? lower[k] : 0.0;
        di[c] = in[c] ? diag[k] : 0.0;
        up[c] = in[c] ? upper[k] : 0.0;
      }
#pragma unroll
      for (int c = 0; c < kFactorChunk; ++c) {
        if (!in[c]) stop = true;
        if (stop) continue;
        const Index k = k0 + c;
        const pgk::trilf::scan_lu::Step st =
            pgk::trilf::scan_lu::pivot_step(lo[c], di[c], up[c], k == h, dprev, uprev, tau);
        if (st.error) {
          atomicMin(err, (static_cast<unsigned long long>(k) << 1) | (st.error == 2 ? 1ull : 0ull));
          stop = true;
          continue;
        }
        splits += st.split;
        replaced += st.replaced;
        mult[k] = st.m;
        pivot[k] = st.d;
        if (st.split) ueff[k - 1] = 0; // T~ lost the coupling (k-1, k)
        ueff[k] = up[c];               // 0 at a path end (assembly)
        dprev = st.d;
        uprev = up[c];
      }
    }
    if (splits) atomicAdd(&counts[0], splits);
    if (replaced) atomicAdd(&counts[1], replaced);
  }
}

// Apply coefficients from the pivots and U's superdiagonal u~ (0 at path ends, so the row
// before a path start contributes nothing): dinv = 1/d', cu = -u~_k / d'_k,
// cl = -u~_{k-1} / d'_k.
__global__ void coefficients_kernel(Index n, const double *pivot, const double *ueff, double *dinv, double *cu,
                                    double *cl) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x) {
    const double d = pivot[k], inv = 1.0 / d;
    dinv[k] = inv;
    cu[k] = -ueff[k] / d;
    cl[k] = k > 0 ? -ueff[k - 1] * inv : 0.0;
  }
}

// ---- apply: deterministic affine scan -------------------------------------------------------

constexpr int kScanThreads = 256, kScanItems = 8, kTile = kScanThreads * kScanItems;
// A row's sensitivity to its tile's carry-in is the product of the multipliers since the tile
// start: it decays geometrically along a long path (|m| ~ 0.4 on ANISO2) and only reaches 0 by
// underflow, after ~700 rows, so fix_tiles would touch a third of every tile. Sensitivities
// at most 2^-60 are dropped instead: what they would add is below 2^-60 |carry|, under a
// hundredth of one rounding unit of the carry, and the cut-off is fixed, so results stay
// deterministic. fix_tiles still covers every row up to the last kept one (zeros are
// absorbing, so those rows all have a stored sensitivity).
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
struct MaxIndex {
  __device__ Index operator()(Index x, Index y) const { return x > y ? x : y; }
};
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

// Three blocks an SM (at most 80 registers, from 100 at two): the scans wait on latency, not
// bandwidth, so more tiles in flight pay: apply 1.19-1.21 / 0.88-0.91 / 0.82 MatMults on issue 15's
// y / x / convection rows against 1.23-1.25 / 0.96-0.98 / 0.90-0.92 at two; four blocks (64
// registers) spill and lose (bench/results/trilf_scan_occupancy_c28c9f1_h200.txt).
template <class Op>
__global__ void __launch_bounds__(kScanThreads, 3)
    tile_scan(Op op, Index n, double *agg_a, double *agg_b, Index *fixlen, double *sens) {
  pdl_prologue();
  using Exchange = cub::BlockExchange<double, kScanThreads, kScanItems>;
  using Scan = cub::BlockScan<Affine, kScanThreads>;
  using Count = cub::BlockReduce<Index, kScanThreads>;
  __shared__ union {
    typename Exchange::TempStorage exchange;
    typename Scan::TempStorage scan;
    typename Count::TempStorage count;
  } temp;
  const Index base = static_cast<Index>(blockIdx.x) * kTile;
  // Coalesced (striped) loads, then blocked: thread tid owns rows base + tid*ITEMS + j.
  double a[kScanItems], b[kScanItems];
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
  Affine excl, total;
  Scan(temp.scan).ExclusiveScan(agg, excl, Affine{1.0, 0.0}, Compose(), total);
  __syncthreads();
  Index last = 0; // rows of the tile, from its start, whose carry-in sensitivity is kept
  Affine run = excl;
#pragma unroll
  for (int j = 0; j < kScanItems; ++j) {
    run = compose(run, Affine{a[j], b[j]});
    a[j] = run.a; // sensitivity to the carry-in
    b[j] = run.b; // value for carry-in 0
    if (fabs(run.a) > kSensitivityDrop) last = static_cast<Index>(threadIdx.x) * kScanItems + j + 1;
  }
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
      if (a[j] != 0) sens[t] = a[j]; // only the leading rows of the tile (see fix_tiles)
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

void assemble_tridiagonal(const CsrView &a, const DevicePathOrder &order, DeviceTridiagonal &t, CoverageSums *cov,
                          void *stream, DeviceBuffer<Index> *positions) {
  cudaStream_t s = as_stream(stream);
  const Index n = a.nrows;
  const auto un = static_cast<std::size_t>(n);
  t.n = n;
  t.lower.allocate(un);
  t.diag.allocate(un);
  t.upper.allocate(un);
  if (positions) positions->allocate(3 * un);
  if (n == 0) {
    if (cov) *cov = CoverageSums();
    return;
  }
  const int grid = grid_for(n, kAsmThreads, 4096);
  DeviceBuffer<double> partials(cov ? 3 * static_cast<std::size_t>(grid) : 1, s), sums(3, s);
  assemble_kernel<<<grid, kAsmThreads, 0, s>>>(a, order.perm.data(), order.path_head.data(), t.lower.data(),
                                               t.diag.data(), t.upper.data(), cov ? partials.data() : nullptr,
                                               positions ? positions->data() : nullptr);
  PGK_CUDA_CHECK_LAUNCH();
  if (cov) {
    sum_partials<<<1, kAsmThreads, 0, s>>>(partials.data(), grid, sums.data());
    PGK_CUDA_CHECK_LAUNCH();
    double h[3];
    copy_to_host(h, sums.data(), sizeof h, s);
    cov->total = h[0];
    cov->identity = h[1];
    cov->kept = h[2];
  }
}

void gather_tridiagonal(const double *values, const DeviceBuffer<Index> &positions, Index n, DeviceTridiagonal &t,
                        void *stream) {
  const auto un = static_cast<std::size_t>(n);
  if (positions.size() < 3 * un) throw std::logic_error("trilf gather_tridiagonal: positions of another size");
  t.n = n;
  t.lower.allocate(un);
  t.diag.allocate(un);
  t.upper.allocate(un);
  if (n == 0) return;
  gather_kernel<<<grid_for(n, kAsmThreads, kMaxBlocks), kAsmThreads, 0, as_stream(stream)>>>(
      n, values, positions.data(), t.lower.data(), t.diag.data(), t.upper.data());
  PGK_CUDA_CHECK_LAUNCH();
}

void factor_tridiagonal(DeviceTridiagonal &t, const DevicePathOrder &order, double rel_tol, void *stream,
                        Index scan_min_path) {
  if (!(rel_tol >= 0 && rel_tol < 1)) throw std::invalid_argument("trilf factor: rel_tol must lie in [0, 1)");
  cudaStream_t s = as_stream(stream);
  const Index n = t.n;
  const auto un = static_cast<std::size_t>(n);
  for (DeviceBuffer<double> *b : {&t.mult, &t.pivot, &t.dinv, &t.cu, &t.cl}) b->allocate(un);
  t.splits = t.replaced = 0;
  if (n == 0) return;
  DeviceBuffer<unsigned long long> counts(3, s); // splits, replaced, first error
  PGK_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, 2 * sizeof(unsigned long long), s));
  PGK_CUDA_CHECK(cudaMemsetAsync(counts.data() + 2, 0xff, sizeof(unsigned long long), s));
  DeviceBuffer<double> ueff(un, s);
  // Long paths by the scan first (scan_lu.cu), then the loop: short paths and what the scan's
  // checks left over. Without a long path the loop alone, as before the scan.
  LongPaths lp{nullptr, nullptr, scan_min_path};
  DeviceBuffer<Index> path_end, first_bad;
  if (order.longest >= scan_min_path) {
    path_end.allocate_async(un, s);
    first_bad.allocate_async(un, s);
    scan_factor_long_paths(t, order, scan_min_path, rel_tol, ueff.data(), path_end.data(), first_bad.data(), s);
    lp.path_end = path_end.data();
    lp.first_bad = first_bad.data();
  }
  const int grid = grid_for(n, kThreads, kMaxBlocks);
  factor_kernel<<<grid, kThreads, 0, s>>>(n, order.path_head.data(), t.lower.data(), t.diag.data(), t.upper.data(),
                                          rel_tol, lp, t.mult.data(), t.pivot.data(), ueff.data(), counts.data(),
                                          counts.data() + 2);
  PGK_CUDA_CHECK_LAUNCH();
  coefficients_kernel<<<grid, kThreads, 0, s>>>(n, t.pivot.data(), ueff.data(), t.dinv.data(), t.cu.data(),
                                                t.cl.data());
  PGK_CUDA_CHECK_LAUNCH();
  unsigned long long h[3];
  copy_to_host(h, counts.data(), sizeof h, s);
  if (h[2] != ~0ull) {
    const Index k = static_cast<Index>(h[2] >> 1);
    const Index orig = order.perm.get(static_cast<std::size_t>(k), s);
    throw std::domain_error(std::string("trilf factor: ") + ((h[2] & 1) ? "pivot overflows" : "multiplier overflows") +
                            " at permuted row " + std::to_string(k) + " (original row " + std::to_string(orig) + ")");
  }
  t.splits = static_cast<Index>(h[0]);
  t.replaced = static_cast<Index>(h[1]);
}

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
  launch_dependent(from_path_order, dim3(grid_for(n, kAsmThreads, 4096)), dim3(kAsmThreads), s, n, order.iperm.data(),
                   ws.y.data(), z);
}

} // namespace pgk::cuda::trilf

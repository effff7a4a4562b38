// Scalar tridiagonal part of device PC trilf: assembly of T from A on the path order and the
// factorization with the reference's pivot rules (src/trilf/tridiag.hpp; long paths by the
// speculative scan of scan_lu.cu first, src/trilf/scan_lu.hpp), with the apply coefficients.
// The apply's scans are in apply_scan.cu.
#include <cub/block/block_reduce.cuh>

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

} // namespace pgk::cuda::trilf

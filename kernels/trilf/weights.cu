// Device weight graph W of PC trilf (primitives.hpp, build_weight_graph): the same
// doubles as pgk::trilf::weight_graph, stored on A's pattern (or pattern(A + A^T)) with 0 on
// the diagonal and on entries that are no edge. Bit-identical because every weight is one
// IEEE addition x_ij + x_ji (commutative), and for Weight::Scaled one product of two
// correctly rounded square roots and one correctly rounded division, the same operations in
// the same order as the host; nothing here may be contracted into an FMA (there is no
// multiply feeding an add).
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/common/atomics.cuh"
#include "kernels/common/csr_search.cuh"
#include "kernels/common/device_csr.hpp"
#include "kernels/common/kernels.hpp"
#include "kernels/trilf/launch.cuh"
#include "kernels/trilf/internal.hpp"
#include "kernels/trilf/primitives.hpp"

namespace pgk::cuda::trilf {
namespace {

using namespace detail;

// First (row-major) entry whose value is NaN or Inf: atomicMin over entry positions.
__global__ void first_nonfinite(CsrView a, unsigned long long *first) {
  for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < a.nrows; i += Index(gridDim.x) * blockDim.x)
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
      if (!isfinite(a.values[e])) {
        atomicMin(first, static_cast<unsigned long long>(e));
        break; // later entries of the row come after e
      }
}

// Row of entry e (the last row whose start is <= e), its column and value, for the
// message. One thread.
__global__ void locate_entry(CsrView a, const unsigned long long *first, double *out) {
  const Index e = static_cast<Index>(*first);
  Index lo = 0, hi = a.nrows; // largest i with rowptr[i] <= e
  while (hi - lo > 1) {
    const Index mid = lo + (hi - lo) / 2;
    if (a.rowptr[mid] <= e) lo = mid;
    else hi = mid;
  }
  out[0] = static_cast<double>(lo);
  out[1] = static_cast<double>(a.colidx[e]);
  out[2] = a.values[e];
}

// The values-only update's check: counts[0] = 1 when A's entry count is not `nnz`, else
// counts[1] = the NaN/Inf values (a flat pass over the values, coalesced).
__global__ void count_nonfinite_values(const Index *rowptr, Index n, const double *values, Index nnz,
                                       unsigned long long *counts) {
  if (rowptr[0] != 0 || rowptr[n] != nnz) {
    if (blockIdx.x == 0 && threadIdx.x == 0) counts[0] = 1;
    return;
  }
  unsigned long long bad = 0;
  for (Index e = blockIdx.x * Index(blockDim.x) + threadIdx.x; e < nnz; e += Index(gridDim.x) * blockDim.x)
    bad += !isfinite(values[e]);
  if (bad) atomicAdd(counts + 1, bad);
}

__device__ inline double abs_entry(const CsrView &a, Index row, Index col) {
  const Index e = find_in_row(a.rowptr, a.colidx, row, col);
  return e < 0 ? 0.0 : (a.values ? fabs(a.values[e]) : 1.0);
}

// Counters of the fused pass (check_csr's counts, plus the missing transposes and the
// overflow flag); all integer sums, so the order of the atomics does not matter.
struct PassCounters {
  unsigned long long bad_rowptr, bad_colidx, unsorted_rows, nonfinite, missing, overflow;
};

// Adds a thread's tallies to the pass counters (warp_counter_add: one atomic per nonzero counter
// and warp).
__device__ __forceinline__ void add_counts(PassCounters *cnt, unsigned long long bad_rowptr, unsigned long long bad_col,
                                           unsigned long long unsorted, unsigned long long nonfinite,
                                           unsigned long long missing, unsigned long long overflow) {
  warp_counter_add(&cnt->bad_rowptr, bad_rowptr);
  warp_counter_add(&cnt->bad_colidx, bad_col);
  warp_counter_add(&cnt->unsorted_rows, unsorted);
  warp_counter_add(&cnt->nonfinite, nonfinite);
  warp_counter_add(&cnt->missing, missing);
  warp_counter_add(&cnt->overflow, overflow);
}

// One pass over A, a sub-warp of S lanes per row (coalesced reads of the row):
//   Validate: check_csr's tallies (bad row pointers, bad columns, unsorted rows, non-finite
//             values), with every read of another row guarded, so a malformed A is only
//             counted, never read out of bounds;
//   Scales:   r[i] = sqrt(s_i) of Weight::Scaled (sqrt_scales);
//   Weights:  w on A's own pattern (x_ij + x_ji, x_ji by binary search in row j), counting
//             the entries whose transpose is missing (A not structurally symmetric: the
//             caller then discards w and uses pattern(A + A^T)).
// The weight of an entry is computed by the same operations as the `weights` kernel.
template <int S, bool Validate, bool Scales, bool Weights>
__global__ void fused_pass(CsrView a, const double *r_in, double *r_out, double *w, PassCounters *cnt) {
  const int lane = threadIdx.x % S;
  const unsigned group_mask = subwarp_mask<S>();
  const Index groups = Index(gridDim.x) * (blockDim.x / S);
  const Index n = a.nrows;
  const Index nnz = a.rowptr[n];
  unsigned long long bad_rowptr = 0, bad_col = 0, unsorted = 0, nonfinite = 0, missing = 0, overflow = 0;
  for (Index i = Index(blockIdx.x) * (blockDim.x / S) + threadIdx.x / S; i < n; i += groups) {
    const Index b = a.rowptr[i], e = a.rowptr[i + 1];
    if (e < b || b < 0 || e > nnz) {
      if (Validate && lane == 0) ++bad_rowptr;
      if constexpr (Scales)
        if (lane == 0) r_out[i] = 1.0;
      continue;
    }
    bool uns = false;
    double diag = 0, offmax = 0;
    const double ri = Weights && r_in ? r_in[i] : 1.0;
    for (Index k = b + lane; k < e; k += S) {
      const Index j = a.colidx[k];
      const bool jok = j >= 0 && j < a.ncols;
      const double x = a.values ? a.values[k] : 1.0;
      if constexpr (Validate) {
        bad_col += !jok;
        uns |= k > b && j <= a.colidx[k - 1];
        if (a.values) nonfinite += !isfinite(x);
      }
      if constexpr (Scales) {
        const double ax = fabs(x);
        if (j == i) diag = ax;
        else offmax = fmax(offmax, ax);
      }
      if constexpr (Weights) {
        double v = 0;
        if (j != i && jok && j < n) {
          const double xij = fabs(x);
          double xji = 0;
          const Index lo = a.rowptr[j], hi = a.rowptr[j + 1];
          if (lo >= 0 && hi <= nnz && lo <= hi) {
            // First probe at the mirrored position of k (where a_ji sits when rows i and j
            // have the same offsets, as in a stencil's interior).
            const bool found = find_in_range_from(a.colidx, lo, hi, i, hi - 1 - (k - b),
                                                  [&](Index g) { xji = a.values ? fabs(a.values[g]) : 1.0; });
            missing += !found;
          }
          v = xij + xji;
          if (r_in) v = __ddiv_rn(v, __dmul_rn(ri, r_in[j]));
          if (!(v > 0)) v = 0;
          else if (isinf(v)) overflow = 1;
        }
        w[k] = v;
      }
    }
    if constexpr (Validate) {
      if (__any_sync(group_mask, uns) && lane == 0) ++unsorted;
    }
    if constexpr (Scales) {
      // diag: at most one lane holds the (unique) diagonal; offmax: fmax is exact
#pragma unroll
      for (int off = S / 2; off > 0; off /= 2) {
        diag = fmax(diag, __shfl_xor_sync(group_mask, diag, off, S));
        offmax = fmax(offmax, __shfl_xor_sync(group_mask, offmax, off, S));
      }
      if (lane == 0) {
        const double sc = diag != 0 ? diag : (offmax != 0 ? offmax : 1.0);
        r_out[i] = sqrt(sc);
      }
    }
  }
  add_counts(cnt, bad_rowptr, bad_col, unsorted, nonfinite, missing, overflow);
  if (Validate && blockIdx.x == 0 && threadIdx.x == 0 && n > 0 && a.rowptr[0] != 0) atomicAdd(&cnt->bad_rowptr, 1ull);
}

// w on pattern p = pattern(A + A^T) (A not structurally symmetric): a sub-warp per row,
// both values by binary search in A. Same operations as fused_pass.
template <int S> __global__ void weights_general(CsrView a, CsrView p, const double *r, double *w, int *overflow) {
  const int lane = threadIdx.x % S;
  const Index groups = Index(gridDim.x) * (blockDim.x / S);
  bool ovf = false;
  for (Index i = Index(blockIdx.x) * (blockDim.x / S) + threadIdx.x / S; i < p.nrows; i += groups)
    for (Index e = p.rowptr[i] + lane; e < p.rowptr[i + 1]; e += S) {
      const Index j = p.colidx[e];
      double v = 0;
      if (j != i) {
        const double xij = abs_entry(a, i, j);
        const double xji = abs_entry(a, j, i);
        v = xij + xji;
        if (r) v = __ddiv_rn(v, __dmul_rn(r[i], r[j]));
        if (!(v > 0)) v = 0; // stored zeros and underflow are not edges
        else if (isinf(v)) ovf = true;
      }
      w[e] = v;
    }
  if (__syncthreads_or(ovf) && threadIdx.x == 0) *overflow = 1;
}

// Lanes per row for an average row length.
int lanes_for(Index nnz, Index n) {
  const double avg = n ? double(nnz) / double(n) : 0;
  return avg <= 6 ? 4 : avg <= 12 ? 8 : avg <= 24 ? 16 : 32;
}

template <bool Validate, bool Scales, bool Weights>
void launch_fused(int lanes, const CsrView &a, const double *r_in, double *r_out, double *w, PassCounters *cnt,
                  cudaStream_t s) {
  const long long threads = static_cast<long long>(a.nrows) * lanes;
  const int grid = grid_for(threads, kThreads, 1 << 15);
  switch (lanes) {
  case 4: fused_pass<4, Validate, Scales, Weights><<<grid, kThreads, 0, s>>>(a, r_in, r_out, w, cnt); break;
  case 8: fused_pass<8, Validate, Scales, Weights><<<grid, kThreads, 0, s>>>(a, r_in, r_out, w, cnt); break;
  case 16: fused_pass<16, Validate, Scales, Weights><<<grid, kThreads, 0, s>>>(a, r_in, r_out, w, cnt); break;
  default: fused_pass<32, Validate, Scales, Weights><<<grid, kThreads, 0, s>>>(a, r_in, r_out, w, cnt); break;
  }
  PGK_CUDA_CHECK_LAUNCH();
}

void launch_general(int lanes, const CsrView &a, const CsrView &p, const double *r, double *w, int *overflow,
                    cudaStream_t s) {
  const long long threads = static_cast<long long>(p.nrows) * lanes;
  const int grid = grid_for(threads, kThreads, 1 << 15);
  switch (lanes) {
  case 4: weights_general<4><<<grid, kThreads, 0, s>>>(a, p, r, w, overflow); break;
  case 8: weights_general<8><<<grid, kThreads, 0, s>>>(a, p, r, w, overflow); break;
  case 16: weights_general<16><<<grid, kThreads, 0, s>>>(a, p, r, w, overflow); break;
  default: weights_general<32><<<grid, kThreads, 0, s>>>(a, p, r, w, overflow); break;
  }
  PGK_CUDA_CHECK_LAUNCH();
}

// The invalid_argument check_matrix_device throws for these counts (none when all are 0).
void throw_if_malformed(const char *what, unsigned long long bad_rowptr, unsigned long long bad_colidx,
                        unsigned long long unsorted) {
  if (bad_rowptr || bad_colidx)
    throw std::invalid_argument(
        std::string(what) + ": invalid CSR: " + std::to_string(static_cast<long long>(bad_rowptr)) +
        " bad row pointers, " + std::to_string(static_cast<long long>(bad_colidx)) + " column indices out of range");
  if (unsorted)
    throw std::invalid_argument(std::string(what) + ": rows must be sorted and unique: " +
                                std::to_string(static_cast<long long>(unsorted)) + " rows are not");
}

// The domain_error naming the first (row-major) non-finite entry of A.
[[noreturn]] void throw_nonfinite(const CsrView &a, const char *what, cudaStream_t s) {
  DeviceBuffer<unsigned long long> first(1);
  DeviceBuffer<double> bad(3);
  PGK_CUDA_CHECK(cudaMemsetAsync(first.data(), 0xff, sizeof(unsigned long long), s));
  first_nonfinite<<<grid_for(a.nrows, kThreads, kMaxBlocks), kThreads, 0, s>>>(a, first.data());
  PGK_CUDA_CHECK_LAUNCH();
  locate_entry<<<1, 1, 0, s>>>(a, first.data(), bad.data());
  PGK_CUDA_CHECK_LAUNCH();
  const std::vector<double> h = bad.download(s);
  throw std::domain_error(std::string(what) + ": non-finite value " + std::to_string(h[2]) + " at (" +
                          std::to_string(static_cast<long long>(h[0])) + ", " +
                          std::to_string(static_cast<long long>(h[1])) + ")");
}

} // namespace

void check_matrix_device(const CsrView &a, const char *what, void *stream) {
  if (a.nrows != a.ncols) throw std::invalid_argument(std::string(what) + ": matrix is not square");
  if (a.nrows == 0) return;
  const CsrCheck c = pgk::cuda::check_csr(a, stream);
  throw_if_malformed(what, static_cast<unsigned long long>(c.bad_rowptr), static_cast<unsigned long long>(c.bad_colidx),
                     static_cast<unsigned long long>(c.unsorted_rows));
  if (c.nonfinite == 0 || !a.values) return;
  throw_nonfinite(a, what, as_stream(stream));
}

void check_values_device(const CsrView &a, Index nnz, const char *what, void *stream) {
  if (a.nrows == 0 || !a.values) return;
  cudaStream_t s = as_stream(stream);
  DeviceBuffer<unsigned long long> counts(2, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, 2 * sizeof(unsigned long long), s));
  count_nonfinite_values<<<grid_for(nnz > 0 ? nnz : 1, kThreads, kMaxBlocks), kThreads, 0, s>>>(
      a.rowptr, a.nrows, a.values, nnz, counts.data());
  PGK_CUDA_CHECK_LAUNCH();
  unsigned long long h[2];
  copy_to_host(h, counts.data(), sizeof h, s);
  if (h[0])
    throw std::invalid_argument(std::string(what) + ": the matrix has another number of entries than at set-up " +
                                "(a values-only update needs the same nonzero pattern)");
  if (h[1]) throw_nonfinite(a, what, s);
}

// One fused pass checks A (check_matrix_device's errors, in its order) and, when A is
// structurally symmetric (the common case), computes W on A's pattern in the same pass;
// only a non-symmetric pattern builds pattern(A + A^T) and computes W again on it.
// Weight::Scaled needs every r_j first: one pass checks A and computes r, a second the
// weights.
void build_weight_graph(const CsrView &a, pgk::trilf::Weight kind, DeviceWeightGraph &out, void *stream) {
  const char *what = "trilf weights";
  if (a.nrows != a.ncols) throw std::invalid_argument(std::string(what) + ": matrix is not square");
  cudaStream_t s = as_stream(stream);
  const Index n = a.nrows;
  out.rowptr = DeviceBuffer<Index>();
  out.colidx = DeviceBuffer<Index>();
  out.view = CsrView();
  out.view.nrows = out.view.ncols = n;
  if (n == 0) {
    out.w.allocate(0);
    out.rowptr.allocate(1);
    PGK_CUDA_CHECK(cudaMemsetAsync(out.rowptr.data(), 0, sizeof(Index), s));
    PGK_CUDA_CHECK(cudaStreamSynchronize(s));
    out.view.rowptr = out.rowptr.data();
    out.view.colidx = out.rowptr.data();
    out.view.values = out.w.data();
    return;
  }
  const Index nnz = read_scalar(a.rowptr + n, stream);
  out.a_nnz = nnz;
  const bool scaled = kind == pgk::trilf::Weight::Scaled;
  out.w.allocate(static_cast<std::size_t>(nnz > 0 ? nnz : 0));
  const int lanes = lanes_for(nnz, n);
  DeviceBuffer<PassCounters> cnt(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(cnt.data(), 0, sizeof(PassCounters), s));
  DeviceBuffer<double> r(scaled ? static_cast<std::size_t>(n) : 1, s);
  if (scaled) {
    launch_fused<true, true, false>(lanes, a, nullptr, r.data(), nullptr, cnt.data(), s);
    launch_fused<false, false, true>(lanes, a, r.data(), nullptr, out.w.data(), cnt.data(), s);
  } else {
    launch_fused<true, false, true>(lanes, a, nullptr, nullptr, out.w.data(), cnt.data(), s);
  }
  const PassCounters c = cnt.get(0, s);
  throw_if_malformed(what, c.bad_rowptr, c.bad_colidx, c.unsorted_rows);
  if (c.nonfinite && a.values) throw_nonfinite(a, what, s);
  CsrView p = a;
  p.values = nullptr;
  if (c.missing) {
    // pattern(A + A^T): symmetrize_pattern builds it (it finds the same missing entries).
    DeviceCsrPattern sym;
    const bool built = symmetrize_pattern(a, sym, stream);
    if (!built) throw std::logic_error("trilf weights: pattern symmetry check disagrees");
    const Index snnz = read_scalar(sym.view().rowptr + n, stream);
    out.rowptr.allocate(static_cast<std::size_t>(n) + 1);
    out.colidx.allocate(static_cast<std::size_t>(snnz));
    PGK_CUDA_CHECK(
        cudaMemcpyAsync(out.rowptr.data(), sym.rowptr(), sizeof(Index) * (n + 1), cudaMemcpyDeviceToDevice, s));
    if (snnz)
      PGK_CUDA_CHECK(
          cudaMemcpyAsync(out.colidx.data(), sym.colidx(), sizeof(Index) * snnz, cudaMemcpyDeviceToDevice, s));
    p.rowptr = out.rowptr.data();
    p.colidx = out.colidx.data();
    out.w = DeviceBuffer<double>(static_cast<std::size_t>(snnz));
    DeviceBuffer<int> overflow(1, s);
    PGK_CUDA_CHECK(cudaMemsetAsync(overflow.data(), 0, sizeof(int), s));
    launch_general(lanes_for(snnz, n), a, p, scaled ? r.data() : nullptr, out.w.data(), overflow.data(), s);
    if (overflow.get(0, s)) throw std::domain_error("trilf weights: edge weight overflows");
  } else if (c.overflow) {
    throw std::domain_error("trilf weights: edge weight overflows");
  }
  out.view = p;
  out.view.values = out.w.data();
}

} // namespace pgk::cuda::trilf

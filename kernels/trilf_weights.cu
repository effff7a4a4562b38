// Device weight graph W of PC trilf (trilf_primitives.hpp, build_weight_graph): the same
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

#include "device_csr.hpp"
#include "pgk_kernels.hpp"
#include "trilf_common.cuh"
#include "trilf_internal.hpp"
#include "trilf_primitives.hpp"

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

// sqrt(s_i) of Weight::Scaled: s_i = |a_ii|, else the largest off-diagonal |a_ij|, else 1.
__global__ void sqrt_scales(CsrView a, double *r) {
  for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < a.nrows; i += Index(gridDim.x) * blockDim.x) {
    double diag = 0, offmax = 0;
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      const double v = a.values ? fabs(a.values[e]) : 1.0;
      if (a.colidx[e] == i) diag = v;
      else offmax = fmax(offmax, v);
    }
    const double s = diag != 0 ? diag : (offmax != 0 ? offmax : 1.0);
    r[i] = sqrt(s); // correctly rounded (no fast-math)
  }
}

__device__ inline double abs_entry(const CsrView &a, Index row, Index col) {
  const Index e = find_in_row(a.rowptr, a.colidx, row, col);
  return e < 0 ? 0.0 : (a.values ? fabs(a.values[e]) : 1.0);
}

// w on pattern p (== A's pattern when same_pattern): one thread per row.
__global__ void weights(CsrView a, CsrView p, bool same_pattern, const double *r, double *w, int *overflow) {
  for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < p.nrows; i += Index(gridDim.x) * blockDim.x)
    for (Index e = p.rowptr[i]; e < p.rowptr[i + 1]; ++e) {
      const Index j = p.colidx[e];
      double v = 0;
      if (j != i) {
        const double xij = same_pattern ? (a.values ? fabs(a.values[e]) : 1.0) : abs_entry(a, i, j);
        const double xji = abs_entry(a, j, i);
        v = xij + xji;
        if (r) v = __ddiv_rn(v, __dmul_rn(r[i], r[j]));
        if (!(v > 0)) v = 0; // stored zeros and underflow are not edges
        else if (isinf(v)) *overflow = 1;
      }
      w[e] = v;
    }
}

} // namespace

void check_matrix_device(const CsrView &a, const char *what, void *stream) {
  if (a.nrows != a.ncols) throw std::invalid_argument(std::string(what) + ": matrix is not square");
  if (a.nrows == 0) return;
  const CsrCheck c = pgk::cuda::check_csr(a, stream);
  if (c.bad_rowptr || c.bad_colidx)
    throw std::invalid_argument(std::string(what) + ": invalid CSR: " + std::to_string(c.bad_rowptr) + " bad row pointers, " +
                                std::to_string(c.bad_colidx) + " column indices out of range");
  if (c.unsorted_rows)
    throw std::invalid_argument(std::string(what) + ": rows must be sorted and unique: " + std::to_string(c.unsorted_rows) +
                                " rows are not");
  if (c.nonfinite == 0 || !a.values) return;
  cudaStream_t s = as_stream(stream);
  DeviceBuffer<unsigned long long> first(1);
  DeviceBuffer<double> bad(3);
  PGK_CUDA_CHECK(cudaMemsetAsync(first.data(), 0xff, sizeof(unsigned long long), s));
  first_nonfinite<<<grid_for(a.nrows), kThreads, 0, s>>>(a, first.data());
  PGK_CUDA_CHECK_LAUNCH();
  locate_entry<<<1, 1, 0, s>>>(a, first.data(), bad.data());
  PGK_CUDA_CHECK_LAUNCH();
  const std::vector<double> h = bad.download(stream);
  throw std::domain_error(std::string(what) + ": non-finite value " + std::to_string(h[2]) + " at (" +
                          std::to_string(static_cast<long long>(h[0])) + ", " + std::to_string(static_cast<long long>(h[1])) + ")");
}

void build_weight_graph(const CsrView &a, pgk::trilf::Weight kind, DeviceWeightGraph &out, void *stream) {
  check_matrix_device(a, "trilf weights", stream);
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
  // pattern(A + A^T) only when A is not structurally symmetric (symmetrize_pattern says so).
  DeviceCsrPattern sym;
  const bool built = symmetrize_pattern(a, sym, stream);
  CsrView p = a;
  if (built) {
    Index nnz = 0;
    PGK_CUDA_CHECK(cudaMemcpyAsync(&nnz, sym.view().rowptr + n, sizeof(Index), cudaMemcpyDeviceToHost, s));
    PGK_CUDA_CHECK(cudaStreamSynchronize(s));
    out.rowptr.allocate(static_cast<std::size_t>(n) + 1);
    out.colidx.allocate(static_cast<std::size_t>(nnz));
    PGK_CUDA_CHECK(cudaMemcpyAsync(out.rowptr.data(), sym.rowptr(), sizeof(Index) * (n + 1), cudaMemcpyDeviceToDevice, s));
    if (nnz) PGK_CUDA_CHECK(cudaMemcpyAsync(out.colidx.data(), sym.colidx(), sizeof(Index) * nnz, cudaMemcpyDeviceToDevice, s));
    p.rowptr = out.rowptr.data();
    p.colidx = out.colidx.data();
    out.w.allocate(static_cast<std::size_t>(nnz));
  } else {
    Index nnz = 0;
    PGK_CUDA_CHECK(cudaMemcpyAsync(&nnz, a.rowptr + n, sizeof(Index), cudaMemcpyDeviceToHost, s));
    PGK_CUDA_CHECK(cudaStreamSynchronize(s));
    out.w.allocate(static_cast<std::size_t>(nnz));
  }
  p.values = nullptr;
  AsyncBuffer<double> r(kind == pgk::trilf::Weight::Scaled ? static_cast<std::size_t>(n) : 1, s);
  if (kind == pgk::trilf::Weight::Scaled) {
    sqrt_scales<<<grid_for(n), kThreads, 0, s>>>(a, r.data());
    PGK_CUDA_CHECK_LAUNCH();
  }
  AsyncBuffer<int> overflow(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(overflow.data(), 0, sizeof(int), s));
  weights<<<grid_for(n), kThreads, 0, s>>>(a, p, !built, kind == pgk::trilf::Weight::Scaled ? r.data() : nullptr,
                                           out.w.data(), overflow.data());
  PGK_CUDA_CHECK_LAUNCH();
  if (overflow.get(0))
    throw std::domain_error("trilf weights: edge weight overflows");
  out.view = p;
  out.view.values = out.w.data();
}

} // namespace pgk::cuda::trilf

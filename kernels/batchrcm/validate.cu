// Input checks and valences of the device RCM (internal.cuh): the host reference's checks of
// a CSR graph on device arrays, and the valence of every vertex.
#include "kernels/batchrcm/device_loops.cuh"
#include "kernels/common/atomics.cuh"

#include <stdexcept>
#include <string>

namespace pgk::cuda::rcm_detail {
namespace {

struct CheckResult {
  Index max_row;   // the longest row (GpuAlgorithm::Levels picks its kernel by it)
  Index bad_row;   // first row whose pointer decreases; n if none
  Index bad_entry; // first entry out of range; nnz if none
  int bad_first;   // rowptr[0] != 0
};

// Also the longest row: read here, where every row pointer is read anyway, it costs the levels
// path no pass and no copy of its own. One atomic a warp.
__global__ void check_rowptr_kernel(Index n, const Index *rowptr, CheckResult *out) {
  if (global_thread() == 0 && rowptr[0] != 0) out->bad_first = 1;
  Index longest = 0;
  for (Index i = global_thread(); i < n; i += global_threads()) {
    const Index r = rowptr[i + 1] - rowptr[i];
    if (r < 0) atomic_min_t(&out->bad_row, i);
    longest = r > longest ? r : longest;
  }
  for (int d = 16; d > 0; d /= 2) {
    const Index o = __shfl_xor_sync(~0u, longest, d);
    longest = o > longest ? o : longest;
  }
  if ((threadIdx.x & 31) == 0 && longest > 0) atomic_max_t(&out->max_row, longest);
}

__global__ void check_colidx_kernel(Index n, Index nnz, const Index *colidx, CheckResult *out) {
  for (Index e = global_thread(); e < nnz; e += global_threads())
    if (colidx[e] < 0 || colidx[e] >= n) atomic_min_t(&out->bad_entry, e);
}

__global__ void init_check_kernel(CheckResult *out, Index n) {
  out->max_row = 0;
  out->bad_row = n;
  out->bad_entry = max_of<Index>();
  out->bad_first = 0;
}

__global__ void row_length_kernel(Index n, const Index *rowptr, Index *valence) {
  for (Index i = global_thread(); i < n; i += global_threads()) valence[i] = rowptr[i + 1] - rowptr[i];
}

__global__ void drop_diagonal_kernel(Index n, const Index *rowptr, const Index *colidx, Index *valence) {
  for_each_entry(
      rowptr, 0, n, 1, [](Index it) { return it; },
      [&](Index u, Index e) {
        if (colidx[e] == u) atomic_add_t(&valence[u], Index(-1));
      });
}

} // namespace

Index validate_graph_device(const CsrView &g, cudaStream_t s) {
  if (g.nrows != g.ncols)
    throw std::invalid_argument("rcm: the matrix must be square (" + std::to_string(g.nrows) + " x " +
                                std::to_string(g.ncols) + ")");
  if (g.nrows < 0) throw std::invalid_argument("rcm: negative dimension");
  const Index n = g.nrows;
  if (n == 0) return 0;
  if (!g.rowptr) throw std::invalid_argument("rcm: null row pointer");
  DeviceBuffer<CheckResult> res(1, s);
  init_check_kernel<<<1, 1, 0, s>>>(res.data(), n);
  PGK_CUDA_CHECK_LAUNCH();
  check_rowptr_kernel<<<grid_for(n, kThreads, kMaxBlocks), kThreads, 0, s>>>(n, g.rowptr, res.data());
  PGK_CUDA_CHECK_LAUNCH();
  CheckResult r = read_scalar(res.data(), s);
  if (r.bad_first) throw std::invalid_argument("rcm: rowptr[0] must be 0");
  if (r.bad_row < n) throw std::invalid_argument("rcm: row pointer decreases at row " + std::to_string(r.bad_row));
  const Index nnz = read_scalar(g.rowptr + n, s);
  if (nnz == 0) return 0;
  if (!g.colidx) throw std::invalid_argument("rcm: null column indices");
  check_colidx_kernel<<<grid_for(nnz, kThreads, kMaxBlocks), kThreads, 0, s>>>(n, nnz, g.colidx, res.data());
  PGK_CUDA_CHECK_LAUNCH();
  r = read_scalar(res.data(), s);
  if (r.bad_entry != max_of<Index>())
    throw std::invalid_argument("rcm: column index out of range at entry " + std::to_string(r.bad_entry));
  return r.max_row;
}

void compute_valence_device(const CsrView &g, bool count_diagonal, Index *valence, cudaStream_t s) {
  const Index n = g.nrows;
  if (n == 0) return;
  row_length_kernel<<<grid_for(n, kThreads, kMaxBlocks), kThreads, 0, s>>>(n, g.rowptr, valence);
  PGK_CUDA_CHECK_LAUNCH();
  if (!count_diagonal) {
    const int grid = grid_for((n + 31) / 32 * 32, kThreads, kMaxBlocks); // a lane per row
    drop_diagonal_kernel<<<grid, kThreads, 0, s>>>(n, g.rowptr, g.colidx, valence);
    PGK_CUDA_CHECK_LAUNCH();
  }
}

} // namespace pgk::cuda::rcm_detail

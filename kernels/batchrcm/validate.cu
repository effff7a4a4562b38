// Input checks and valences of the device RCM (internal.cuh): the host reference's checks of
// a CSR graph on device arrays, and the valence of every vertex.
#include "kernels/batchrcm/device_loops.cuh"
#include "kernels/common/atomics.cuh"
#include "kernels/common/csr_search.cuh"

#include <stdexcept>
#include <string>

namespace pgk::cuda::rcm_detail {
namespace {

struct CheckResult {
  Index max_row;   // the longest row (GpuAlgorithm::Levels picks its kernel by it)
  Index bad_row;   // first row whose pointer decreases; n if none
  Index bad_entry; // first entry out of range; nnz if none
  Index missing;   // entries (i, j), j != i, whose (j, i) is absent (when counted)
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

// Every entry's column in [0, n) (the row pointer is known good by now) and, with count_missing,
// whether its transpose is stored (transpose_missing, the test symmetrize_pattern builds A + A^T
// by). G lanes a row read the entries coalesced.
__global__ void check_entries_kernel(Index n, const Index *rowptr, const Index *colidx, int G, bool count_missing,
                                     CheckResult *out) {
  Index missing = 0;
  for_each_entry(
      rowptr, 0, n, G, [](Index it) { return it; },
      [&](Index i, Index e) {
        const Index j = colidx[e];
        if (j < 0 || j >= n) {
          atomic_min_t(&out->bad_entry, e);
          return;
        }
        if (count_missing && transpose_missing(rowptr, colidx, i, e)) ++missing;
      });
  for (int d = 16; d > 0; d /= 2) missing += __shfl_xor_sync(~0u, missing, d);
  if ((threadIdx.x & 31) == 0 && missing > 0) atomic_add_t(&out->missing, missing);
}

__global__ void init_check_kernel(CheckResult *out, Index n) {
  out->max_row = 0;
  out->bad_row = n;
  out->bad_entry = max_of<Index>();
  out->missing = 0;
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

GraphFacts validate_graph_device(const CsrView &g, bool count_missing, cudaStream_t s) {
  if (g.nrows != g.ncols)
    throw std::invalid_argument("rcm: the matrix must be square (" + std::to_string(g.nrows) + " x " +
                                std::to_string(g.ncols) + ")");
  if (g.nrows < 0) throw std::invalid_argument("rcm: negative dimension");
  const Index n = g.nrows;
  GraphFacts facts;
  if (n == 0) return facts;
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
  facts.max_row = r.max_row;
  if (nnz == 0) return facts;
  if (!g.colidx) throw std::invalid_argument("rcm: null column indices");
  int G = 1; // lanes a row: about the mean row length, up to a warp
  while (G < 32 && static_cast<long long>(G) * 2 * n <= 3ll * nnz) G *= 2;
  const long long lanes = static_cast<long long>(n) * G;
  check_entries_kernel<<<grid_for(lanes, kThreads, kMaxBlocks), kThreads, 0, s>>>(n, g.rowptr, g.colidx, G,
                                                                                  count_missing, res.data());
  PGK_CUDA_CHECK_LAUNCH();
  r = read_scalar(res.data(), s);
  if (r.bad_entry != max_of<Index>())
    throw std::invalid_argument("rcm: column index out of range at entry " + std::to_string(r.bad_entry));
  facts.missing = r.missing;
  return facts;
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

// Device pattern(A + A^T). Entry (i, j) of A needs (j, i): a binary search in row j (rows are
// sorted) finds it or counts it missing for row j. Only rows that miss entries change: the
// missing entries are appended, then every row is sorted with CUB's segmented sort, so the
// result has exactly the rows of the host reference.
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <utility>

#include "kernels/common/atomics.cuh"
#include "kernels/common/csr_search.cuh"
#include "kernels/common/cub_temp.cuh"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_csr.hpp"
#include "kernels/common/launch.cuh"

namespace pgk::cuda {

namespace {

constexpr int kThreads = 256;
constexpr long long kMaxBlocks = 4096;

// missing[j] += 1 for every (i, j) of A whose (j, i) is absent. One thread per row.
__global__ void count_missing(CsrView a, Index *missing) {
  for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < a.nrows; i += Index(gridDim.x) * blockDim.x)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k)
      if (transpose_missing(a.rowptr, a.colidx, i, k)) atomic_add_t(&missing[a.colidx[k]], Index(1));
}

// Copies each row of A to its new place and sets the append cursor after it.
__global__ void copy_rows(CsrView a, const Index *new_rowptr, Index *new_colidx, Index *cursor) {
  for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < a.nrows; i += Index(gridDim.x) * blockDim.x) {
    const Index b = a.rowptr[i], len = a.rowptr[i + 1] - b, dst = new_rowptr[i];
    for (Index k = 0; k < len; ++k) new_colidx[dst + k] = a.colidx[b + k];
    cursor[i] = dst + len;
  }
}

// Appends the missing transposed entries (the order within a row is fixed by the sort after).
__global__ void append_missing(CsrView a, Index *new_colidx, Index *cursor) {
  for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < a.nrows; i += Index(gridDim.x) * blockDim.x)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k)
      if (transpose_missing(a.rowptr, a.colidx, i, k)) new_colidx[atomic_add_t(&cursor[a.colidx[k]], Index(1))] = i;
}

__global__ void add_offsets(const Index *rowptr, const Index *scanned_missing, Index *new_rowptr, Index n) {
  for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i <= n; i += Index(gridDim.x) * blockDim.x)
    new_rowptr[i] = rowptr[i] + scanned_missing[i];
}

} // namespace

bool symmetrize_pattern(const CsrView &a, DeviceCsrPattern &out, void *stream_handle) {
  cudaStream_t stream = as_stream(stream_handle);
  const Index n = a.nrows;
  out = DeviceCsrPattern();
  if (n == 0) return false;
  const int grid = grid_for(n, kThreads, kMaxBlocks);
  // missing has n + 1 entries: the exclusive scan of it gives the offsets and, at n, the total.
  DeviceBuffer<Index> missing(static_cast<std::size_t>(n) + 1), scanned(static_cast<std::size_t>(n) + 1);
  PGK_CUDA_CHECK(cudaMemsetAsync(missing.data(), 0, sizeof(Index) * (n + 1), stream));
  count_missing<<<grid, kThreads, 0, stream>>>(a, missing.data());
  PGK_CUDA_CHECK_LAUNCH();
  CubTemp temp(stream);
  temp.run([&](void *t, std::size_t &b) {
    return cub::DeviceScan::ExclusiveSum(t, b, missing.data(), scanned.data(), n + 1, stream);
  });
  const Index added = read_scalar(scanned.data() + n, stream);
  const Index nnz = read_scalar(a.rowptr + n, stream);
  if (added == 0) return false;

  DeviceCsrPattern s;
  s.allocate(n, a.ncols, nnz + added);
  add_offsets<<<grid_for(n + 1, kThreads, kMaxBlocks), kThreads, 0, stream>>>(a.rowptr, scanned.data(), s.rowptr(), n);
  PGK_CUDA_CHECK_LAUNCH();
  DeviceBuffer<Index> cursor(static_cast<std::size_t>(n));
  copy_rows<<<grid, kThreads, 0, stream>>>(a, s.rowptr(), s.colidx(), cursor.data());
  PGK_CUDA_CHECK_LAUNCH();
  append_missing<<<grid, kThreads, 0, stream>>>(a, s.colidx(), cursor.data());
  PGK_CUDA_CHECK_LAUNCH();

  // Sort every row: the keys are unique within a row, so the result is deterministic.
  const Index total = nnz + added;
  DeviceBuffer<Index> sorted(static_cast<std::size_t>(total));
  temp.run([&](void *t, std::size_t &b) {
    return cub::DeviceSegmentedSort::SortKeys(t, b, s.colidx(), sorted.data(), total, n, s.rowptr(), s.rowptr() + 1,
                                              stream);
  });
  PGK_CUDA_CHECK(cudaMemcpyAsync(s.colidx(), sorted.data(), sizeof(Index) * total, cudaMemcpyDeviceToDevice, stream));
  PGK_CUDA_CHECK(cudaStreamSynchronize(stream));
  out = std::move(s);
  return true;
}

} // namespace pgk::cuda

// Device pattern(A + A^T). Entry (i, j) of A needs (j, i): a binary search in row j (rows are
// sorted) finds it or counts it missing for row j. Only rows that miss entries change: the
// missing entries are appended, then every row is sorted with CUB's segmented sort, so the
// result has exactly the rows of the host reference.
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <utility>

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_csr.hpp"

namespace pgk::cuda {

namespace {

// atomicAdd for pgk::Index, 32- or 64-bit (two's complement makes the unsigned add exact).
__device__ Index atomic_add_index(Index *p, Index v) {
  if constexpr (sizeof(Index) == 8)
    return static_cast<Index>(atomicAdd(reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(v)));
  else
    return static_cast<Index>(atomicAdd(reinterpret_cast<unsigned int *>(p), static_cast<unsigned int>(v)));
}

__device__ bool row_contains(const Index *rowptr, const Index *colidx, Index row, Index col) {
  Index lo = rowptr[row], hi = rowptr[row + 1];
  while (lo < hi) {
    const Index mid = lo + (hi - lo) / 2;
    const Index c = colidx[mid];
    if (c == col) return true;
    if (c < col) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

// missing[j] += 1 for every (i, j) of A whose (j, i) is absent. One thread per row.
__global__ void count_missing(CsrView a, Index *missing) {
  for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < a.nrows; i += Index(gridDim.x) * blockDim.x)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      const Index j = a.colidx[k];
      if (j != i && !row_contains(a.rowptr, a.colidx, j, i)) atomic_add_index(&missing[j], 1);
    }
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
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      const Index j = a.colidx[k];
      if (j != i && !row_contains(a.rowptr, a.colidx, j, i)) new_colidx[atomic_add_index(&cursor[j], 1)] = i;
    }
}

__global__ void add_offsets(const Index *rowptr, const Index *scanned_missing, Index *new_rowptr, Index n) {
  for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i <= n; i += Index(gridDim.x) * blockDim.x)
    new_rowptr[i] = rowptr[i] + scanned_missing[i];
}

int grid_for(Index n) {
  const Index blocks = (n + 255) / 256;
  return static_cast<int>(blocks < 4096 ? (blocks > 0 ? blocks : 1) : 4096);
}

struct DeviceBuffer {
  void *p = nullptr;
  ~DeviceBuffer() { if (p) (void)cudaFree(p); }
};

} // namespace

bool symmetrize_pattern(const CsrView &a, DeviceCsrPattern &out, void *stream_handle) {
  cudaStream_t stream = static_cast<cudaStream_t>(stream_handle);
  const Index n = a.nrows;
  out = DeviceCsrPattern();
  if (n == 0) return false;
  // missing has n + 1 entries: the exclusive scan of it gives the offsets and, at n, the total.
  DeviceBuffer missing_buf, scan_buf, cursor_buf, temp_buf;
  PGK_CUDA_CHECK(cudaMalloc(&missing_buf.p, sizeof(Index) * (n + 1)));
  PGK_CUDA_CHECK(cudaMalloc(&scan_buf.p, sizeof(Index) * (n + 1)));
  Index *missing = static_cast<Index *>(missing_buf.p), *scanned = static_cast<Index *>(scan_buf.p);
  PGK_CUDA_CHECK(cudaMemsetAsync(missing, 0, sizeof(Index) * (n + 1), stream));
  count_missing<<<grid_for(n), 256, 0, stream>>>(a, missing);
  PGK_CUDA_CHECK_LAUNCH();
  size_t temp_bytes = 0;
  PGK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, missing, scanned, n + 1, stream));
  PGK_CUDA_CHECK(cudaMalloc(&temp_buf.p, temp_bytes));
  PGK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp_buf.p, temp_bytes, missing, scanned, n + 1, stream));
  Index added = 0, nnz = 0;
  PGK_CUDA_CHECK(cudaMemcpyAsync(&added, scanned + n, sizeof(Index), cudaMemcpyDeviceToHost, stream));
  PGK_CUDA_CHECK(cudaMemcpyAsync(&nnz, a.rowptr + n, sizeof(Index), cudaMemcpyDeviceToHost, stream));
  PGK_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (added == 0) return false;

  DeviceCsrPattern s;
  s.allocate(n, a.ncols, nnz + added);
  add_offsets<<<grid_for(n + 1), 256, 0, stream>>>(a.rowptr, scanned, s.rowptr(), n);
  PGK_CUDA_CHECK_LAUNCH();
  PGK_CUDA_CHECK(cudaMalloc(&cursor_buf.p, sizeof(Index) * n));
  Index *cursor = static_cast<Index *>(cursor_buf.p);
  copy_rows<<<grid_for(n), 256, 0, stream>>>(a, s.rowptr(), s.colidx(), cursor);
  PGK_CUDA_CHECK_LAUNCH();
  append_missing<<<grid_for(n), 256, 0, stream>>>(a, s.colidx(), cursor);
  PGK_CUDA_CHECK_LAUNCH();

  // Sort every row: the keys are unique within a row, so the result is deterministic.
  DeviceBuffer sorted_buf, sort_temp;
  PGK_CUDA_CHECK(cudaMalloc(&sorted_buf.p, sizeof(Index) * (nnz + added)));
  Index *sorted = static_cast<Index *>(sorted_buf.p);
  size_t sort_bytes = 0;
  PGK_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(nullptr, sort_bytes, s.colidx(), sorted, nnz + added, n, s.rowptr(), s.rowptr() + 1, stream));
  PGK_CUDA_CHECK(cudaMalloc(&sort_temp.p, sort_bytes));
  PGK_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(sort_temp.p, sort_bytes, s.colidx(), sorted, nnz + added, n, s.rowptr(), s.rowptr() + 1, stream));
  PGK_CUDA_CHECK(cudaMemcpyAsync(s.colidx(), sorted, sizeof(Index) * (nnz + added), cudaMemcpyDeviceToDevice, stream));
  PGK_CUDA_CHECK(cudaStreamSynchronize(stream));
  out = std::move(s);
  return true;
}

} // namespace pgk::cuda

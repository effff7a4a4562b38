// Device CSR validation: one warp per row, counts reduced with CUB-free atomics on six
// 64-bit counters (the counts are small integers, so the result is deterministic).
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/kernels.hpp"
#include "kernels/common/launch.cuh"

#include <cub/warp/warp_reduce.cuh>

namespace pgk::cuda {
namespace {

constexpr int kWarpsPerBlock = 8;

struct Counters {
  unsigned long long bad_rowptr, bad_colidx, unsorted_rows, nonfinite, empty_rows, missing_diagonal;
};

__global__ void check_csr_kernel(CsrView a, Counters *out) {
  using WarpReduce = cub::WarpReduce<unsigned int>;
  __shared__ typename WarpReduce::TempStorage temp[kWarpsPerBlock];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const Index nnz = a.rowptr[a.nrows];
  for (Index row = Index(blockIdx.x) * kWarpsPerBlock + warp; row < a.nrows; row += Index(gridDim.x) * kWarpsPerBlock) {
    const Index b = a.rowptr[row], e = a.rowptr[row + 1];
    if (e < b || b < 0 || e > nnz) {
      if (lane == 0) atomicAdd(&out->bad_rowptr, 1ull);
      continue;
    }
    unsigned int bad_col = 0, unsorted = 0, nonfinite = 0, diag = 0;
    for (Index k = b + lane; k < e; k += 32) {
      const Index j = a.colidx[k];
      bad_col += (j < 0 || j >= a.ncols);
      unsorted += (k > b && j <= a.colidx[k - 1]);
      diag += (j == row);
      if (a.values) nonfinite += !isfinite(a.values[k]);
    }
    // Reduce the four per-lane tallies; a warp reduction per counter keeps it simple.
    bad_col = WarpReduce(temp[warp]).Sum(bad_col);
    __syncwarp();
    unsorted = WarpReduce(temp[warp]).Sum(unsorted);
    __syncwarp();
    nonfinite = WarpReduce(temp[warp]).Sum(nonfinite);
    __syncwarp();
    diag = WarpReduce(temp[warp]).Sum(diag);
    __syncwarp();
    if (lane == 0) {
      if (bad_col) atomicAdd(&out->bad_colidx, (unsigned long long)bad_col);
      if (unsorted) atomicAdd(&out->unsorted_rows, 1ull);
      if (nonfinite) atomicAdd(&out->nonfinite, (unsigned long long)nonfinite);
      if (b == e) atomicAdd(&out->empty_rows, 1ull);
      if (row < a.ncols && diag == 0) atomicAdd(&out->missing_diagonal, 1ull);
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0 && a.nrows > 0 && a.rowptr[0] != 0) atomicAdd(&out->bad_rowptr, 1ull);
}

} // namespace

CsrCheck check_csr(const CsrView &a, void *stream_handle) {
  CsrCheck r;
  if (a.nrows == 0) return r;
  cudaStream_t stream = as_stream(stream_handle);
  DeviceBuffer<Counters> d(1, stream);
  PGK_CUDA_CHECK(cudaMemsetAsync(d.data(), 0, sizeof(Counters), stream));
  int dev = 0, sms = 0;
  PGK_CUDA_CHECK(cudaGetDevice(&dev));
  PGK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const int grid = grid_for(a.nrows, kWarpsPerBlock, 32LL * sms); // a warp per row
  check_csr_kernel<<<grid, 32 * kWarpsPerBlock, 0, stream>>>(a, d.data());
  PGK_CUDA_CHECK_LAUNCH();
  const Counters h = d.get(0, stream);
  r.bad_rowptr = (long long)h.bad_rowptr;
  r.bad_colidx = (long long)h.bad_colidx;
  r.unsorted_rows = (long long)h.unsorted_rows;
  r.nonfinite = (long long)h.nonfinite;
  r.empty_rows = (long long)h.empty_rows;
  r.missing_diagonal = (long long)h.missing_diagonal;
  return r;
}

} // namespace pgk::cuda

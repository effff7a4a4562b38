// Device CSR validation: a sub-warp of kLanes lanes per row, tallies summed over the warp and
// added with one 64-bit atomic per nonzero counter and warp (the counts are integers, so the
// result is deterministic).
#include "kernels/common/atomics.cuh"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/kernels.hpp"
#include "kernels/common/launch.cuh"

namespace pgk::cuda {
namespace {

// 8 lanes a row: a warp a row left 27 of its 32 lanes idle on a 5-point stencil (580 us for 21M
// entries on an H200 under ncu, slower than trilf's whole weight pass over the same A). 8
// consecutive column indices are one 32-byte sector; long rows loop. The row lengths are not
// known on the host without a read back, which the transfer counts of the callers would show.
constexpr int kLanes = 8;
constexpr int kThreadsPerBlock = 256;

struct Counters {
  unsigned long long bad_rowptr, bad_colidx, unsorted_rows, nonfinite, empty_rows, missing_diagonal;
};

__global__ void check_csr_kernel(CsrView a, Counters *out) {
  const int lane = threadIdx.x % kLanes;
  const unsigned group_mask = subwarp_mask<kLanes>();
  const Index groups = Index(gridDim.x) * (blockDim.x / kLanes);
  const Index nnz = a.rowptr[a.nrows];
  unsigned long long bad_rowptr = 0, bad_col = 0, unsorted = 0, nonfinite = 0, empty = 0, no_diag = 0;
  for (Index row = Index(blockIdx.x) * (blockDim.x / kLanes) + threadIdx.x / kLanes; row < a.nrows; row += groups) {
    const Index b = a.rowptr[row], e = a.rowptr[row + 1];
    if (e < b || b < 0 || e > nnz) { // the whole sub-warp: same row
      bad_rowptr += lane == 0;
      continue;
    }
    bool uns = false, diag = false;
    for (Index k = b + lane; k < e; k += kLanes) {
      const Index j = a.colidx[k];
      bad_col += (j < 0 || j >= a.ncols);
      uns |= (k > b && j <= a.colidx[k - 1]);
      diag |= (j == row);
      if (a.values) nonfinite += !isfinite(a.values[k]);
    }
    const bool row_unsorted = __any_sync(group_mask, uns), row_diag = __any_sync(group_mask, diag);
    if (lane == 0) {
      unsorted += row_unsorted;
      empty += b == e;
      no_diag += row < a.ncols && !row_diag;
    }
  }
  warp_counter_add(&out->bad_rowptr, bad_rowptr);
  warp_counter_add(&out->bad_colidx, bad_col);
  warp_counter_add(&out->unsorted_rows, unsorted);
  warp_counter_add(&out->nonfinite, nonfinite);
  warp_counter_add(&out->empty_rows, empty);
  warp_counter_add(&out->missing_diagonal, no_diag);
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
  const int grid = grid_for(a.nrows, kThreadsPerBlock / kLanes, 32LL * sms); // a sub-warp per row
  check_csr_kernel<<<grid, kThreadsPerBlock, 0, stream>>>(a, d.data());
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

// Loop helpers of the device RCM's plan kernels (validate.cu, start_node.cu, reverse.cu):
// launch shape, grid-stride indices, the row walk of for_each_entry and the CUB exclusive sum.
#pragma once

#include "kernels/batchrcm/internal.cuh"
#include "kernels/common/cub_temp.cuh"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/launch.cuh"

#include <cub/device/device_scan.cuh>

#include <cstddef>

namespace pgk::cuda::rcm_detail {

constexpr int kThreads = 256;
constexpr long long kMaxBlocks = 65535;

__device__ __forceinline__ Index global_thread() { return static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ Index global_threads() { return static_cast<Index>(gridDim.x) * blockDim.x; }

// Calls f(u, e) for every entry e of the rows u = row_of(item), item in [begin, end). A group
// of G lanes (a power of two up to 32) takes one item and walks its row with stride G; rows
// longer than 32 are walked by the whole warp together (hubs of power-law graphs). G = 1 suits
// many short rows; a BFS level of few vertices uses large groups, so that its edges are all in
// flight at once instead of one after another in a lane (thousands of levels on 2D meshes).
template <class RowOf, class F>
__device__ void for_each_entry(const Index *rowptr, Index begin, Index end, int G, RowOf row_of, F f) {
  const int lane = threadIdx.x & 31;
  const int per_warp = 32 / G, sub = lane / G, g = lane % G;
  const Index warp = global_thread() / 32, warps = global_threads() / 32;
  for (Index base = begin + warp * per_warp; base < end; base += warps * per_warp) {
    const Index it = base + sub;
    Index u = 0, eb = 0, ee = 0;
    if (it < end) {
      u = row_of(it);
      eb = rowptr[u];
      ee = rowptr[u + 1];
    }
    const bool wide = G < 32 && ee - eb > 32;
    u32 wide_rows = __ballot_sync(~0u, wide && g == 0); // one bit per wide row: its group's first lane
    while (wide_rows) {
      const int src = __ffs(wide_rows) - 1;
      wide_rows &= wide_rows - 1;
      const Index wu = __shfl_sync(~0u, u, src), wb = __shfl_sync(~0u, eb, src), we = __shfl_sync(~0u, ee, src);
      for (Index e = wb + lane; e < we; e += 32) f(wu, e);
    }
    if (!wide)
      for (Index e = eb + g; e < ee; e += G) f(u, e);
  }
}

// out = exclusive prefix sum of in[0, count), on stream s (stream-ordered CUB scratch).
template <class T> void exclusive_sum(const T *in, T *out, Index count, cudaStream_t s) {
  CubTemp(s).run([&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, in, out, count, s); });
}

} // namespace pgk::cuda::rcm_detail

// Launch helpers shared by every kernel of kernels/: the grid of a grid-stride loop and the
// conversion of the void* streams of the plain C++ interfaces.
#pragma once

#include "kernels/common/cuda_check.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace pgk::cuda {

// Grid for a grid-stride loop over `items` work items, `per_block` items per block (usually
// the block's threads): enough blocks to cover the items, at least 1, at most `max_blocks`.
// The cap is the caller's on purpose: it bounds the per-block partial results of the
// deterministic reductions (so their summation order, hence their bits, depend on it), and each
// caller keeps the cap its kernels were written for.
inline int grid_for(long long items, int per_block, long long max_blocks) {
  const long long blocks = (items + per_block - 1) / per_block;
  return static_cast<int>(blocks < max_blocks ? (blocks > 0 ? blocks : 1) : max_blocks);
}

// Lanes for work items of `per_group` entries each: the fewest of 4, 8, 16, 32 that cover it (32
// above), so a sub-warp of that many lanes takes an item in one coalesced pass. The rule of every
// lanes-per-row choice (trilf's propose and contraction kernels, carpcg's sweeps).
inline int lanes_covering(double per_group) {
  int lanes = 4;
  while (lanes < 32 && lanes < per_group) lanes *= 2;
  return lanes;
}

// The shuffle mask of the calling lane's sub-warp of S lanes (S = 4, 8, 16 or 32: lanes
// [k S, (k + 1) S) of the warp).
template <int S> __device__ __forceinline__ unsigned subwarp_mask() {
  return S == 32 ? 0xffffffffu : ((1u << S) - 1u) << (threadIdx.x % 32 / S * S);
}

// Runs f(std::integral_constant<int, G>{}) for a lane-group size G of 4, 8 or 16 (anything else:
// 32), so a host-side choice of lanes per row picks a kernel instantiated for it.
template <class F> inline void with_lanes(int lanes, F &&f) {
  switch (lanes) {
  case 4: f(std::integral_constant<int, 4>{}); break;
  case 8: f(std::integral_constant<int, 8>{}); break;
  case 16: f(std::integral_constant<int, 16>{}); break;
  default: f(std::integral_constant<int, 32>{}); break;
  }
}

// How many blocks of `kernel` (`block` threads, `smem` bytes of dynamic shared memory) the current
// device holds at once: the occupancy API's blocks an SM, and the SMs. The one query behind every
// grid sized to a wave of resident blocks (carpcg's colour overlap and interior sweep, batchrcm's
// persistent kernels).
struct Residency {
  int per_sm = 0, sms = 0;
  int blocks() const { return per_sm * sms; }
};
template <class Kernel> inline Residency residency(Kernel kernel, int block, std::size_t smem) {
  Residency r;
  int dev = 0;
  PGK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.per_sm, kernel, block, smem));
  PGK_CUDA_CHECK(cudaGetDevice(&dev));
  PGK_CUDA_CHECK(cudaDeviceGetAttribute(&r.sms, cudaDevAttrMultiProcessorCount, dev));
  return r;
}

// The cudaStream_t behind a `void *stream` of the plain C++ interfaces.
inline cudaStream_t as_stream(void *stream) { return static_cast<cudaStream_t>(stream); }

} // namespace pgk::cuda

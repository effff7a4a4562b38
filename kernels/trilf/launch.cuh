// Launch shape of the scalar trilf kernels (the block variant's is in block_internal.cuh).
#pragma once

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/launch.cuh"

namespace pgk::cuda::trilf::detail {

constexpr int kThreads = 256;
// Grid cap of the grid-stride loops, so that per-block partial results (deterministic
// reductions) stay few.
constexpr long long kMaxBlocks = 8192;

// Lanes per row for `entries` over `rows` rows: the fewest of 4, 8, 16, 32 that cover the average
// row (the propose kernels' sub-warps, the block contraction's).
inline int lanes_for_rows(long long entries, long long rows) {
  return lanes_covering(rows > 0 ? double(entries) / double(rows) : 0);
}

} // namespace pgk::cuda::trilf::detail

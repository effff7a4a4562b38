// Launch shape of the scalar trilf kernels (the block variant's is in block_internal.cuh).
#pragma once

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/launch.cuh"

namespace pgk::cuda::trilf::detail {

constexpr int kThreads = 256;
// Grid cap of the grid-stride loops, so that per-block partial results (deterministic
// reductions) stay few.
constexpr long long kMaxBlocks = 8192;

} // namespace pgk::cuda::trilf::detail

// The compaction step of the sampled list ranking (list_rank.cuh).
#include "kernels/common/list_rank.cuh"

#include <cub/device/device_scan.cuh>

#include "kernels/common/cub_temp.cuh"

namespace pgk::cuda::list_rank {
namespace {

__global__ void scatter_splitters(Index nv, const Index *flag, const Index *comp, Index *sp) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x)
    if (flag[v]) sp[comp[v]] = v;
}

} // namespace

Index compact_splitters(Index nv, const Index *flag, Index *comp, Index *sp, cudaStream_t s) {
  CubTemp(s).run([&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, flag, comp, nv + 1, s); });
  scatter_splitters<<<grid_for(nv, kThreads, kMaxBlocks), kThreads, 0, s>>>(nv, flag, comp, sp);
  PGK_CUDA_CHECK_LAUNCH();
  return read_scalar(comp + nv, s); // the splitter count (synchronizes)
}

} // namespace pgk::cuda::list_rank

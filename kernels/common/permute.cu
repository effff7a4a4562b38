// Gather/scatter through a permutation: one thread per element, grid-stride. Memory-bound:
// one read of the index, one (uncoalesced) read and one write of a double per element.
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/common/permute.hpp"

namespace pgk::cuda {
namespace {

constexpr int kThreads = 256;
constexpr long long kMaxBlocks = 8192;

__global__ void gather_kernel(const double *__restrict__ in, const Index *__restrict__ perm, double *__restrict__ out,
                              Index n) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x)
    out[k] = in[perm[k]];
}

__global__ void scatter_kernel(const double *__restrict__ in, const Index *__restrict__ perm, double *__restrict__ out,
                               Index n) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x)
    out[perm[k]] = in[k];
}

} // namespace

void gather(const double *in, const Index *perm, double *out, Index n, void *stream) {
  if (n == 0) return;
  gather_kernel<<<grid_for(n, kThreads, kMaxBlocks), kThreads, 0, as_stream(stream)>>>(in, perm, out, n);
  PGK_CUDA_CHECK_LAUNCH();
}

void scatter(const double *in, const Index *perm, double *out, Index n, void *stream) {
  if (n == 0) return;
  scatter_kernel<<<grid_for(n, kThreads, kMaxBlocks), kThreads, 0, as_stream(stream)>>>(in, perm, out, n);
  PGK_CUDA_CHECK_LAUNCH();
}

} // namespace pgk::cuda

// bench_aijcompound's L2 flush: one read of a buffer larger than L2 (200 MB against the H100's
// 50 MB) between the timed runs of the flushed rows. A read, not a memset: a memset leaves L2 full
// of dirty lines whose write-back would then be charged to the timed product.
#include "bench/aijcompound/flush.hpp"

#include "kernels/common/cuda_check.cuh"

namespace {

// XOR of the buffer per thread; stored only when it equals a value it (almost) never has, so the
// compiler must keep every load and the kernel writes nothing in practice.
__global__ void read_all(const uint4 *__restrict__ in, size_t n, unsigned int *sink)
{
  unsigned int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint4 v = in[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) *sink = acc;
}

} // namespace

namespace pgk::bench::aijcompound {

void FlushL2(const unsigned char *buf, std::size_t bytes, unsigned int *sink, cudaStream_t stream)
{
  int dev = 0, sms = 0;
  PGK_CUDA_CHECK(cudaGetDevice(&dev));
  PGK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  read_all<<<sms * 8, 256, 0, stream>>>(reinterpret_cast<const uint4 *>(buf), bytes / sizeof(uint4), sink);
  PGK_CUDA_CHECK_LAUNCH();
}

} // namespace pgk::bench::aijcompound

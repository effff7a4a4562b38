#include "kernels/common/cuda_check.cuh"
#include "kernels/common/kernels.hpp"

#include <cstdio>

namespace pgk::cuda {

int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError(); // clear the sticky "no driver" error so later queries are clean
    return 0;
  }
  return n;
}

std::string current_device_description() {
  int dev = 0;
  PGK_CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  PGK_CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  char buf[320];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %d SMs, %.1f GiB)", p.name, p.major, p.minor, p.multiProcessorCount,
                p.totalGlobalMem / 1073741824.0);
  return buf;
}

} // namespace pgk::cuda

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

DeviceProbe probe_devices() {
  DeviceProbe probe;
  // Versions first: they explain the count's error (an old driver under a newer runtime). Both
  // calls work without a device; their failures only leave the version at 0.
  if (cudaDriverGetVersion(&probe.driver_version) != cudaSuccess) probe.driver_version = 0;
  if (cudaRuntimeGetVersion(&probe.runtime_version) != cudaSuccess) probe.runtime_version = 0;
  const cudaError_t err = cudaGetDeviceCount(&probe.count);
  if (err != cudaSuccess) {
    probe.count = 0;
    probe.error = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
    (void)cudaGetLastError(); // clear the sticky "no driver" error so later queries are clean
  } else if (probe.count == 0) {
    probe.error = "cudaGetDeviceCount() succeeded but reports 0 devices";
  }
  return probe;
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

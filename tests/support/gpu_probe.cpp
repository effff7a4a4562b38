// Exit 0 and name the device when a CUDA device is usable; exit 1 with the reason otherwise.
// check_run.sh uses it to skip (not pass) GPU tests on machines without one.
#include <cstdio>
#include <exception>

#include "kernels/common/kernels.hpp"

int main() {
  const int n = pgk::cuda::device_count();
  if (n == 0) {
    std::puts("cudaGetDeviceCount() reports no device (no driver, or no GPU)");
    return 1;
  }
  try {
    std::printf("%d device(s); current: %s\n", n, pgk::cuda::current_device_description().c_str());
  } catch (const std::exception &e) {
    std::printf("device query failed: %s\n", e.what());
    return 1;
  }
  return 0;
}

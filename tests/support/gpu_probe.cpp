// Exit 0 and name the device when a CUDA device is usable; exit 1 with the reason otherwise:
// the CUDA runtime's error name and text, the driver and runtime versions, and the device
// visibility variables, so that a skipped (or, with PGK_REQUIRE_GPU=1, failed) GPU test says
// why. check_run.sh uses it to skip (not pass) GPU tests on machines without a device.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "kernels/common/kernels.hpp"

namespace {

std::string version_text(int v) {
  if (v == 0) return "none";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

} // namespace

int main() {
  const pgk::cuda::DeviceProbe probe = pgk::cuda::probe_devices();
  const std::string versions =
      "driver " + version_text(probe.driver_version) + ", runtime " + version_text(probe.runtime_version);
  if (probe.count == 0) {
    std::string visible;
    for (const char *var : {"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES"}) {
      if (const char *value = std::getenv(var)) visible += std::string(", ") + var + "=" + value;
    }
    std::printf("%s (%s%s)\n", probe.error.c_str(), versions.c_str(), visible.c_str());
    return 1;
  }
  try {
    std::printf("%d device(s); current: %s (%s)\n", probe.count, pgk::cuda::current_device_description().c_str(),
                versions.c_str());
  } catch (const std::exception &e) {
    std::printf("device query failed: %s (%s)\n", e.what(), versions.c_str());
    return 1;
  }
  return 0;
}

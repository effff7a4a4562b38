#pragma once
#include <cstddef>
#include <vector>

namespace pgk::bench {
struct CopyTimes {
  std::vector<double> memcpy_seconds, kernel_seconds; // one entry per timed run
};
// Copies `bytes` device-to-device; throws std::runtime_error on CUDA failure.
CopyTimes measure_device_copy(std::size_t bytes, int warmup, int runs);
} // namespace pgk::bench

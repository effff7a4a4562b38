// What every device test shares: the device probe and the fixture that skips (or, with
// PGK_REQUIRE_GPU=1, fails) without a usable device, a host CSR uploaded to device arrays, and
// copies back. Main (gpu_main.cpp) installs the probe as a global test environment.
#pragma once

#include "src/common/csr.hpp"
#include "kernels/common/transfer.hpp"
#include "kernels/common/device_buffer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pgk::test {

using pgk::cuda::DeviceBuffer;

// The result of the probe: a usable device (described), or the reason there is none.
struct DeviceStatus {
  bool usable = false;
  std::string description; // "NVIDIA H100 ... (sm_90, ...)" when usable
  std::string reason;      // why not, with the CUDA error text
};
const DeviceStatus &device_status(); // probes once
// PGK_REQUIRE_GPU=1 (the GPU node): a missing device is a failure, not a skip.
bool gpu_required();

// Base of every device test: SetUp skips the test with the probe's reason when there is no
// usable device, or fails it when PGK_REQUIRE_GPU=1.
class GpuTest : public ::testing::Test {
protected:
  void SetUp() override;
};

// A host CSR on the device. Pointers are never null (the buffer allocates at least one
// entry); view.values is null for a pattern (or when with_values is false), which the
// primitives read as "all ones".
struct DeviceCsr {
  DeviceBuffer<Index> rowptr, colidx;
  DeviceBuffer<double> values;
  CsrView view{};
  explicit DeviceCsr(const Csr &a, bool with_values = true);
};

// n entries of a device array, copied to the host.
template <class T> std::vector<T> download(const T *device, std::size_t n) {
  std::vector<T> h(n);
  pgk::cuda::copy_to_host(h.data(), device, n * sizeof(T), nullptr);
  return h;
}

// The pattern and values of a device CSR view back on the host (values only if present).
Csr download(const CsrView &d);

} // namespace pgk::test

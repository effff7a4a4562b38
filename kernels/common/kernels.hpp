// Host-callable interface of the CUDA kernels. Plain C++: no CUDA headers, so that the PETSc
// layer (compiled by the host compiler) can call it. Streams are passed as void* holding a
// cudaStream_t. Every function throws pgk::cuda::Error (a std::runtime_error) on CUDA failure.
#pragma once

#include <string>

#include "src/common/csr.hpp"
#include "src/common/csr_check.hpp"

namespace pgk::cuda {

// Number of usable devices; 0 (never an exception) when there is no driver or no device.
int device_count() noexcept;
// What the CUDA runtime says about the devices, for messages that explain a missing device:
// `error` is empty when `count` > 0, otherwise e.g. "cudaErrorInsufficientDriver: CUDA driver
// version is insufficient for CUDA runtime version". Versions are CUDA's integers (13000 =
// 13.0); driver_version 0 means no driver was found.
struct DeviceProbe {
  int count = 0;
  std::string error;
  int driver_version = 0;
  int runtime_version = 0;
};
DeviceProbe probe_devices();
// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB)" for the current device.
std::string current_device_description();

// Device version of pgk::check_csr: same counts for the same arrays. `a` holds device
// pointers (values may be null). Synchronizes `stream` to return the counts. Host <-> device
// copies: none for nrows = 0, otherwise 1 to the host (the record of the six counts).
CsrCheck check_csr(const CsrView &a, void *stream);

} // namespace pgk::cuda

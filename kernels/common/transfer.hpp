// The one way kernels/ moves data between host and device memory. Every copy goes through
// copy_to_device / copy_to_host, which report it to a logger the PETSc layer installs
// (PETSc's CpuToGpu / GpuToCpu counts, -log_view), so the tests can assert the exact traffic of
// each operation: an array or a single scalar flag counts as one copy of its bytes.
// Plain C++ (no CUDA headers): the PETSc layer and the tests include it.
#pragma once

#include <cstddef>

namespace pgk::cuda {

enum class CopyDirection { HostToDevice, DeviceToHost };

// Called once per copy, after it was enqueued; must not throw. nullptr: copies are not logged
// (the default, e.g. in the kernel tests, which need no PETSc).
using TransferLogger = void (*)(CopyDirection direction, std::size_t bytes);
void set_transfer_logger(TransferLogger logger) noexcept;
TransferLogger transfer_logger() noexcept;

// Copies `bytes` bytes on `stream` (a cudaStream_t as void*) and waits for the copy: the data is
// usable when the call returns. A zero-byte copy does nothing and is not logged.
void copy_to_device(void *device_dst, const void *host_src, std::size_t bytes, void *stream);
void copy_to_host(void *host_dst, const void *device_src, std::size_t bytes, void *stream);

// One value from device memory (a count, a flag): a logged copy_to_host of sizeof(T) bytes.
template <class T> T read_scalar(const T *device_ptr, void *stream) {
  T value{};
  copy_to_host(&value, device_ptr, sizeof(T), stream);
  return value;
}

} // namespace pgk::cuda

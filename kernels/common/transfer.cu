// Logged host <-> device copies (transfer.hpp).
#include "kernels/common/transfer.hpp"

#include <cuda_runtime.h>

#include <atomic>

#include "kernels/common/cuda_check.cuh"

namespace pgk::cuda {
namespace {
// Installed once at package initialization and read by every copy, possibly from several host
// threads: an atomic keeps the read well defined.
std::atomic<TransferLogger> g_logger{nullptr};

void copy(void *dst, const void *src, std::size_t bytes, cudaMemcpyKind kind, CopyDirection dir, void *stream) {
  if (bytes == 0) return;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  PGK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, s));
  if (TransferLogger log = g_logger.load(std::memory_order_acquire)) log(dir, bytes);
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));
}
} // namespace

void set_transfer_logger(TransferLogger logger) noexcept { g_logger.store(logger, std::memory_order_release); }
TransferLogger transfer_logger() noexcept { return g_logger.load(std::memory_order_acquire); }

void copy_to_device(void *device_dst, const void *host_src, std::size_t bytes, void *stream) {
  copy(device_dst, host_src, bytes, cudaMemcpyHostToDevice, CopyDirection::HostToDevice, stream);
}

void copy_to_host(void *host_dst, const void *device_src, std::size_t bytes, void *stream) {
  copy(host_dst, device_src, bytes, cudaMemcpyDeviceToHost, CopyDirection::DeviceToHost, stream);
}

} // namespace pgk::cuda

// pgk::cuda::DeviceAllocation (device_buffer.hpp): the untyped owner behind DeviceBuffer<T>.
#include "kernels/common/device_buffer.hpp"

#include "kernels/common/cuda_check.cuh"

namespace pgk::cuda {

void DeviceAllocation::release() noexcept {
  if (!data_) return;
  // A failed free leaks; destructors never throw.
  if (stream_ordered_) (void)cudaFreeAsync(data_, static_cast<cudaStream_t>(stream_));
  else (void)cudaFree(data_);
  data_ = nullptr;
  capacity_ = 0;
}

void DeviceAllocation::allocate(std::size_t bytes) {
  if (bytes <= capacity_ && data_) return;
  void *p = nullptr;
  PGK_CUDA_CHECK(cudaMalloc(&p, bytes));
  DeviceAllocation fresh;
  fresh.data_ = p;
  fresh.capacity_ = bytes;
  swap(fresh); // the old storage, if any, is freed with `fresh`
}

void DeviceAllocation::allocate_async(std::size_t bytes, void *stream) {
  void *p = nullptr;
  PGK_CUDA_CHECK(cudaMallocAsync(&p, bytes, static_cast<cudaStream_t>(stream)));
  DeviceAllocation fresh;
  fresh.data_ = p;
  fresh.capacity_ = bytes;
  fresh.stream_ = stream;
  fresh.stream_ordered_ = true;
  swap(fresh); // the old storage, if any, is freed with `fresh`
}

} // namespace pgk::cuda

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_csr.hpp"

namespace pgk::cuda {

DeviceIndexArray::~DeviceIndexArray() {
  if (data_) (void)cudaFree(data_);
}

void DeviceIndexArray::allocate(Index n) {
  DeviceIndexArray fresh;
  PGK_CUDA_CHECK(cudaMalloc(&fresh.data_, sizeof(Index) * static_cast<size_t>(n > 0 ? n : 1)));
  fresh.size_ = n;
  swap(fresh); // the old array, if any, is freed with `fresh`
}

void DeviceIndexArray::upload(const Index *host, Index n, void *stream) {
  allocate(n);
  if (n == 0) return;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  PGK_CUDA_CHECK(cudaMemcpyAsync(data_, host, sizeof(Index) * static_cast<size_t>(n), cudaMemcpyHostToDevice, s));
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));
}

} // namespace pgk::cuda

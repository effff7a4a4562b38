// pgk::cuda::trilf::DeviceBuffer<T> (trilf_primitives.hpp): an owning device array. Defined
// here, once, for the element types the trilf pipeline stores; other .cu files only see the
// declaration, so a new element type needs a line at the bottom.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/common/cuda_check.cuh"
#include "kernels/trilf/primitives.hpp"

namespace pgk::cuda::trilf {

template <class T> DeviceBuffer<T>::~DeviceBuffer() {
  if (data_) (void)cudaFree(data_); // a failed free leaks; destructors never throw
}

template <class T> void DeviceBuffer<T>::allocate(std::size_t n) {
  if (n <= capacity_ && data_) {
    size_ = n;
    return;
  }
  DeviceBuffer fresh;
  // At least one element, so data() is never null (kernels may be handed it for n == 0).
  PGK_CUDA_CHECK(cudaMalloc(&fresh.data_, sizeof(T) * (n > 0 ? n : 1)));
  fresh.size_ = n;
  fresh.capacity_ = n > 0 ? n : 1;
  swap(fresh); // the old storage, if any, is freed with `fresh`
}

template <class T> void DeviceBuffer<T>::upload(const T *host, std::size_t n, void *stream) {
  allocate(n);
  if (n == 0) return;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  PGK_CUDA_CHECK(cudaMemcpyAsync(data_, host, sizeof(T) * n, cudaMemcpyHostToDevice, s));
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));
}

template <class T> std::vector<T> DeviceBuffer<T>::download(void *stream) const {
  std::vector<T> h(size_);
  if (size_ == 0) return h;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  PGK_CUDA_CHECK(cudaMemcpyAsync(h.data(), data_, sizeof(T) * size_, cudaMemcpyDeviceToHost, s));
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));
  return h;
}

// Index is std::int32_t (== int) or std::int64_t: instantiating both integer widths covers
// it without naming Index twice.
template class DeviceBuffer<std::int32_t>;
template class DeviceBuffer<std::int64_t>;
template class DeviceBuffer<double>;
template class DeviceBuffer<unsigned char>;
template class DeviceBuffer<unsigned long long>;

} // namespace pgk::cuda::trilf

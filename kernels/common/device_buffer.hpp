// The one owning device buffer of kernels/ and its callers: DeviceBuffer<T>, move-only, freed
// when it goes out of scope. Plain C++ (no CUDA headers): the PETSc layer and the tests use it.
//
// Two ways to allocate:
//   * synchronous (allocate(n), DeviceBuffer(n)): cudaMalloc, freed with cudaFree. allocate keeps
//     the storage when n fits the capacity, so a buffer reused across calls is allocated once;
//   * stream-ordered (allocate_async(n, stream), DeviceBuffer(n, stream)): cudaMallocAsync on
//     `stream`, freed with cudaFreeAsync on the same stream, for the temporaries of one call:
//     no cudaMalloc cost and no implicit device synchronization of cudaFree, and their reuse is
//     ordered by the stream.
// Either way at least one element is allocated, so data() is never null once allocated (a
// kernel may be handed it for n == 0, and CUB reads a null temporary-storage pointer as a size
// query). A default-constructed buffer holds nothing: data() == nullptr, size() == 0.
//
// Host <-> device copies go through transfer.hpp (logged, synchronous): upload (one copy of n
// entries), download (one copy of size() entries), get (one copy of one entry); none copies
// anything for zero entries. Allocation failures throw pgk::cuda::Error; the destructor never
// throws (a failed free leaks).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "kernels/common/transfer.hpp"

namespace pgk::cuda {

// Untyped owner behind DeviceBuffer<T> (defined in device_buffer.cu, so any T works).
class DeviceAllocation {
public:
  DeviceAllocation() = default;
  DeviceAllocation(const DeviceAllocation &) = delete;
  DeviceAllocation &operator=(const DeviceAllocation &) = delete;
  DeviceAllocation(DeviceAllocation &&o) noexcept { swap(o); }
  // Swaps: the old storage is freed with the moved-from object.
  DeviceAllocation &operator=(DeviceAllocation &&o) noexcept {
    swap(o);
    return *this;
  }
  ~DeviceAllocation() { release(); }

  // `bytes` (> 0) with cudaMalloc; keeps the current storage when bytes <= capacity().
  void allocate(std::size_t bytes);
  // `bytes` (> 0) with cudaMallocAsync on `stream` (a cudaStream_t as void*); always new
  // storage (the old one is freed as by the destructor).
  void allocate_async(std::size_t bytes, void *stream);

  void *data() const { return data_; }
  std::size_t capacity() const { return capacity_; } // bytes

  void swap(DeviceAllocation &o) noexcept {
    std::swap(data_, o.data_);
    std::swap(capacity_, o.capacity_);
    std::swap(stream_, o.stream_);
    std::swap(stream_ordered_, o.stream_ordered_);
  }

private:
  void release() noexcept; // cudaFree, or cudaFreeAsync on the allocating stream
  void *data_ = nullptr;
  std::size_t capacity_ = 0;
  void *stream_ = nullptr;
  bool stream_ordered_ = false;
};

template <class T> class DeviceBuffer {
public:
  DeviceBuffer() = default;
  // n entries (contents undefined), synchronous allocation.
  explicit DeviceBuffer(std::size_t n) { allocate(n); }
  // n entries (contents undefined), stream-ordered on `stream` (a cudaStream_t as void*).
  DeviceBuffer(std::size_t n, void *stream) { allocate_async(n, stream); }

  // n entries, contents undefined; keeps the storage when n <= capacity.
  void allocate(std::size_t n) {
    mem_.allocate(sizeof(T) * (n > 0 ? n : 1));
    size_ = n;
  }
  // n entries, contents undefined, new stream-ordered storage.
  void allocate_async(std::size_t n, void *stream) {
    mem_.allocate_async(sizeof(T) * (n > 0 ? n : 1), stream);
    size_ = n;
  }
  // allocate(n), then one copy of n entries to the device (synchronous on `stream`).
  void upload(const T *host, std::size_t n, void *stream) {
    allocate(n);
    copy_to_device(data(), host, sizeof(T) * n, stream);
  }
  // The size() entries, in one copy to the host (synchronous on `stream`).
  std::vector<T> download(void *stream) const {
    std::vector<T> h(size_);
    copy_to_host(h.data(), data(), sizeof(T) * size_, stream);
    return h;
  }
  // Entry i, in one copy to the host (read_scalar, synchronous on `stream`).
  T get(std::size_t i, void *stream) const { return read_scalar(data() + i, stream); }

  T *data() { return static_cast<T *>(mem_.data()); }
  const T *data() const { return static_cast<const T *>(mem_.data()); }
  std::size_t size() const { return size_; }

  DeviceBuffer(DeviceBuffer &&o) noexcept { swap(o); }
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept {
    swap(o);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

private:
  void swap(DeviceBuffer &o) noexcept {
    mem_.swap(o.mem_);
    std::swap(size_, o.size_);
  }
  DeviceAllocation mem_;
  std::size_t size_ = 0;
};

} // namespace pgk::cuda

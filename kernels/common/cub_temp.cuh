// CUB's device-wide algorithms take their temporary storage in two calls: a size query (null
// storage), then the run. The two ways the kernels hold that storage, written once:
//   CubTemp(s).run(f)        stream-ordered storage of its own (cudaMallocAsync on s), grown when a
//                            call needs more; one object serves a sequence of calls (an ordering's
//                            rounds), and a temporary one a single call;
//   cub_run(scratch, f)      the caller's DeviceBuffer, kept across calls (a set-up's scratch,
//                            allocated once and grown in place).
// f(void *temp, std::size_t &bytes) -> cudaError_t: one CUB device algorithm on its stream.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_buffer.hpp"

namespace pgk::cuda {

class CubTemp {
public:
  explicit CubTemp(cudaStream_t s) : stream_(s) {}
  template <class F> void run(F f) {
    std::size_t bytes = 0;
    PGK_CUDA_CHECK(f(static_cast<void *>(nullptr), bytes));
    // Never null (DeviceBuffer allocates at least one byte): CUB reads null as a size query. A
    // replaced buffer is freed stream-ordered, after the work that used it.
    if (buffer_.data() == nullptr || bytes > buffer_.size())
      buffer_ = DeviceBuffer<unsigned char>(bytes + bytes / 4, stream_);
    PGK_CUDA_CHECK(f(static_cast<void *>(buffer_.data()), bytes));
  }
  cudaStream_t stream() const { return stream_; }

private:
  cudaStream_t stream_;
  DeviceBuffer<unsigned char> buffer_;
};

template <class F> void cub_run(DeviceBuffer<unsigned char> &scratch, F f) {
  std::size_t bytes = 0;
  PGK_CUDA_CHECK(f(static_cast<void *>(nullptr), bytes));
  if (scratch.data() == nullptr || bytes > scratch.size()) scratch.allocate(bytes > 0 ? bytes : 1);
  PGK_CUDA_CHECK(f(static_cast<void *>(scratch.data()), bytes));
}

} // namespace pgk::cuda

// Device copy bandwidth: the denominator of every "fraction of the memory floor" figure.
// Two measurements: cudaMemcpyAsync device-to-device and a plain grid-stride 16-byte copy
// kernel; bytes counted as read + written.
#include "bench/common/copy_bandwidth.hpp"

#include <cuda_runtime.h>

#include "kernels/common/event_timer.hpp"

#include <stdexcept>
#include <string>

namespace {
#define CHECK(call)                                                                                                                                                                                                                                      \
  do {                                                                                                                                                                                                                                                   \
    cudaError_t e_ = (call);                                                                                                                                                                                                                             \
    if (e_ != cudaSuccess) throw std::runtime_error(std::string(#call) + ": " + cudaGetErrorString(e_));                                                                                                                                                 \
  } while (0)

__global__ void copy_kernel(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n)
{
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) out[i] = in[i];
}
} // namespace

namespace pgk::bench {

CopyTimes measure_device_copy(size_t bytes, int warmup, int runs)
{
  CopyTimes r;
  void     *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMemset(a, 1, bytes)); // never time on untouched memory
  CHECK(cudaMemset(b, 2, bytes));
  pgk::cuda::EventTimer timer(2); // on the default stream
  int                   dev, sms;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const size_t n4 = bytes / sizeof(float4);
  for (int kind = 0; kind < 2; ++kind) {
    for (int i = 0; i < warmup + runs; ++i) {
      timer.record(0, nullptr);
      if (kind == 0) CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice));
      else {
        copy_kernel<<<sms * 8, 512>>>(static_cast<const float4 *>(a), static_cast<float4 *>(b), n4);
        CHECK(cudaGetLastError());
      }
      timer.record(1, nullptr);
      const double ms = timer.ms(0, 1);
      if (i >= warmup) (kind == 0 ? r.memcpy_seconds : r.kernel_seconds).push_back(ms * 1e-3);
    }
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return r;
}

} // namespace pgk::bench

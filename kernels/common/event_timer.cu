// pgk::cuda::EventTimer (event_timer.hpp).
#include "kernels/common/event_timer.hpp"

#include "kernels/common/cuda_check.cuh"

namespace pgk::cuda {

namespace {
cudaEvent_t event(void *e) { return static_cast<cudaEvent_t>(e); }

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void wait_ns(unsigned long long ns) {
  const unsigned long long t0 = global_ns();
  while (global_ns() - t0 < ns) __nanosleep(1000);
}
} // namespace

void hold_stream(void *stream, double microseconds) {
  const double ns = microseconds > 0 ? microseconds * 1e3 : 0.0;
  wait_ns<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(static_cast<unsigned long long>(ns));
  PGK_CUDA_CHECK_LAUNCH();
}

EventTimer::EventTimer(int marks) {
  events_.reserve(marks > 0 ? static_cast<std::size_t>(marks) : 0);
  for (int i = 0; i < marks; ++i) {
    cudaEvent_t e = nullptr;
    const cudaError_t err = cudaEventCreate(&e);
    if (err != cudaSuccess) {
      for (void *made : events_) (void)cudaEventDestroy(event(made)); // no destructor runs
      throw_error(err, "cudaEventCreate(&e)", __FILE__, __LINE__);
    }
    events_.push_back(e);
  }
}

EventTimer::~EventTimer() {
  for (void *e : events_) (void)cudaEventDestroy(event(e)); // never throws from a destructor
}

void EventTimer::record(int i, void *stream) {
  PGK_CUDA_CHECK(cudaEventRecord(event(events_.at(static_cast<std::size_t>(i))), static_cast<cudaStream_t>(stream)));
}

double EventTimer::ms(int from, int to) const {
  cudaEvent_t a = event(events_.at(static_cast<std::size_t>(from))),
              b = event(events_.at(static_cast<std::size_t>(to)));
  float t = 0;
  PGK_CUDA_CHECK(cudaEventSynchronize(b));
  PGK_CUDA_CHECK(cudaEventElapsedTime(&t, a, b));
  return t;
}

} // namespace pgk::cuda

// pgk::cuda::SideStream (side_stream.hpp).
#include "kernels/common/side_stream.hpp"

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/launch.cuh"

namespace pgk::cuda {

namespace {
cudaEvent_t as_event(void *e) { return static_cast<cudaEvent_t>(e); }
} // namespace

SideStream::~SideStream() {
  if (forked_) (void)cudaEventDestroy(as_event(forked_)); // never throws from a destructor
  if (joined_) (void)cudaEventDestroy(as_event(joined_));
  if (stream_) (void)cudaStreamDestroy(as_stream(stream_));
}

void *SideStream::fork(void *main) {
  if (!stream_) {
    cudaStream_t s = nullptr;
    cudaEvent_t a = nullptr, b = nullptr;
    PGK_CUDA_CHECK(cudaEventCreateWithFlags(&a, cudaEventDisableTiming));
    forked_ = a;
    PGK_CUDA_CHECK(cudaEventCreateWithFlags(&b, cudaEventDisableTiming));
    joined_ = b;
    PGK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    stream_ = s;
  }
  PGK_CUDA_CHECK(cudaEventRecord(as_event(forked_), as_stream(main)));
  PGK_CUDA_CHECK(cudaStreamWaitEvent(as_stream(stream_), as_event(forked_), 0));
  return stream_;
}

void SideStream::join(void *main) {
  if (!stream_) return; // never forked: nothing to wait for
  PGK_CUDA_CHECK(cudaEventRecord(as_event(joined_), as_stream(stream_)));
  PGK_CUDA_CHECK(cudaStreamWaitEvent(as_stream(main), as_event(joined_), 0));
}

} // namespace pgk::cuda

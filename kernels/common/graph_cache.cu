// pgk::cuda::GraphCache (graph_cache.hpp).
#include "kernels/common/graph_cache.hpp"

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/launch.cuh"

namespace pgk::cuda {

namespace {
cudaGraphExec_t as_exec(void *e) { return static_cast<cudaGraphExec_t>(e); }
} // namespace

GraphCache::~GraphCache() {
  for (const Entry &e : entries_) (void)cudaGraphExecDestroy(as_exec(e.exec)); // never throws
  if (capture_) (void)cudaStreamDestroy(as_stream(capture_));
}

void *GraphCache::begin_capture() {
  if (!capture_) {
    cudaStream_t s = nullptr;
    PGK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    capture_ = s;
  }
  // Thread-local: another thread's unrelated CUDA calls are not this capture's business.
  PGK_CUDA_CHECK(cudaStreamBeginCapture(as_stream(capture_), cudaStreamCaptureModeThreadLocal));
  return capture_;
}

void *GraphCache::end_capture() {
  cudaGraph_t graph = nullptr;
  PGK_CUDA_CHECK(cudaStreamEndCapture(as_stream(capture_), &graph));
  cudaGraphExec_t exec = nullptr;
  const cudaError_t instantiated = cudaGraphInstantiate(&exec, graph, 0);
  (void)cudaGraphDestroy(graph); // the executable graph keeps what it needs
  PGK_CUDA_CHECK(instantiated);
  return exec;
}

void GraphCache::abandon_capture() {
  cudaGraph_t graph = nullptr;
  if (cudaStreamEndCapture(as_stream(capture_), &graph) == cudaSuccess && graph) (void)cudaGraphDestroy(graph);
  (void)cudaGetLastError(); // a failed capture's error is not sticky; do not leave it for the next check
}

void GraphCache::launch(void *exec, void *stream) {
  PGK_CUDA_CHECK(cudaGraphLaunch(as_exec(exec), as_stream(stream)));
  ++launches_;
}

} // namespace pgk::cuda

// Device helpers shared by the trilf kernels (kernels/trilf_*.cu): launch sizes, Index
// atomics, binary search in a sorted CSR row, and a small pinned host buffer for the
// per-step convergence flags of the scans.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "src/common/csr.hpp"
#include "kernels/common/cuda_check.cuh"

namespace pgk::cuda::trilf::detail {

constexpr int kThreads = 256;

// Grid for a grid-stride loop over n items: enough blocks to fill the device, capped so
// that per-block partial results (deterministic reductions) stay few.
inline int grid_for(long long n, int threads = kThreads, int cap = 8192) {
  const long long blocks = (n + threads - 1) / threads;
  return static_cast<int>(blocks < cap ? (blocks > 0 ? blocks : 1) : cap);
}

inline cudaStream_t as_stream(void *s) { return static_cast<cudaStream_t>(s); }

__device__ inline Index atomic_add_index(Index *p, Index v) {
  if constexpr (sizeof(Index) == 8)
    return static_cast<Index>(atomicAdd(reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(v)));
  else
    return static_cast<Index>(atomicAdd(reinterpret_cast<unsigned int *>(p), static_cast<unsigned int>(v)));
}

// Position of `col` in the sorted row `row`, or -1.
__device__ inline Index find_in_row(const Index *rowptr, const Index *colidx, Index row, Index col) {
  Index lo = rowptr[row], hi = rowptr[row + 1];
  while (lo < hi) {
    const Index mid = lo + (hi - lo) / 2;
    const Index c = colidx[mid];
    if (c == col) return mid;
    if (c < col) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

// Pinned host words the scans copy their per-step flags into, so the host can test the
// flag of step s-1 while step s runs (one step of look-ahead, no stall per step).
class PinnedWords {
public:
  explicit PinnedWords(std::size_t n) { PGK_CUDA_CHECK(cudaMallocHost(&p_, sizeof(unsigned long long) * (n ? n : 1))); }
  ~PinnedWords() { if (p_) (void)cudaFreeHost(p_); }
  PinnedWords(const PinnedWords &) = delete;
  PinnedWords &operator=(const PinnedWords &) = delete;
  unsigned long long *data() { return p_; }
  unsigned long long &operator[](std::size_t i) { return p_[i]; }

private:
  unsigned long long *p_ = nullptr;
};

// Events for the look-ahead flag test, created and destroyed with the object.
class EventRing {
public:
  explicit EventRing(int n) : n_(n) {
    ev_ = new cudaEvent_t[n]();
    for (int i = 0; i < n; ++i) PGK_CUDA_CHECK(cudaEventCreateWithFlags(&ev_[i], cudaEventDisableTiming));
  }
  ~EventRing() {
    for (int i = 0; i < n_; ++i)
      if (ev_[i]) (void)cudaEventDestroy(ev_[i]);
    delete[] ev_;
  }
  EventRing(const EventRing &) = delete;
  EventRing &operator=(const EventRing &) = delete;
  cudaEvent_t operator[](int i) const { return ev_[i % n_]; }

private:
  int n_;
  cudaEvent_t *ev_;
};

// ceil(log2 n) for n >= 1 (0 for n <= 1): pointer-jumping steps that cover n - 1 hops.
inline int ceil_log2(long long n) {
  int s = 0;
  while ((1LL << s) < n) ++s;
  return s;
}

} // namespace pgk::cuda::trilf::detail

namespace pgk::cuda::trilf::detail {

// Stream-ordered scratch (cudaMallocAsync / cudaFreeAsync on the pipeline's stream): the
// temporaries of a setup step neither pay cudaMalloc's cost nor cudaFree's implicit device
// synchronization, and their reuse is ordered by the stream.
template <class T> class AsyncBuffer {
public:
  AsyncBuffer(std::size_t n, cudaStream_t s) : s_(s) {
    PGK_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void **>(&p_), sizeof(T) * (n ? n : 1), s));
  }
  ~AsyncBuffer() {
    if (p_) (void)cudaFreeAsync(p_, s_);
  }
  AsyncBuffer(const AsyncBuffer &) = delete;
  AsyncBuffer &operator=(const AsyncBuffer &) = delete;
  T *data() const { return p_; }
  // Entry i, copied to the host (synchronizes the stream).
  T get(std::size_t i) const {
    T h{};
    PGK_CUDA_CHECK(cudaMemcpyAsync(&h, p_ + i, sizeof(T), cudaMemcpyDeviceToHost, s_));
    PGK_CUDA_CHECK(cudaStreamSynchronize(s_));
    return h;
  }

private:
  T *p_ = nullptr;
  cudaStream_t s_;
};

} // namespace pgk::cuda::trilf::detail

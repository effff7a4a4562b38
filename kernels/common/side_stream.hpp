// A second stream for work that overlaps what the main stream does meanwhile, e.g. a rank's
// local product while PETSc's scatter moves the halo on its own stream (whose host staging
// synchronizes only that stream). fork() queues nothing on main: it makes the side stream wait
// for everything main has queued so far and returns it; join() makes main wait for everything the
// side stream has queued so far. Created at the first fork() on the current device; non-blocking
// with respect to the legacy default stream. Plain C++ (no CUDA headers); streams are
// cudaStream_t as void*. fork/join throw pgk::cuda::Error; the destructor never throws.
#pragma once

namespace pgk::cuda {

class SideStream {
public:
  SideStream() = default;
  ~SideStream();
  SideStream(const SideStream &) = delete;
  SideStream &operator=(const SideStream &) = delete;

  void *fork(void *main); // the side stream, now ordered after main's work so far
  void join(void *main);  // main ordered after the side stream's work so far

private:
  void *stream_ = nullptr, *forked_ = nullptr, *joined_ = nullptr; // cudaStream_t, cudaEvent_t x2
};

} // namespace pgk::cuda

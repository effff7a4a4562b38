// The one CUDA-event timer: marks recorded on a stream, elapsed milliseconds between two marks
// once the stream has reached the later one. Used by the phase timers of the device pipelines
// and by bench/. Plain C++ (no CUDA headers); streams are cudaStream_t as void*.
// Creation and queries throw pgk::cuda::Error; the destructor never throws.
#pragma once

#include <vector>

namespace pgk::cuda {

class EventTimer {
public:
  // `marks` events (timing enabled), created now.
  explicit EventTimer(int marks);
  ~EventTimer();
  EventTimer(const EventTimer &) = delete;
  EventTimer &operator=(const EventTimer &) = delete;

  // Records mark i on `stream` (a later record of the same mark replaces it).
  void record(int i, void *stream);
  // Milliseconds from mark `from` to mark `to`; waits until `to` has completed.
  double ms(int from, int to) const;

private:
  std::vector<void *> events_; // cudaEvent_t
};

} // namespace pgk::cuda

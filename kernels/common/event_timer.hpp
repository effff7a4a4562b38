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

// Queues a kernel that only waits `microseconds` on `stream` (one thread, no memory access).
// Why: a mark recorded on an idle stream is reached at once, and the span to the next mark
// then includes the host's time to launch the timed work (5-10 us, a sixth of a 30 us SpMV).
// Queued in front of the first mark, the wait keeps the device busy while the host launches,
// so the span is the device's time for the work, as in a solver loop whose launches queue
// up behind each other. A host synchronization inside the timed work still shows: the device
// idles until the host launches again. Throws pgk::cuda::Error.
void hold_stream(void *stream, double microseconds);

} // namespace pgk::cuda

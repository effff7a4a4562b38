// A fixed sequence of stream work replayed as one CUDA graph launch. A solver loop that queues the
// same dozens of small kernels every iteration on the same arrays (carpcg's double sweep: one
// kernel per colour and direction) pays the host's launch cost for each of them; replayed from a
// graph it pays one launch, and the device runs the kernels back to back.
//
// run(key, stream, enqueue): the first time a key is seen, enqueue(s) is called on a private
// capture stream s (non-blocking, so PETSc's stream may be the legacy default stream, where capture
// is not allowed), captured and instantiated; then, and on every later call with that key, the
// graph is launched on `stream`, ordered after what `stream` holds. The key names everything the
// work depends on that may change between calls (the arrays' addresses); the work must not
// depend on anything else that changes (scalars passed by value are baked into the graph). Beyond
// `capacity` keys, enqueue(stream) runs directly. Same kernels in the same order: the same bits as
// the direct launches. Plain C++ (no CUDA headers); streams are cudaStream_t as void*. run
// throws pgk::cuda::Error (or what enqueue throws; the capture is ended first); the
// destructor never throws.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace pgk::cuda {

class GraphCache {
public:
  using Key = std::array<const void *, 4>;

  explicit GraphCache(std::size_t capacity = 4) : capacity_(capacity) {}
  ~GraphCache();
  GraphCache(const GraphCache &) = delete;
  GraphCache &operator=(const GraphCache &) = delete;

  template <class Enqueue> void run(const Key &key, void *stream, Enqueue &&enqueue) {
    for (const Entry &e : entries_)
      if (e.key == key) return launch(e.exec, stream);
    if (entries_.size() >= capacity_) return enqueue(stream);
    void *s = begin_capture();
    try {
      enqueue(s);
    } catch (...) {
      abandon_capture();
      throw;
    }
    entries_.push_back({key, end_capture()});
    launch(entries_.back().exec, stream);
  }
  std::size_t graphs() const { return entries_.size(); } // for tests and -ksp_view
  std::size_t launches() const { return launches_; }     // graph launches so far

private:
  struct Entry {
    Key key;
    void *exec; // cudaGraphExec_t
  };
  void *begin_capture();  // the capture stream, capturing
  void *end_capture();    // the instantiated graph of what was captured
  void abandon_capture(); // ends a capture after an error, drops what it held
  void launch(void *exec, void *stream);

  std::size_t capacity_, launches_ = 0;
  std::vector<Entry> entries_;
  void *capture_ = nullptr; // cudaStream_t
};

} // namespace pgk::cuda

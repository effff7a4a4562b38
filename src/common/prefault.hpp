// Faulting in a large, freshly allocated buffer on several threads before a serial fill. A big
// std::vector is value-initialised by one thread, and on Linux its first touch of every 4 KiB page
// (a page fault, the kernel zeroing the page) costs more than the fill itself: most of what is left
// of MatConvert to aijcompound once its passes are linear (bench/NOTES.md). The kernel populates the
// pages here, a share of the range per thread.
#pragma once

#include <cstddef>
#include <thread>
#include <vector>

namespace pgk {

class ThreadPool;

// Populates the pages of [p, p + bytes) for writing on the pool's threads (MADV_POPULATE_WRITE,
// Linux >= 5.14); changes no byte. Does nothing for small ranges, and where the call is not
// supported (the first touch then faults the pages in as usual).
void prefault(void *p, std::size_t bytes, ThreadPool &pool);

// n copies of `value`, the pages faulted in by the pool's threads before the one-thread fill.
template <class T> std::vector<T> prefaulted_vector(std::size_t n, const T &value, ThreadPool &pool) {
  std::vector<T> v;
  v.reserve(n);
  prefault(v.data(), n * sizeof(T), pool);
  v.assign(n, value);
  return v;
}

// Populates the pages of [p, p + bytes) on one helper thread while the caller goes on, for an
// array that a later copy fills: a pageable device-to-host download into fresh memory stops on
// every page it reaches first (about 0.3 s a GB on the GPU node, bench/NOTES.md), and the device
// work before the download leaves the host idle long enough to fault them in beforehand. wait()
// returns once the pages are in (the destructor waits too); changes no byte. Starts no thread for
// ranges under 4 MiB, where the faults cost less than the thread, or where populating is not
// supported.
class BackgroundPrefault {
public:
  BackgroundPrefault(void *p, std::size_t bytes);
  ~BackgroundPrefault() { wait(); }
  BackgroundPrefault(const BackgroundPrefault &) = delete;
  BackgroundPrefault &operator=(const BackgroundPrefault &) = delete;
  void wait() {
    if (thread_.joinable()) thread_.join();
  }
  bool started() const { return thread_.joinable(); }

private:
  std::thread thread_;
};

} // namespace pgk

// Faulting in a large, freshly allocated buffer on several threads before a serial fill. A big
// std::vector is value-initialised by one thread, and on Linux its first touch of every 4 KiB page
// (a page fault, the kernel zeroing the page) costs more than the fill itself: most of what is left
// of MatConvert to aijcompound once its passes are linear (bench/NOTES.md). The kernel populates the
// pages here, a share of the range per thread.
#pragma once

#include <cstddef>
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

} // namespace pgk

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

// The page size a buffer asks for. `huge` suits large arrays read at random, where nearly every
// read of a 4 KiB-paged array also misses the TLB: rabbitpp's multicore list arena (5% of the
// community phase gained on three H100/H200 nodes; advised on its union-find records and n-sized
// arrays too, 3% of that lost again, bench/NOTES.md). With THP defrag on `madvise` (Ubuntu's
// default) a fault may then wait for compaction: 6-7% lost on a fragmented 2-core machine.
enum class Pages { base, huge };

// Advises transparent huge pages for the whole 2 MiB pages inside [p, p + bytes) (MADV_HUGEPAGE),
// before they are faulted in; changes no byte. Does nothing for ranges under 2 MiB, where THP is
// off or `never`, and off Linux.
void advise_huge_pages(void *p, std::size_t bytes);

// Populates the pages of [p, p + bytes) for writing on the pool's threads (MADV_POPULATE_WRITE,
// Linux >= 5.14), huge pages advised first if asked; changes no byte. Does nothing for small
// ranges, and where the call is not supported (the first touch then faults the pages in as usual).
void prefault(void *p, std::size_t bytes, ThreadPool &pool, Pages pages = Pages::base);

// n copies of `value`, the pages faulted in by the pool's threads before the one-thread fill.
template <class T>
std::vector<T> prefaulted_vector(std::size_t n, const T &value, ThreadPool &pool, Pages pages = Pages::base) {
  std::vector<T> v;
  v.reserve(n);
  prefault(v.data(), n * sizeof(T), pool, pages);
  v.assign(n, value);
  return v;
}

} // namespace pgk

#include "src/common/prefault.hpp"

#include "src/common/thread_pool.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace pgk {

void prefault(void *p, std::size_t bytes, ThreadPool &pool, Pages pages) {
  if (pages == Pages::huge) advise_huge_pages(p, bytes);
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  constexpr std::size_t kMinBytes = std::size_t(1) << 24; // below, one thread's faults are cheap
  if (!p || bytes < kMinBytes || pool.threads() < 2) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto first = (reinterpret_cast<std::uintptr_t>(p) + page - 1) / page; // whole pages inside the range
  const auto last = (reinterpret_cast<std::uintptr_t>(p) + bytes) / page;
  if (last <= first) return;
  pool.run([&](int t, int n) {
    const std::uintptr_t lo = first + (last - first) * t / n, hi = first + (last - first) * (t + 1) / n;
    if (hi > lo) (void)madvise(reinterpret_cast<void *>(lo * page), (hi - lo) * page, MADV_POPULATE_WRITE);
  });
#else
  (void)p, (void)bytes, (void)pool, (void)pages;
#endif
}

void advise_huge_pages(void *p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHugePage = std::uintptr_t(1) << 21;
  const auto first = (reinterpret_cast<std::uintptr_t>(p) + kHugePage - 1) & ~(kHugePage - 1);
  const auto last = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kHugePage - 1);
  if (!p || last <= first) return;
  (void)madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE); // advice only: failure is harmless
#else
  (void)p, (void)bytes;
#endif
}

} // namespace pgk

#include "src/common/prefault.hpp"

#include "src/common/thread_pool.hpp"

#include <cstdint>
#include <system_error>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace pgk {
namespace {

// The whole pages inside [p, p + bytes), as page numbers [first, last).
struct PageRange {
  std::uintptr_t page = 1, first = 0, last = 0;
};

[[maybe_unused]] PageRange pages_inside(void *p, std::size_t bytes) {
  PageRange r;
#if defined(__linux__)
  r.page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  r.first = (reinterpret_cast<std::uintptr_t>(p) + r.page - 1) / r.page;
  r.last = (reinterpret_cast<std::uintptr_t>(p) + bytes) / r.page;
  if (r.last < r.first) r.last = r.first;
#else
  (void)p, (void)bytes;
#endif
  return r;
}

} // namespace

void prefault(void *p, std::size_t bytes, ThreadPool &pool) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  constexpr std::size_t kMinBytes = std::size_t(1) << 24; // below, one thread's faults are cheap
  if (!p || bytes < kMinBytes || pool.threads() < 2) return;
  const PageRange r = pages_inside(p, bytes);
  if (r.last == r.first) return;
  pool.run([&](int t, int n) {
    const std::uintptr_t lo = r.first + (r.last - r.first) * t / n, hi = r.first + (r.last - r.first) * (t + 1) / n;
    if (hi > lo) (void)madvise(reinterpret_cast<void *>(lo * r.page), (hi - lo) * r.page, MADV_POPULATE_WRITE);
  });
#else
  (void)p, (void)bytes, (void)pool;
#endif
}

BackgroundPrefault::BackgroundPrefault(void *p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  constexpr std::size_t kMinBytes = std::size_t(1) << 22;
  if (!p || bytes < kMinBytes) return;
  const PageRange r = pages_inside(p, bytes);
  if (r.last == r.first) return;
  void *begin = reinterpret_cast<void *>(r.first * r.page);
  const std::size_t length = (r.last - r.first) * r.page;
  // A failed call (EINVAL before Linux 5.14, ENOMEM), or no thread to make, leaves the pages to
  // the first touch.
  try {
    thread_ = std::thread([begin, length] { (void)madvise(begin, length, MADV_POPULATE_WRITE); });
  } catch (const std::system_error &) {}
#else
  (void)p, (void)bytes;
#endif
}

} // namespace pgk

// pgk::prefault and pgk::BackgroundPrefault (src/common/prefault.hpp): populating pages changes
// no byte, whatever the alignment of the range; the background form starts a thread only from
// 4 MiB (on Linux), its wait() may be called more than once, and its destructor waits.
#include "src/common/prefault.hpp"

#include "src/common/thread_pool.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace pgk {
namespace {

std::vector<std::uint32_t> pattern(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint32_t>(i * 2654435761u);
  return v;
}

TEST(Prefault, PoolChangesNoByte) {
  ThreadPool pool(3);
  std::vector<std::uint32_t> v = pattern((std::size_t(1) << 24) / 4 + 1000); // past the 16 MiB threshold
  const std::vector<std::uint32_t> expect = v;
  prefault(v.data() + 3, (v.size() - 3) * sizeof(std::uint32_t), pool); // not page-aligned
  EXPECT_EQ(v, expect);
}

TEST(BackgroundPrefault, ChangesNoByteAndWaitsTwice) {
  std::vector<std::uint32_t> v = pattern((std::size_t(1) << 23) / 4 + 77); // 8 MiB and a bit
  const std::vector<std::uint32_t> expect = v;
  BackgroundPrefault pages(v.data() + 1, (v.size() - 1) * sizeof(std::uint32_t));
#if defined(__linux__)
  EXPECT_TRUE(pages.started()) << "8 MiB is past the 4 MiB threshold";
#endif
  pages.wait();
  EXPECT_FALSE(pages.started());
  pages.wait(); // a second wait returns at once
  EXPECT_EQ(v, expect);
}

TEST(BackgroundPrefault, FreshArrayFilledAfterwards) {
  // The use in MatGetOrdering: fresh memory, populated while the caller works, then written.
  const std::size_t n = (std::size_t(1) << 24) / sizeof(std::int32_t);
  std::unique_ptr<std::int32_t[]> a(new std::int32_t[n]);
  {
    BackgroundPrefault pages(a.get(), n * sizeof(std::int32_t));
    pages.wait();
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<std::int32_t>(n - 1 - i);
  }
  EXPECT_EQ(a[0], static_cast<std::int32_t>(n - 1));
  EXPECT_EQ(a[n - 1], 0);
}

TEST(BackgroundPrefault, SmallOrEmptyRangesStartNoThread) {
  std::vector<char> small(std::size_t(1) << 20, 'x');
  EXPECT_FALSE(BackgroundPrefault(small.data(), small.size()).started());
  EXPECT_FALSE(BackgroundPrefault(nullptr, std::size_t(1) << 30).started());
  EXPECT_FALSE(BackgroundPrefault(small.data(), 0).started());
  for (char c : small) ASSERT_EQ(c, 'x');
}

TEST(BackgroundPrefault, DestructorWaits) {
  std::vector<std::uint32_t> v = pattern((std::size_t(1) << 23) / 4);
  const std::vector<std::uint32_t> expect = v;
  { BackgroundPrefault pages(v.data(), v.size() * sizeof(std::uint32_t)); } // no wait(): the destructor joins
  EXPECT_EQ(v, expect);
}

} // namespace
} // namespace pgk

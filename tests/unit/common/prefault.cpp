// pgk::prefault (src/common/prefault.hpp): populating pages changes no byte, whatever the
// alignment of the range, and prefaulted_vector holds its n copies; advising huge pages changes
// no byte either, for ranges of any size and alignment.
#include "src/common/prefault.hpp"

#include "src/common/thread_pool.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
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

TEST(Prefault, VectorHoldsItsValues) {
  ThreadPool pool(2);
  const std::size_t n = (std::size_t(1) << 24) / sizeof(double) + 5;
  const std::vector<double> v = prefaulted_vector<double>(n, 2.5, pool);
  ASSERT_EQ(v.size(), n);
  for (double x : v) ASSERT_EQ(x, 2.5);
}

TEST(AdviseHugePages, ChangesNoByteAtAnyAlignmentOrSize) {
  std::vector<std::uint32_t> v = pattern((std::size_t(6) << 20) / 4 + 777); // three 2 MiB pages and more
  const std::vector<std::uint32_t> expect = v;
  advise_huge_pages(v.data() + 5, (v.size() - 5) * sizeof(std::uint32_t)); // not page-aligned
  advise_huge_pages(v.data(), 100);                                        // under one huge page: nothing
  advise_huge_pages(nullptr, 1 << 22);
  advise_huge_pages(v.data(), 0);
  EXPECT_EQ(v, expect);
  ThreadPool pool(2);
  prefault(v.data(), v.size() * sizeof(std::uint32_t), pool, Pages::huge); // faulting in an advised range
  EXPECT_EQ(v, expect);
  const std::vector<std::int64_t> h = prefaulted_vector<std::int64_t>(v.size(), -3, pool, Pages::huge);
  ASSERT_EQ(h.size(), v.size());
  for (std::int64_t x : h) ASSERT_EQ(x, -3);
}

} // namespace
} // namespace pgk

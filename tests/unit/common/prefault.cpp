// pgk::prefault (src/common/prefault.hpp): populating pages changes no byte, whatever the
// alignment of the range, and prefaulted_vector holds its n copies.
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

} // namespace
} // namespace pgk

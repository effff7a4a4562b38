// pgk::for_slices (src/common/thread_pool.hpp), the one split of a flat pass that the orderings'
// validation, valence, level passes and MatGetOrdering's index-set copy share: every index of the
// range lands in exactly one slice, the slices are contiguous and in thread order, and short
// ranges, a missing pool and a one-thread pool stay on the calling thread as one slice.
#include "src/common/thread_pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

namespace pgk {
namespace {

using Slice = std::tuple<int, std::int64_t, std::int64_t>; // thread, lo, hi

std::vector<Slice> slices_of(ThreadPool *pool, std::int64_t begin, std::int64_t end, std::int64_t grain) {
  std::vector<Slice> out;
  std::mutex m;
  for_slices(pool, begin, end, grain, [&](int t, std::int64_t lo, std::int64_t hi) {
    std::lock_guard<std::mutex> lock(m);
    out.emplace_back(t, lo, hi);
  });
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ForSlices, CoversTheRangeOnceInThreadOrder) {
  ThreadPool pool(4);
  for (const auto &[begin, end] : {std::pair<std::int64_t, std::int64_t>{0, 1000}, {17, 1020}, {5, 8}}) {
    const std::vector<Slice> s = slices_of(&pool, begin, end, 1);
    ASSERT_FALSE(s.empty());
    EXPECT_EQ(std::get<1>(s.front()), begin);
    EXPECT_EQ(std::get<2>(s.back()), end);
    for (std::size_t i = 0; i < s.size(); ++i) {
      EXPECT_LT(std::get<1>(s[i]), std::get<2>(s[i])) << "empty slices are skipped";
      if (i > 0) {
        EXPECT_EQ(std::get<1>(s[i]), std::get<2>(s[i - 1])) << "contiguous, in thread order";
        EXPECT_GT(std::get<0>(s[i]), std::get<0>(s[i - 1]));
      }
    }
    if (end - begin >= 4) EXPECT_EQ(s.size(), 4u);
  }
}

TEST(ForSlices, ShortRangesAndNoPoolStayOnThisThread) {
  ThreadPool pool(4), one(1);
  const std::vector<Slice> whole{{0, 10, 110}};
  EXPECT_EQ(slices_of(&pool, 10, 110, 101), whole) << "shorter than the grain";
  EXPECT_EQ(slices_of(nullptr, 10, 110, 1), whole);
  EXPECT_EQ(slices_of(&one, 10, 110, 1), whole);
  EXPECT_TRUE(slices_of(&pool, 7, 7, 1).empty());
  EXPECT_TRUE(slices_of(&pool, 9, 7, 1).empty());
}

TEST(ForSlices, ResultDoesNotDependOnThreads) {
  std::vector<std::int64_t> a(100003), b(a.size());
  ThreadPool four(4);
  for_slices(&four, 0, static_cast<std::int64_t>(a.size()), kSliceGrain, [&](int, std::int64_t lo, std::int64_t hi) {
    for (std::int64_t i = lo; i < hi; ++i) a[i] = i * 3 + 1;
  });
  for_slices<ThreadPool>(nullptr, 0, static_cast<std::int64_t>(b.size()), kSliceGrain,
                         [&](int, std::int64_t lo, std::int64_t hi) {
                           for (std::int64_t i = lo; i < hi; ++i) b[i] = i * 3 + 1;
                         });
  EXPECT_EQ(a, b);
}

} // namespace
} // namespace pgk

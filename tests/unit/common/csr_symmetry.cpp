// sorted_pattern_is_symmetric against a brute-force answer (the pattern compared with its sorted
// transpose) on graphs large and random enough to take the blocked check and the search's
// prefetching path (rows looked up more than 65536 rows ahead), and on meshes that take the plain
// search, for several thread counts; each way of the check also on its own.
#include "src/common/csr_build.hpp"
#include "src/common/csr_symmetry.hpp"
#include "src/common/thread_pool.hpp"
#include "src/matgen/generators.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

using pgk::Csr;
using pgk::Index;
using pgk::view_of;

namespace {

bool brute_force_symmetric(const Csr &a) {
  std::vector<std::pair<Index, Index>> entries, mirrored;
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      if (k > a.rowptr[i] && a.colidx[k] <= a.colidx[k - 1]) return false; // not strictly increasing
      entries.emplace_back(i, a.colidx[k]);
      mirrored.emplace_back(a.colidx[k], i);
    }
  std::sort(mirrored.begin(), mirrored.end());
  return entries == mirrored;
}

// A symmetric random graph: about `degree` entries a row at uniformly random columns, mirrored.
Csr random_symmetric(Index n, int degree, std::uint64_t seed) {
  std::uint64_t s = seed;
  const auto next = [&s] { return (s = s * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  std::vector<Index> r, c;
  for (Index i = 0; i < n; ++i)
    for (int k = 0; k < degree / 2; ++k) {
      const Index j = static_cast<Index>(next() % n);
      r.push_back(i), c.push_back(j), r.push_back(j), c.push_back(i);
    }
  return pgk::csr_from_coo(n, n, r, c, {});
}

// a with entry k removed.
Csr without_entry(const Csr &a, Index k) {
  Csr b = a;
  b.colidx.erase(b.colidx.begin() + k);
  for (Index i = 0; i < b.nrows; ++i)
    if (b.rowptr[i + 1] > k) --b.rowptr[i + 1];
  return b;
}

// The check and both of its ways (the search; by blocks, of 1 row up to more than the matrix), on
// 1 to 3 threads and without a pool, give the brute-force answer.
void expect_same_answer(const Csr &a, const char *what) {
  const bool expect = brute_force_symmetric(a);
  EXPECT_EQ(pgk::sorted_pattern_is_symmetric(view_of(a)), expect) << what;
  EXPECT_EQ(pgk::detail::sorted_pattern_is_symmetric_by_search(view_of(a), nullptr), expect) << what << ", search";
  for (int shift : {0, 3, 12, 20})
    EXPECT_EQ(pgk::detail::sorted_pattern_is_symmetric_by_blocks(view_of(a), nullptr, shift), expect)
        << what << ", blocks of 2^" << shift << " rows";
  for (int threads : {1, 2, 3}) {
    pgk::ThreadPool pool(threads);
    EXPECT_EQ(pgk::sorted_pattern_is_symmetric(view_of(a), &pool), expect) << what << ", " << threads << " threads";
    EXPECT_EQ(pgk::detail::sorted_pattern_is_symmetric_by_search(view_of(a), &pool), expect)
        << what << ", " << threads << " threads, search";
    for (int shift : {0, 3, 12})
      EXPECT_EQ(pgk::detail::sorted_pattern_is_symmetric_by_blocks(view_of(a), &pool, shift), expect)
          << what << ", " << threads << " threads, blocks of 2^" << shift << " rows";
  }
}

} // namespace

TEST(SortedPatternIsSymmetric, RandomGraphsAgreeWithBruteForceByBlocksAndBySearch) {
  const Csr a = random_symmetric(300000, 8, 11);
  ASSERT_TRUE(brute_force_symmetric(a));
  expect_same_answer(a, "symmetric");
  // Entries far into the matrix, above and below the diagonal, each in a chunk of its own.
  const Index row = 100001, first = a.rowptr[row], last = a.rowptr[row + 1] - 1;
  ASSERT_LT(a.colidx[first], row);
  ASSERT_GT(a.colidx[last], row);
  expect_same_answer(without_entry(a, first), "a lower entry removed");
  expect_same_answer(without_entry(a, last), "an upper entry removed");
  Csr swapped = a;
  std::swap(swapped.colidx[first], swapped.colidx[first + 1]);
  expect_same_answer(swapped, "two entries of a row swapped");
  Csr moved = a;
  moved.colidx[last] = moved.colidx[last] == a.nrows - 1 ? a.nrows - 2 : a.nrows - 1; // mirror missing
  std::sort(moved.colidx.begin() + first, moved.colidx.begin() + last + 1);
  expect_same_answer(moved, "an upper entry moved");
}

TEST(SortedPatternIsSymmetric, MeshesAndEdgeCasesAgreeWithBruteForce) {
  for (const char *spec : {"lap3d7:n=48", "lap2d5:n=300", "powerlaw:n=30000", "hubrow:n=20000"}) {
    const Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    expect_same_answer(a, spec);
    expect_same_answer(without_entry(a, a.rowptr[a.nrows / 2] + 1), spec);
  }
  Csr empty;
  empty.rowptr = {0};
  expect_same_answer(empty, "n = 0");
  Csr one;
  one.nrows = one.ncols = 1;
  one.rowptr = {0, 1};
  one.colidx = {0};
  expect_same_answer(one, "n = 1 with its diagonal");
}

#include "src/common/csr_build.hpp"
#include "src/common/thread_pool.hpp"

#include "tests/support/host.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pgk {
namespace {

using test::Dense;
using test::to_dense;
using test::well_formed;

// 4 x 4 example used by several tests:
//   [ 1 . 2 . ]
//   [ . 3 . . ]
//   [ 4 . 5 6 ]
//   [ . . . 7 ]
Csr example() {
  Csr a;
  a.nrows = a.ncols = 4;
  a.rowptr = {0, 2, 3, 6, 7};
  a.colidx = {0, 2, 1, 0, 2, 3, 3};
  a.values = {1, 2, 3, 4, 5, 6, 7};
  return a;
}

TEST(CsrFromCoo, SortsColumnsAndSumsDuplicates) {
  const Csr a = csr_from_coo(3, 4, {2, 0, 0, 2, 0, 1}, {1, 3, 0, 1, 3, 2}, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(well_formed(a));
  EXPECT_EQ(a.rowptr, (std::vector<Index>{0, 2, 3, 4}));
  EXPECT_EQ(a.colidx, (std::vector<Index>{0, 3, 2, 1}));
  EXPECT_EQ(a.values, (std::vector<double>{3, 7, 6, 5}));
}

TEST(CsrFromCoo, DuplicatesAreSummedInInputOrder) {
  // (1e16 + 1) - 1e16 == 0 in double, while 1e16 - 1e16 + 1 == 1: the order is observable
  // and must be the input order for reproducible sums.
  const Csr a = csr_from_coo(1, 1, {0, 0, 0}, {0, 0, 0}, {1e16, 1.0, -1e16});
  ASSERT_EQ(a.nnz(), 1);
  EXPECT_EQ(a.values[0], 0.0);
  const Csr b = csr_from_coo(1, 1, {0, 0, 0}, {0, 0, 0}, {1e16, -1e16, 1.0});
  EXPECT_EQ(b.values[0], 1.0);
}

TEST(CsrFromCoo, PatternAndEmpty) {
  const Csr p = csr_from_coo(2, 2, {1, 1, 0}, {0, 0, 1}, {});
  ASSERT_TRUE(well_formed(p));
  EXPECT_TRUE(p.values.empty());
  EXPECT_EQ(p.colidx, (std::vector<Index>{1, 0}));

  const Csr e = csr_from_coo(3, 2, {}, {}, {});
  ASSERT_TRUE(well_formed(e));
  EXPECT_EQ(e.nnz(), 0);
  EXPECT_EQ(e.rowptr, (std::vector<Index>{0, 0, 0, 0}));

  const Csr z = csr_from_coo(0, 0, {}, {}, {});
  ASSERT_TRUE(well_formed(z));
  EXPECT_EQ(z.rowptr, (std::vector<Index>{0}));
}

TEST(CsrFromCoo, RejectsBadInput) {
  EXPECT_THROW(csr_from_coo(2, 2, {0, 2}, {0, 0}, {}), std::invalid_argument);
  EXPECT_THROW(csr_from_coo(2, 2, {0, -1}, {0, 0}, {}), std::invalid_argument);
  EXPECT_THROW(csr_from_coo(2, 2, {0}, {2}, {}), std::invalid_argument);
  EXPECT_THROW(csr_from_coo(2, 2, {0, 1}, {0}, {}), std::invalid_argument);
  EXPECT_THROW(csr_from_coo(2, 2, {0, 1}, {0, 1}, {1.0}), std::invalid_argument);
  EXPECT_THROW(csr_from_coo(-1, 2, {}, {}, {}), std::invalid_argument);
}

TEST(SymmetrizePattern, IsPatternOfAPlusATranspose) {
  // Unsorted rows and a duplicate on purpose.
  Csr a;
  a.nrows = a.ncols = 3;
  a.rowptr = {0, 2, 4, 4};
  a.colidx = {2, 1, 2, 2};
  a.values = {1, 1, 1, 1};
  const Csr s = symmetrize_pattern(view_of(a));
  ASSERT_TRUE(well_formed(s));
  EXPECT_TRUE(s.values.empty());
  EXPECT_EQ(s.rowptr, (std::vector<Index>{0, 2, 4, 6}));
  EXPECT_EQ(s.colidx, (std::vector<Index>{1, 2, 0, 2, 0, 1}));
  Csr rect;
  rect.nrows = 2;
  rect.ncols = 3;
  rect.rowptr = {0, 0, 0};
  EXPECT_THROW(symmetrize_pattern(view_of(rect)), std::invalid_argument);
}

TEST(Transpose, RectangularWithValues) {
  const Csr a = csr_from_coo(2, 3, {0, 0, 1}, {2, 0, 1}, {1, 2, 3});
  const Csr t = transpose(view_of(a));
  ASSERT_TRUE(well_formed(t));
  EXPECT_EQ(t.nrows, 3);
  EXPECT_EQ(t.ncols, 2);
  const Dense d = to_dense(a), dt = to_dense(t);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(d[i][j], dt[j][i]);
  EXPECT_TRUE(test::same_csr(transpose(view_of(t)), a));
}

TEST(RowSlice, KeepsGlobalColumnsAndLocalRowptr) {
  const Csr a = example();
  const Csr s = row_slice(a, 1, 3);
  ASSERT_TRUE(well_formed(s));
  EXPECT_EQ(s.nrows, 2);
  EXPECT_EQ(s.ncols, 4);
  EXPECT_EQ(s.rowptr, (std::vector<Index>{0, 1, 4}));
  EXPECT_EQ(s.colidx, (std::vector<Index>{1, 0, 2, 3}));
  EXPECT_EQ(s.values, (std::vector<double>{3, 4, 5, 6}));
  EXPECT_EQ(row_slice(a, 2, 2).nnz(), 0);
  EXPECT_TRUE(test::same_csr(row_slice(a, 0, 4), a));
  EXPECT_THROW(row_slice(a, 3, 2), std::invalid_argument);
  EXPECT_THROW(row_slice(a, 0, 5), std::invalid_argument);
  EXPECT_THROW(row_slice(a, -1, 2), std::invalid_argument);
}

TEST(ValidateCsr, AcceptsGoodMatrices) {
  EXPECT_TRUE(validate_csr(view_of(example())));
  EXPECT_TRUE(validate_csr(view_of(Csr{})));
  std::string why = "untouched";
  EXPECT_TRUE(validate_csr(view_of(example()), &why));
  EXPECT_EQ(why, "untouched");
}

TEST(ValidateCsr, ReportsEachDefect) {
  auto reason = [](const Csr &a) {
    std::string why;
    EXPECT_FALSE(validate_csr(view_of(a), &why));
    EXPECT_FALSE(validate_csr(view_of(a), nullptr)); // a null `why` is allowed
    return why;
  };
  Csr a = example();
  a.rowptr[0] = 1;
  EXPECT_NE(reason(a).find("rowptr[0]"), std::string::npos);

  a = example();
  a.rowptr[2] = 1; // 2 -> 1 decreases
  EXPECT_NE(reason(a).find("decreases at row 1"), std::string::npos);

  a = example();
  a.colidx[4] = 4;
  EXPECT_NE(reason(a).find("row 2: column index 4"), std::string::npos);

  a = example();
  a.colidx[0] = -1;
  EXPECT_NE(reason(a).find("column index -1"), std::string::npos);

  const Csr good = example(); // the views below must not outlive it
  CsrView v = view_of(good);
  v.rowptr = nullptr;
  std::string why;
  EXPECT_FALSE(validate_csr(v, &why));
  EXPECT_NE(why.find("rowptr is null"), std::string::npos);

  v = view_of(good);
  v.colidx = nullptr;
  EXPECT_FALSE(validate_csr(v, &why));
  EXPECT_NE(why.find("colidx is null"), std::string::npos);

  v = view_of(good);
  v.ncols = -1;
  EXPECT_FALSE(validate_csr(v, &why));
  EXPECT_NE(why.find("negative size"), std::string::npos);
}

// The pattern of a tridiagonal n x n matrix (no values): rows over several chunks of a pool's check.
Csr tridiagonal_pattern(Index n) {
  Csr t;
  t.nrows = t.ncols = n;
  t.rowptr.resize(static_cast<std::size_t>(n) + 1);
  for (Index i = 0; i < n; ++i) {
    t.rowptr[i] = static_cast<Index>(t.colidx.size());
    for (Index j = std::max<Index>(0, i - 1); j <= std::min<Index>(n - 1, i + 1); ++j) t.colidx.push_back(j);
  }
  t.rowptr[n] = static_cast<Index>(t.colidx.size());
  return t;
}

// A check on a pool gives the serial check's answer and reason on a.
template <class Serial, class Pooled> void expect_pool_answer_is_serial(const Csr &a, Serial serial, Pooled pooled) {
  std::string by_serial = "untouched", by_pool = "untouched";
  EXPECT_EQ(pooled(view_of(a), &by_pool), serial(view_of(a), &by_serial));
  EXPECT_EQ(by_pool, by_serial);
}

// The pool's check agrees with the serial one, reason included, wherever the defect sits (rows
// in several of its chunks of 2^14, and two defects: the first one is named).
TEST(ValidateCsr, PoolGivesTheSerialAnswer) {
  const Index n = 100000;
  const Csr big = tridiagonal_pattern(n);
  ThreadPool pool(4);
  const auto same = [&](const Csr &a) {
    expect_pool_answer_is_serial(
        a, [](const CsrView &v, std::string *why) { return validate_csr(v, why); },
        [&](const CsrView &v, std::string *why) { return validate_csr(v, why, pool); });
  };
  same(big);
  same(example());
  same(Csr{});
  for (const Index row : {Index{0}, Index{16383}, Index{16384}, Index{70000}, n - 1}) {
    Csr a = big;
    a.colidx[a.rowptr[row]] = n; // outside [0, n)
    same(a);
    a.colidx[a.rowptr[n - 1]] = -5; // a second defect after it
    same(a);
    a = big;
    a.rowptr[row + 1] = a.rowptr[row] - 1; // decreases
    same(a);
  }
}

// The pool's sortedness check agrees with the serial one, reason included, wherever the defect
// sits (rows in several of its chunks of 2^14; two defects: the first one is named).
TEST(RowsSortedUnique, PoolGivesTheSerialAnswer) {
  const Index n = 100000;
  const Csr big = tridiagonal_pattern(n);
  ThreadPool pool(4);
  const auto same = [&](const Csr &a) {
    expect_pool_answer_is_serial(
        a, [](const CsrView &v, std::string *why) { return rows_sorted_unique(v, why); },
        [&](const CsrView &v, std::string *why) { return rows_sorted_unique(v, why, pool); });
  };
  same(big);
  same(example());
  same(Csr{});
  for (const Index row : {Index{1}, Index{16383}, Index{16384}, Index{70000}, n - 2}) {
    Csr a = big;
    std::swap(a.colidx[a.rowptr[row]], a.colidx[a.rowptr[row] + 1]); // unsorted
    same(a);
    a.colidx[a.rowptr[n - 1] + 1] = a.colidx[a.rowptr[n - 1]]; // a duplicate after it
    same(a);
    EXPECT_FALSE(rows_sorted_unique(view_of(a), nullptr, pool));
  }
}

TEST(RowsSortedUnique, DetectsUnsortedAndDuplicates) {
  EXPECT_TRUE(rows_sorted_unique(view_of(example())));
  Csr a = example();
  std::swap(a.colidx[3], a.colidx[4]);
  std::string why;
  EXPECT_FALSE(rows_sorted_unique(view_of(a), &why));
  EXPECT_NE(why.find("row 2"), std::string::npos);
  EXPECT_NE(why.find("unsorted"), std::string::npos);
  a = example();
  a.colidx[1] = 0;
  EXPECT_FALSE(rows_sorted_unique(view_of(a), &why));
  EXPECT_NE(why.find("duplicate"), std::string::npos);
  EXPECT_FALSE(rows_sorted_unique(view_of(a)));
}

TEST(CountNonfinite, CountsNanAndInfinities) {
  Csr a = example();
  EXPECT_EQ(count_nonfinite(view_of(a)), 0);
  a.values[0] = std::numeric_limits<double>::quiet_NaN();
  a.values[3] = std::numeric_limits<double>::infinity();
  a.values[6] = -std::numeric_limits<double>::infinity();
  a.values[1] = std::numeric_limits<double>::max(); // large but finite
  EXPECT_EQ(count_nonfinite(view_of(a)), 3);
  a.values.clear();
  EXPECT_EQ(count_nonfinite(view_of(a)), 0);
}

TEST(BandwidthProfile, HandComputedExamples) {
  // example(): |i - j| is at most 2; lower envelope: row 2 starts at column 0 -> 2.
  EXPECT_EQ(bandwidth(view_of(example())), 2);
  EXPECT_EQ(profile(view_of(example())), 2);

  // Tridiagonal n = 6: bandwidth 1, each row but the first reaches one column left.
  std::vector<Index> r, c;
  for (Index i = 0; i < 6; ++i)
    for (Index j = std::max<Index>(0, i - 1); j <= std::min<Index>(5, i + 1); ++j) {
      r.push_back(i);
      c.push_back(j);
    }
  const Csr tri = csr_from_coo(6, 6, r, c, {});
  EXPECT_EQ(bandwidth(view_of(tri)), 1);
  EXPECT_EQ(profile(view_of(tri)), 5);

  // Arrow with the dense row last: row 5 reaches column 0 -> profile 5, bandwidth 5.
  const Csr arrow = csr_from_coo(6, 6, {0, 1, 2, 3, 4, 5, 5, 5, 5, 5, 5}, {0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5}, {});
  EXPECT_EQ(bandwidth(view_of(arrow)), 5);
  EXPECT_EQ(profile(view_of(arrow)), 5);

  // Only upper entries and empty rows: the lower envelope is empty.
  const Csr upper = csr_from_coo(4, 4, {0, 0}, {1, 3}, {});
  EXPECT_EQ(bandwidth(view_of(upper)), 3);
  EXPECT_EQ(profile(view_of(upper)), 0);

  EXPECT_EQ(bandwidth(view_of(Csr{})), 0);
  EXPECT_EQ(profile(view_of(Csr{})), 0);
}

TEST(IsPermutation, Cases) {
  EXPECT_TRUE(is_permutation({}, 0));
  EXPECT_TRUE(is_permutation({2, 0, 1}, 3));
  EXPECT_FALSE(is_permutation({2, 0, 1}, 4));
  EXPECT_FALSE(is_permutation({0, 0, 1}, 3));
  EXPECT_FALSE(is_permutation({0, 3, 1}, 3));
  EXPECT_FALSE(is_permutation({0, -1, 1}, 3));
}

TEST(PermuteSymmetric, MatchesDefinition) {
  const Csr a = example();
  const std::vector<Index> perm = {2, 0, 3, 1}; // perm[new] = old
  const Csr b = permute_symmetric(a, perm);
  ASSERT_TRUE(well_formed(b));
  EXPECT_EQ(b.nnz(), a.nnz());
  const Dense da = to_dense(a), db = to_dense(b);
  for (Index k = 0; k < 4; ++k)
    for (Index l = 0; l < 4; ++l) EXPECT_EQ(db[k][l], da[perm[k]][perm[l]]) << k << "," << l;

  EXPECT_TRUE(test::same_csr(permute_symmetric(a, {0, 1, 2, 3}), a));

  // Pattern only: values stay empty.
  Csr p = a;
  p.values.clear();
  EXPECT_TRUE(permute_symmetric(p, perm).values.empty());
}

TEST(PermuteSymmetric, ReversingATridiagonalKeepsBandwidth) {
  std::vector<Index> r, c;
  for (Index i = 0; i < 5; ++i) {
    r.push_back(i);
    c.push_back(i);
    if (i + 1 < 5) {
      r.push_back(i);
      c.push_back(i + 1);
      r.push_back(i + 1);
      c.push_back(i);
    }
  }
  const Csr tri = csr_from_coo(5, 5, r, c, {});
  const Csr rev = permute_symmetric(tri, {4, 3, 2, 1, 0});
  EXPECT_TRUE(test::same_csr(rev, tri));
  // A bad ordering widens the band: even vertices first puts old (2, 3) at new (1, 4).
  const Csr bad = permute_symmetric(tri, {0, 2, 4, 1, 3});
  EXPECT_EQ(bandwidth(view_of(bad)), 3);
  EXPECT_GT(profile(view_of(bad)), profile(view_of(tri)));
}

TEST(PermuteSymmetric, RejectsBadInput) {
  const Csr a = example();
  EXPECT_THROW(permute_symmetric(a, {0, 1, 2}), std::invalid_argument);
  EXPECT_THROW(permute_symmetric(a, {0, 1, 1, 2}), std::invalid_argument);
  const Csr rect = csr_from_coo(2, 3, {}, {}, {});
  EXPECT_THROW(permute_symmetric(rect, {0, 1}), std::invalid_argument);
}

} // namespace
} // namespace pgk

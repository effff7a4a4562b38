// COO assembly map (src/aijcompound/coo.hpp) against a dense reference: the pattern is exactly the
// blocks the kept entries touch, and the assembled values equal the dense sums in COO order bit
// for bit (duplicates, negative indices, empty block rows, n = 0, rectangular).
#include "src/aijcompound/coo.hpp"
#include "tests/unit/aijcompound/support.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace pgk::aijcompound::test {
namespace {

struct Coo {
  Index nrows = 0, ncols = 0;
  std::vector<Index> i, j;
  Vector v;
  Index size() const { return static_cast<Index>(i.size()); }
};

// Random coordinates with every 4th block row left empty, about a quarter of the entries
// repeating an earlier coordinate, and some entries with a negative row and/or column.
Coo random_coo(Index nbrows, Index nbcols, int bs, Index ncoo, std::uint64_t seed) {
  SplitMix64 rng(seed);
  Coo c;
  c.nrows = nbrows * bs;
  c.ncols = nbcols * bs;
  for (Index k = 0; k < ncoo && c.nrows > 0 && c.ncols > 0; ++k) {
    Index r, s;
    if (k > 0 && rng.bounded(4) == 0) {
      const Index q = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(k)));
      r = c.i[q], s = c.j[q];
    } else {
      do r = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(c.nrows)));
      while ((r / bs) % 4 == 2);
      s = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(c.ncols)));
    }
    const std::uint64_t neg = rng.bounded(10);
    if (neg == 0) r = -1;
    if (neg == 1) s = -3;
    c.i.push_back(r);
    c.j.push_back(s);
    c.v.push_back(2.0 * rng.uniform() - 1.0);
  }
  return c;
}

// Dense (row-major) sums in COO order from +0.0 and the number of contributions per scalar.
void dense_sums(const Coo &c, Vector &sum, std::vector<int> &count) {
  sum.assign(static_cast<std::size_t>(c.nrows * c.ncols), 0.0);
  count.assign(sum.size(), 0);
  for (Index k = 0; k < c.size(); ++k) {
    if (c.i[k] < 0 || c.j[k] < 0) continue;
    sum[c.i[k] * c.ncols + c.j[k]] += c.v[k];
    ++count[c.i[k] * c.ncols + c.j[k]];
  }
}

CooMap map_of(const Coo &c, int bs) { return coo_map(c.size(), c.i.data(), c.j.data(), c.nrows, c.ncols, bs); }

// The pattern holds exactly the blocks of the kept entries; jmap/perm list every kept k once, in
// increasing k per target.
void expect_structure(const Coo &c, int bs, const CooMap &m, const std::string &what) {
  const CompoundCsr &p = m.pattern;
  ASSERT_NO_THROW(validate(p)) << what;
  EXPECT_EQ(p.kind, EntryKind::block);
  EXPECT_EQ(p.nbrows * bs, c.nrows);
  EXPECT_EQ(p.nbcols * bs, c.ncols);
  std::set<std::pair<Index, Index>> want, got;
  for (Index k = 0; k < c.size(); ++k)
    if (c.i[k] >= 0 && c.j[k] >= 0) want.insert({c.i[k] / bs, c.j[k] / bs});
  for (Index r = 0; r < p.nbrows; ++r)
    for (Index e = p.rowptr[r]; e < p.rowptr[r + 1]; ++e) got.insert({r, p.colidx[e]});
  EXPECT_EQ(got, want) << what;
  for (double x : p.values) ASSERT_EQ(x, 0.0);
  ASSERT_EQ(m.jmap.size(), p.values.size() + 1) << what;
  EXPECT_EQ(m.jmap[0], 0);
  ASSERT_EQ(m.perm.size(), static_cast<std::size_t>(m.jmap.back()));
  std::vector<int> seen(static_cast<std::size_t>(c.size()), 0);
  for (std::size_t t = 0; t + 1 < m.jmap.size(); ++t)
    for (Index q = m.jmap[t]; q < m.jmap[t + 1]; ++q) {
      ASSERT_GE(m.perm[q], 0);
      ASSERT_LT(m.perm[q], c.size());
      ++seen[m.perm[q]];
      if (q > m.jmap[t]) {
        EXPECT_LT(m.perm[q - 1], m.perm[q]) << what << ": target " << t;
      }
    }
  for (Index k = 0; k < c.size(); ++k) EXPECT_EQ(seen[k], c.i[k] >= 0 && c.j[k] >= 0 ? 1 : 0) << what << " k " << k;
}

// Insert then add, each against the dense reference, bit for bit.
void expect_values(const Coo &c, int bs, const CooMap &m, const std::string &what) {
  Vector sum;
  std::vector<int> count;
  dense_sums(c, sum, count);
  const Index nvalues = static_cast<Index>(m.pattern.values.size());
  CompoundCsr a = m.pattern;
  for (double &x : a.values) x = 5.0; // insert overwrites everything
  coo_assemble(m.jmap.data(), m.perm.data(), c.v.data(), nvalues, false, a.values.data());
  Vector want(sum.size());
  for (std::size_t q = 0; q < sum.size(); ++q) want[q] = count[q] > 0 ? 0.0 + sum[q] : 0.0;
  EXPECT_TRUE(same_bits(dense(expand(a)), want)) << what << ": insert";
  // add: old values (one -0.0 among them, to show untouched scalars keep their bits) plus the sums.
  const Vector old = random_vector(nvalues, 99);
  a.values = old;
  if (nvalues > 0) a.values[nvalues - 1] = -0.0;
  const Vector before = a.values;
  coo_assemble(m.jmap.data(), m.perm.data(), c.v.data(), nvalues, true, a.values.data());
  for (Index t = 0; t < nvalues; ++t) {
    const Index e = t / (bs * bs), comp = t % (bs * bs);
    Index row = 0;
    while (m.pattern.rowptr[row + 1] <= e) ++row;
    const Index gi = row * bs + comp % bs, gj = m.pattern.colidx[e] * bs + comp / bs;
    const std::size_t q = static_cast<std::size_t>(gi * c.ncols + gj);
    const double expect = count[q] > 0 ? before[t] + sum[q] : before[t];
    ASSERT_TRUE(same_bits({a.values[t]}, {expect})) << what << ": add, scalar " << t;
  }
}

TEST(AijCompoundCoo, MatchesDenseReference) {
  const Index sizes[][3] = {{0, 0, 0}, {1, 1, 3}, {3, 5, 40}, {12, 12, 300}, {17, 6, 200}};
  for (int bs = 2; bs <= 8; ++bs)
    for (const auto &s : sizes) {
      const Coo c = random_coo(s[0], s[1], bs, s[2], 10 * bs + s[0]);
      const std::string what = "bs " + std::to_string(bs) + " " + std::to_string(s[0]) + "x" + std::to_string(s[1]);
      const CooMap m = map_of(c, bs);
      expect_structure(c, bs, m, what);
      expect_values(c, bs, m, what);
      if (s[0] >= 12) {
        EXPECT_EQ(m.pattern.rowptr[3], m.pattern.rowptr[2]) << what << ": block row 2 is empty";
      }
    }
}

// The sum is taken in increasing k: (0 + 1) + 1e16 - 1e16 is 0, any other order of these three
// gives 1 or 2. Duplicates, a scalar hit once, and entries ignored for a negative index.
TEST(AijCompoundCoo, SumsDuplicatesInCooOrder) {
  Coo c;
  c.nrows = c.ncols = 4;
  c.i = {1, 0, 1, -1, 1, 3, 0};
  c.j = {0, 2, 0, 0, 0, -1, 2};
  c.v = {1.0, 0.5, 1e16, 7.0, -1e16, 9.0, 0.25};
  const CooMap m = map_of(c, 2);
  expect_structure(c, 2, m, "fixed");
  expect_values(c, 2, m, "fixed");
  // Blocks (0, 0) and (0, 1) only; scalar (1, 0) is component 1 of entry 0.
  EXPECT_EQ(m.pattern.rowptr, (std::vector<Index>{0, 2, 2}));
  EXPECT_EQ(m.pattern.colidx, (std::vector<Index>{0, 1}));
  EXPECT_EQ(m.jmap[2] - m.jmap[1], 3);
  EXPECT_EQ(std::vector<Index>(m.perm.begin() + m.jmap[1], m.perm.begin() + m.jmap[2]), (std::vector<Index>{0, 2, 4}));
  CompoundCsr a = m.pattern;
  coo_assemble(m.jmap.data(), m.perm.data(), c.v.data(), static_cast<Index>(a.values.size()), false, a.values.data());
  EXPECT_EQ(a.values[1], 0.0);
  EXPECT_EQ(a.values[4], 0.75); // (0, 2): entries 1 and 6
}

TEST(AijCompoundCoo, EmptyAndIgnoredOnly) {
  const CooMap empty = coo_map(0, nullptr, nullptr, 0, 0, 3);
  EXPECT_EQ(empty.pattern.nbrows, 0);
  EXPECT_EQ(empty.pattern.rowptr, (std::vector<Index>{0}));
  EXPECT_EQ(empty.jmap, (std::vector<Index>{0}));
  EXPECT_TRUE(empty.perm.empty());
  coo_assemble(empty.jmap.data(), empty.perm.data(), nullptr, 0, true, nullptr);
  const std::vector<Index> i = {-1, 2, -5}, j = {0, -1, -2};
  const CooMap ignored = coo_map(3, i.data(), j.data(), 4, 6, 2);
  EXPECT_EQ(ignored.pattern.nbrows, 2);
  EXPECT_EQ(ignored.pattern.nbcols, 3);
  EXPECT_EQ(ignored.pattern.nnzb(), 0);
  EXPECT_EQ(ignored.jmap, (std::vector<Index>{0}));
}

TEST(AijCompoundCoo, RejectsBadInput) {
  const std::vector<Index> i = {0, 4}, j = {1, 1};
  EXPECT_THROW(coo_map(2, i.data(), j.data(), 4, 4, 2), std::invalid_argument);     // row 4 of 4
  EXPECT_THROW(coo_map(1, j.data(), i.data() + 1, 4, 4, 2), std::invalid_argument); // column 4 of 4
  EXPECT_NO_THROW(coo_map(1, i.data(), j.data(), 4, 4, 2));
  EXPECT_THROW(coo_map(1, i.data(), j.data(), 5, 4, 2), std::invalid_argument); // not a multiple
  EXPECT_THROW(coo_map(1, i.data(), j.data(), 4, 4, 1), std::invalid_argument); // k = 1
  EXPECT_THROW(coo_map(-1, i.data(), j.data(), 4, 4, 2), std::invalid_argument);
  EXPECT_THROW(coo_map(1, nullptr, j.data(), 4, 4, 2), std::invalid_argument);
}

} // namespace
} // namespace pgk::aijcompound::test

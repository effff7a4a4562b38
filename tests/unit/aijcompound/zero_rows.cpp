// MatZeroRows / MatZeroRowsColumns references (src/aijcompound/zero_rows.hpp) against the
// expanded scalar CSR with the rows (and columns) zeroed.
#include "src/aijcompound/zero_rows.hpp"
#include "tests/unit/aijcompound/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace pgk::aijcompound::test {
namespace {

std::string name(Shape sh, Index n) {
  return std::string(kind_name(sh.kind)) + " bs " + std::to_string(sh.bs) + " n " + std::to_string(n);
}

// The scalar reference of MatZeroRows on the expansion: the rows' stored scalars 0, the diagonal diag.
Csr scalar_zero_rows(Csr s, const std::vector<Index> &rows, double diag) {
  for (Index r : rows)
    for (Index p = s.rowptr[r]; p < s.rowptr[r + 1]; ++p) s.values[p] = s.colidx[p] == r ? diag : 0.0;
  return s;
}

// Equal as numbers (the expansion of a zeroed complex or quaternion entry holds -0.0 where it negates).
bool same_values(const Vector &a, const Vector &b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// Scalar rows of every block row bi with bi % 3 == 1 (whole block rows), repeated and reversed.
std::vector<Index> whole_block_rows(Index nbrows, int bs) {
  std::vector<Index> rows;
  for (Index bi = nbrows - 1; bi >= 0; --bi)
    if (bi % 3 == 1)
      for (int i = bs - 1; i >= 0; --i) rows.push_back(bi * bs + i);
  if (!rows.empty()) rows.push_back(rows.front());
  return rows;
}

TEST(AijCompoundZeroRows, ZeroRowsWholeBlockRowsKeepTheKind) {
  for (const Shape &sh : all_shapes())
    for (const double diag : {0.0, 2.5}) {
      const Index n = 19;
      CompoundCsr a = random_compound(sh, n, n, 900 + sh.bs, 6, true);
      const std::vector<Index> rows = whole_block_rows(n, sh.bs);
      EXPECT_TRUE(covers_whole_block_rows(sh.bs, rows.data(), static_cast<Index>(rows.size())));
      const Csr ref = scalar_zero_rows(expand(a), rows, diag);
      zero_rows(a, rows.data(), static_cast<Index>(rows.size()), diag);
      EXPECT_EQ(a.kind, sh.kind);
      const Csr got = expand(a);
      EXPECT_EQ(got.colidx, ref.colidx) << name(sh, n); // the pattern is kept
      EXPECT_TRUE(same_values(got.values, ref.values)) << name(sh, n) << " diag " << diag;
    }
}

TEST(AijCompoundZeroRows, ZeroRowsPartOfABlockRow) {
  for (const Shape &sh : all_shapes()) {
    const Index n = 19;
    CompoundCsr a = random_compound(sh, n, n, 950 + sh.bs, 6, true);
    const std::vector<Index> rows = {4 * sh.bs + 1, 0, 4 * sh.bs + 1, 18 * sh.bs + sh.bs - 1};
    EXPECT_FALSE(covers_whole_block_rows(sh.bs, rows.data(), static_cast<Index>(rows.size())));
    if (sh.kind != EntryKind::block) { // the form cannot hold: an error, a unchanged
      const CompoundCsr before = a;
      EXPECT_THROW(zero_rows(a, rows.data(), 4, 1.0), std::invalid_argument) << name(sh, n);
      EXPECT_TRUE(same(a, before));
      continue;
    }
    const Csr ref = scalar_zero_rows(expand(a), rows, 1.0);
    zero_rows(a, rows.data(), 4, 1.0);
    EXPECT_TRUE(same_values(expand(a).values, ref.values)) << name(sh, n);
  }
}

TEST(AijCompoundZeroRows, ZeroRowsBadInput) {
  for (const Shape &sh : all_shapes()) {
    CompoundCsr a = random_compound(sh, 12, 9, 990 + sh.bs); // rows >= 9 have no diagonal column
    const CompoundCsr before = a;
    const Index out[] = {12 * sh.bs}, negative[] = {-1};
    EXPECT_THROW(zero_rows(a, out, 1, 0.0), std::invalid_argument);
    EXPECT_THROW(zero_rows(a, negative, 1, 0.0), std::invalid_argument);
    std::vector<Index> no_diagonal;
    for (int i = 0; i < sh.bs; ++i) no_diagonal.push_back(10 * sh.bs + i);
    EXPECT_THROW(zero_rows(a, no_diagonal.data(), sh.bs, 1.0), std::invalid_argument) << name(sh, 12);
    EXPECT_TRUE(same(a, before));
    zero_rows(a, no_diagonal.data(), sh.bs, 0.0); // a zero diagonal needs no diagonal block
    const Csr ref = scalar_zero_rows(expand(before), no_diagonal, 0.0);
    EXPECT_TRUE(same_values(expand(a).values, ref.values));
    zero_rows(a, nullptr, 0, 1.0); // no rows: nothing to do
  }
}

// The scalar reference of MatZeroRowsColumns' column part: b_i -= a_ij x_j over masked j (row by
// row, ascending columns: MATSEQAIJ's order), then the masked columns' scalars 0.
void scalar_eliminate(Csr &s, const std::vector<unsigned char> &mask, const Vector &x, Vector &b) {
  for (Index i = 0; i < s.nrows; ++i)
    for (Index p = s.rowptr[i]; p < s.rowptr[i + 1]; ++p)
      if (mask[s.colidx[p]]) b[i] -= s.values[p] * x[s.colidx[p]], s.values[p] = 0.0;
}

TEST(AijCompoundZeroRows, EliminateColumnsEqualsTheScalarReference) {
  for (const Shape &sh : all_shapes())
    for (const bool whole : {true, false}) {
      const Index n = 19;
      CompoundCsr a = random_compound(sh, n, n, 700 + sh.bs, 6, true);
      std::vector<unsigned char> mask(static_cast<std::size_t>(n * sh.bs), 0);
      for (Index bj = 1; bj < n; bj += 3)
        for (int c = 0; c < sh.bs; ++c) mask[bj * sh.bs + c] = whole || c == 1;
      const Vector x = random_vector(n * sh.bs, 3);
      Vector b = random_vector(n * sh.bs, 4), bref = b;
      Csr ref = expand(a);
      scalar_eliminate(ref, mask, x, bref);
      if (sh.kind != EntryKind::block && !whole) { // the form cannot hold: an error, nothing changed
        const CompoundCsr before = a;
        const Vector b0 = b;
        EXPECT_THROW(eliminate_columns(a, mask.data(), x.data(), b.data()), std::invalid_argument) << name(sh, n);
        EXPECT_TRUE(same(a, before));
        EXPECT_TRUE(same_bits(b, b0));
        continue;
      }
      eliminate_columns(a, mask.data(), x.data(), b.data());
      EXPECT_TRUE(same_values(expand(a).values, ref.values)) << name(sh, n) << (whole ? " whole" : " part");
      EXPECT_TRUE(same_bits(b, bref)) << name(sh, n);      // the same operations in MATSEQAIJ's order
      eliminate_columns(a, mask.data(), nullptr, nullptr); // no vectors: the matrix only
    }
}

} // namespace
} // namespace pgk::aijcompound::test

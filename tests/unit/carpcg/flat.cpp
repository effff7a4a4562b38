// The flat layouts of the device schemes (src/carpcg/flat.hpp), checked on the host: their
// sequential emulations reproduce the reference bit for bit, so on the device only the
// parallel execution of the same operations is left to check (tests/gpu/carpcg).
#include "src/carpcg/blocks.hpp"
#include "src/carpcg/coloring.hpp"
#include "src/carpcg/flat.hpp"
#include "src/carpcg/sweep.hpp"
#include "tests/unit/carpcg/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace pgk::carpcg::test {
namespace {

const char *const kSpecs[] = {"fem2d:n=20", "helmholtz2d:n=17,kh=0.5,peclet=20", "convdiff2d:n=19,peclet=1000"};

// Rows 5, 22, 39, ... with all their entries set to 0 (explicit zeros kept).
Csr with_zero_rows(Csr a) {
  for (Index i = 5; i < a.nrows; i += 17)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) a.values[k] = 0;
  return a;
}

Vector pseudo_random(Index n, unsigned seed) {
  Vector v(static_cast<std::size_t>(n));
  for (double &x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<double>(seed >> 8) / static_cast<double>(1u << 24) - 0.5;
  }
  return v;
}

TEST(Flat, CimminoOverTheTransposeIsBitwise) {
  for (const char *spec : kSpecs) {
    const Csr a = with_zero_rows(make(spec));
    const Vector norms = row_norms2(view_of(a));
    const TransposeMap t = transpose_map(view_of(a));
    ASSERT_EQ(t.colptr.back(), a.rowptr.back());
    for (Index j = 0; j < a.ncols; ++j)
      EXPECT_TRUE(std::is_sorted(t.rows.begin() + t.colptr[j], t.rows.begin() + t.colptr[j + 1])) << spec;
    const Vector x = pseudo_random(a.nrows, 3), b = pseudo_random(a.nrows, 5);
    Vector acc(static_cast<std::size_t>(a.nrows), 0.0), want(acc.size()), coef(acc.size()), got(acc.size());
    cimmino_pass(view_of(a), norms.data(), b.data(), 0.35, x.data(), acc.data());
    for (std::size_t j = 0; j < acc.size(); ++j) want[j] = x[j] + acc[j];
    cimmino_transposed(view_of(a), t, norms.data(), b.data(), 0.35, x.data(), x.data(), coef.data(), got.data());
    EXPECT_EQ(got, want) << spec;
    cimmino_transposed(view_of(a), t, norms.data(), b.data(), 0.35, x.data(), nullptr, coef.data(), got.data());
    EXPECT_EQ(got, acc) << spec;
  }
}

TEST(Flat, CarpOverFlatBlocksIsBitwise) {
  for (const char *spec : kSpecs)
    for (const Index blocks : {1, 3, 64, 100000}) {
      const std::string what = std::string(spec) + ", " + std::to_string(blocks) + " blocks";
      const Csr a = with_zero_rows(make(spec));
      const Vector norms = row_norms2(view_of(a));
      const Index t = std::min<Index>(blocks, a.nrows);
      const BlockPlan plan(view_of(a), norms, contiguous_blocks(a.nrows, blocks), t);
      const FlatBlocks f = flatten(plan, view_of(a));
      ASSERT_EQ(f.nblocks(), plan.nblocks()) << what;
      for (Index j = 0; j < a.ncols; ++j)
        EXPECT_EQ(f.gather_ptr[j + 1] - f.gather_ptr[j], plan.multiplicity()[j]) << what << ", unknown " << j;
      const Vector x = pseudo_random(a.nrows, 7), b = pseudo_random(a.nrows, 11);
      Vector copies(f.cols.size()), got(static_cast<std::size_t>(a.nrows)), acc(got.size()), want(got.size());
      for (const bool backward : {false, true}) {
        plan.sweep_sum(view_of(a), norms.data(), b.data(), 1.4, backward, x.data(), acc.data());
        for (Index j = 0; j < a.ncols; ++j)
          want[j] = plan.multiplicity()[j] > 0 ? acc[j] / static_cast<double>(plan.multiplicity()[j]) : x[j];
        carp_half_flat(view_of(a), f, norms.data(), b.data(), 1.4, backward, x.data(), copies.data(), got.data());
        EXPECT_EQ(got, want) << what << (backward ? ", backward" : ", forward");
      }
    }
}

// The device sweeps the rows of one colour in any order (a group of lanes per row, in parallel): rows
// of a colour touch disjoint unknowns, so the order within a colour changes no bit.
TEST(Flat, OrderWithinAColourChangesNoBit) {
  for (const char *spec : kSpecs) {
    const Csr a = with_zero_rows(make(spec));
    const Vector norms = row_norms2(view_of(a));
    const Coloring c = distance2_coloring(view_of(a));
    const Vector b = pseudo_random(a.nrows, 13);
    Vector x = pseudo_random(a.nrows, 17), y = x;
    for (int col = 0; col < c.ncolors; ++col) {
      std::vector<Index> rows(c.rows.begin() + c.class_ptr[col], c.rows.begin() + c.class_ptr[col + 1]);
      sweep(view_of(a), norms.data(), b.data(), 1.0, rows.data(), c.class_size(col), false, x.data());
      std::reverse(rows.begin(), rows.end());
      std::rotate(rows.begin(), rows.begin() + rows.size() / 3, rows.end());
      sweep(view_of(a), norms.data(), b.data(), 1.0, rows.data(), c.class_size(col), false, y.data());
    }
    EXPECT_EQ(x, y) << spec;
  }
}

} // namespace
} // namespace pgk::carpcg::test

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
#include <map>
#include <set>
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
        carp_half_flat(view_of(a), f, plan.local_col().data(), norms.data(), b.data(), 1.4, backward, x.data(),
                       copies.data(), got.data());
        EXPECT_EQ(got, want) << what << (backward ? ", backward" : ", forward");
      }
    }
}

// The plan by its definition (blocks.hpp), with std::set: a block's columns are the distinct
// columns of its nonzero rows, ascending; an entry's local column is its column's place among them.
void expect_plan_is_its_definition(const Csr &a, const Vector &norms, const std::vector<Index> &block, Index nblocks,
                                   const BlockPlan &plan, const std::string &what) {
  std::vector<std::set<Index>> cols(static_cast<std::size_t>(nblocks));
  std::vector<std::vector<Index>> rows(static_cast<std::size_t>(nblocks));
  for (Index i = 0; i < a.nrows; ++i)
    if (norms[i] != 0) {
      rows[block[i]].push_back(i);
      cols[block[i]].insert(a.colidx.begin() + a.rowptr[i], a.colidx.begin() + a.rowptr[i + 1]);
    }
  std::vector<Index> mult(static_cast<std::size_t>(a.ncols), 0);
  for (Index k = 0; k < nblocks; ++k) {
    ASSERT_EQ(plan.rows(k), rows[k]) << what << ", block " << k;
    ASSERT_EQ(plan.cols(k), std::vector<Index>(cols[k].begin(), cols[k].end())) << what << ", block " << k;
    std::map<Index, Index> place;
    for (const Index j : cols[k]) place.emplace(j, static_cast<Index>(place.size())), ++mult[j];
    for (const Index i : rows[k])
      for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) ASSERT_EQ(plan.local_col()[e], place[a.colidx[e]]) << what;
  }
  EXPECT_EQ(plan.multiplicity(), mult) << what;
}

// The threaded construction (blocks handed out to free threads, multiplicities added atomically)
// gives the plan of its definition and the same flat arrays for any thread count, on matrices past
// the size where the threads start (2^16 stored entries) and with blocks that are not contiguous.
TEST(Flat, PlanAndFlatArraysAreTheSameForAnyThreadCount) {
  for (const char *spec : {"fem2d:n=110", "convdiff2d:n=125,peclet=1000"}) {
    const Csr a = with_zero_rows(make(spec));
    ASSERT_GE(a.rowptr.back(), 1 << 16) << spec;
    const Vector norms = row_norms2(view_of(a));
    std::vector<Index> strided(static_cast<std::size_t>(a.nrows));
    for (Index i = 0; i < a.nrows; ++i) strided[i] = (i * 7) % 41;
    for (const Index blocks : {1, 64, 3000, 41}) {
      const std::vector<Index> block = blocks == 41 ? strided : contiguous_blocks(a.nrows, blocks, 3);
      ASSERT_EQ(block, blocks == 41 ? strided : contiguous_blocks(a.nrows, blocks)) << spec;
      const std::string what =
          std::string(spec) + ", " + std::to_string(blocks) + (blocks == 41 ? " strided blocks" : " blocks");
      const BlockPlan one(view_of(a), norms, block, blocks, 1);
      expect_plan_is_its_definition(a, norms, block, blocks, one, what);
      const FlatBlocks f1 = flatten(one, view_of(a), 1);
      for (const int threads : {2, 3, 8}) {
        const BlockPlan many(view_of(a), norms, block, blocks, threads);
        for (Index k = 0; k < blocks; ++k)
          ASSERT_EQ(many.cols(k), one.cols(k)) << what << ", " << threads << " threads";
        EXPECT_EQ(many.local_col(), one.local_col()) << what << ", " << threads << " threads";
        EXPECT_EQ(many.multiplicity(), one.multiplicity()) << what << ", " << threads << " threads";
        const FlatBlocks f = flatten(many, view_of(a), threads);
        EXPECT_TRUE(f.row_ptr == f1.row_ptr && f.rows == f1.rows && f.col_ptr == f1.col_ptr && f.cols == f1.cols &&
                    f.gather_ptr == f1.gather_ptr && f.gather_pos == f1.gather_pos)
            << what << ", " << threads << " threads";
      }
    }
  }
}

TEST(Flat, FlattenRefusesAnotherMatrix) {
  const Csr a = make("fem2d:n=20"), b = make("fem2d:n=21");
  const BlockPlan plan(view_of(a), row_norms2(view_of(a)), contiguous_blocks(a.nrows, 4), 4);
  EXPECT_THROW(flatten(plan, view_of(b)), std::invalid_argument);
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

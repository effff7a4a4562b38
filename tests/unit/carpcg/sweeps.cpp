// carpcg reference: row projections, colouring, blocks and the double-sweep operators.
#include "src/carpcg/blocks.hpp"
#include "src/carpcg/coloring.hpp"
#include "src/carpcg/sweep.hpp"
#include "tests/unit/carpcg/support.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

namespace pgk::carpcg::test {
namespace {

Csr small_system() {
  // 3 x 3 nonsymmetric with an explicit zero entry.
  return csr_from_coo(3, 3, {0, 0, 1, 1, 2, 2, 2}, {0, 1, 0, 1, 0, 1, 2}, {2, -1, 0.5, 3, 0, 1, 4});
}

TEST(Sweep, OneProjectionSatisfiesItsRowWithUnitRelaxation) {
  const Csr a = small_system();
  const Vector norms = row_norms2(view_of(a));
  EXPECT_EQ(norms, (Vector{5, 9.25, 17}));
  const Vector b = {1, 2, 3};
  for (const Index row : {0, 1, 2}) {
    Vector x = {0.3, -0.7, 1.1};
    sweep(view_of(a), norms.data(), b.data(), 1.0, &row, 1, false, x.data());
    double dot = 0;
    for (Index k = a.rowptr[row]; k < a.rowptr[row + 1]; ++k) dot += a.values[k] * x[a.colidx[k]];
    EXPECT_NEAR(dot, b[row], 1e-15);
  }
}

TEST(Sweep, ZeroRowsAreSkippedAndNanIsAnError) {
  // Row 1 is stored with explicit zeros only, row 2 has no entries: both skipped.
  const Csr a = csr_from_coo(3, 3, {0, 0, 1, 1}, {0, 1, 0, 2}, {1, 1, 0, 0});
  const Vector norms = row_norms2(view_of(a));
  EXPECT_EQ(norms, (Vector{2, 0, 0}));
  const Vector b = {4, 7, 9};
  Vector x = {1, 1, 1};
  sweep(view_of(a), norms.data(), b.data(), 1.0, nullptr, 3, false, x.data());
  EXPECT_EQ(x, (Vector{2, 2, 1}));
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    const Csr nan = csr_from_coo(2, 2, {0, 1}, {0, 1}, {1, bad});
    EXPECT_THROW(row_norms2(view_of(nan)), std::domain_error);
    EXPECT_THROW(make_double_sweep(view_of(nan), options(Scheme::Carp)), std::domain_error);
  }
  EXPECT_THROW(row_norms2(view_of(csr_from_coo(1, 1, {0}, {0}, {1e200}))), std::domain_error); // norm overflows
}

TEST(Sweep, BackwardIsTheReverseOrderAndTheUpdateLogRecordsGhosts) {
  const Csr a = make("convdiff2d:n=4");
  const Vector norms = row_norms2(view_of(a));
  std::vector<Index> reversed(16);
  for (Index i = 0; i < 16; ++i) reversed[i] = 15 - i;
  Vector x1(16, 0.25), x2(16, 0.25), delta(6, 0.0);
  const Vector b = times(a, exact_solution(16));
  sweep(view_of(a), norms.data(), b.data(), 1.3, nullptr, 16, true, x1.data());
  Vector before = x2;
  sweep(view_of(a), norms.data(), b.data(), 1.3, reversed.data(), 16, false, x2.data(), UpdateLog{10, delta.data()});
  EXPECT_EQ(x1, x2);
  for (Index j = 10; j < 16; ++j) EXPECT_NEAR(delta[j - 10], x2[j] - before[j], 1e-15);
}

TEST(Coloring, DistanceTwoGreedyAndDeterministic) {
  for (const char *spec : {"fem2d:n=12", "helmholtz2d:n=9,peclet=3", "convdiff2d:n=7", "random:n=200,deg=5",
                           "hubrow:n=60", "empty:n=5", "path:n=1"}) {
    SCOPED_TRACE(spec);
    const Csr a = make(spec);
    const Coloring c = distance2_coloring(view_of(a));
    EXPECT_TRUE(is_distance2_coloring(view_of(a), c));
    EXPECT_EQ(c.rows.size(), static_cast<std::size_t>(a.nrows));
    // Greedy: a row of colour k > 0 overlaps an earlier row of every colour below k.
    const Csr at = transpose(view_of(a));
    for (Index i = 0; i < a.nrows; ++i) {
      std::vector<bool> below(static_cast<std::size_t>(c.color[i]), false);
      for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
        for (Index f = at.rowptr[a.colidx[e]]; f < at.rowptr[a.colidx[e] + 1]; ++f) {
          const Index k = at.colidx[f];
          if (k < i && c.color[k] < c.color[i]) below[c.color[k]] = true;
        }
      for (const bool b : below) EXPECT_TRUE(b) << "row " << i;
    }
    EXPECT_EQ(distance2_coloring(view_of(a)).color, c.color);
  }
  // The 5-point stencil: rows within L1 distance 2 conflict; 5 colours are optimal, the greedy
  // natural order takes 7.
  EXPECT_EQ(distance2_coloring(view_of(make("lap2d5:n=6"))).ncolors, 7);
  EXPECT_FALSE(is_distance2_coloring(view_of(make("path:n=4")), coloring_from_colors({0, 0, 1, 1})));
  EXPECT_THROW(coloring_from_colors({0, -1}), std::invalid_argument);
  // A rank's rows in the global classes: colours it lacks are empty classes.
  const Coloring local = coloring_from_colors({2, 0, 2}, 4);
  EXPECT_EQ(local.ncolors, 4);
  EXPECT_EQ(local.class_ptr, (std::vector<Index>{0, 1, 1, 3, 3}));
  EXPECT_EQ(local.rows, (std::vector<Index>{1, 0, 2}));
  EXPECT_THROW(coloring_from_colors({0, 4}, 4), std::invalid_argument);
}

TEST(Blocks, ContiguousPlanMultiplicityAndCopies) {
  EXPECT_EQ(contiguous_blocks(7, 3), (std::vector<Index>{0, 0, 1, 1, 2, 2, 2}));
  EXPECT_EQ(contiguous_blocks(2, 5), (std::vector<Index>{0, 1}));
  const Csr a = make("path:n=6");
  const Vector norms = row_norms2(view_of(a));
  const BlockPlan plan(view_of(a), norms, contiguous_blocks(6, 2), 2);
  EXPECT_EQ(plan.cols(0), (std::vector<Index>{0, 1, 2, 3}));
  EXPECT_EQ(plan.cols(1), (std::vector<Index>{2, 3, 4, 5}));
  EXPECT_EQ(plan.multiplicity(), (std::vector<Index>{1, 1, 2, 2, 1, 1}));
  // One block's sum is its own sweep.
  const BlockPlan one(view_of(a), norms, contiguous_blocks(6, 1), 1);
  const Vector b = {1, 2, 3, 4, 5, 6};
  Vector x(6, 0.5), acc(6), seq = x;
  one.sweep_sum(view_of(a), norms.data(), b.data(), 1.0, false, x.data(), acc.data());
  sweep(view_of(a), norms.data(), b.data(), 1.0, nullptr, 6, false, seq.data());
  EXPECT_EQ(acc, seq);
  EXPECT_THROW(BlockPlan(view_of(a), norms, {0, 0, 0, 0, 0, 2}, 2), std::invalid_argument);
}

// R A is symmetric in the W inner product and positive semi-definite: the property that makes
// CG applicable (and that Euclidean dots lose for CARP).
TEST(Operators, WSymmetricPositiveSemidefinite) {
  const Csr a = make("convdiff2d:nx=7,ny=6,peclet=300"); // nonsymmetric A
  struct Case {
    Scheme s;
    Index blocks;
  };
  for (const Case k : {Case{Scheme::Sequential, 1}, Case{Scheme::Multicolor, 1}, Case{Scheme::Carp, 1},
                       Case{Scheme::Carp, 5}, Case{Scheme::Cimmino, 1}}) {
    SCOPED_TRACE(std::string(scheme_name(k.s)) + " blocks " + std::to_string(k.blocks));
    auto op = make_double_sweep(view_of(a), options(k.s, -1, k.blocks));
    const Dense m = dense_m(*op);
    EXPECT_LT(w_asymmetry(m, op->weights()), 1e-13);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const Vector v = exact_solution(a.nrows + static_cast<Index>(seed)); // any fixed vector
      double q = 0;
      for (std::size_t i = 0; i < m.size(); ++i)
        for (std::size_t j = 0; j < m.size(); ++j)
          q += v[i] * (op->weights().empty() ? 1.0 : op->weights()[i]) * m[i][j] * v[j];
      EXPECT_GT(q, 0.0);
    }
    if (k.s == Scheme::Carp && k.blocks > 1) {
      EXPECT_GT(w_asymmetry(m, {}), 1e-3); // Euclidean dots see a nonsymmetric operator
      EXPECT_GE(*std::max_element(op->weights().begin(), op->weights().end()), 2.0);
    }
  }
}

TEST(Operators, DoubleSweepIsAffine) {
  const Csr a = make("helmholtz2d:n=6,kh=0.9,peclet=10");
  const Vector b = times(a, exact_solution(36)), x = exact_solution(37);
  for (const Scheme s : {Scheme::Sequential, Scheme::Multicolor, Scheme::Carp, Scheme::Cimmino}) {
    auto op = make_double_sweep(view_of(a), options(s, -1, 3));
    Vector yxb(36), yx0(36), y0b(36), zero(36, 0.0);
    op->apply(x.data(), b.data(), yxb.data());
    op->apply(x.data(), nullptr, yx0.data());
    op->apply(zero.data(), b.data(), y0b.data());
    for (std::size_t i = 0; i < 36; ++i) EXPECT_NEAR(yxb[i], yx0[i] + y0b[i], 1e-13) << scheme_name(s);
  }
}

TEST(Operators, CarpWithOneBlockIsSequentialAndBadOptionsAreRefused) {
  const Csr a = make("fem2d:n=9");
  auto seq = make_double_sweep(view_of(a), options(Scheme::Sequential));
  auto carp = make_double_sweep(view_of(a), options(Scheme::Carp));
  const Vector x = exact_solution(81), b = times(a, x);
  Vector y1(81), y2(81), zero(81, 0.0);
  seq->apply(zero.data(), b.data(), y1.data());
  carp->apply(zero.data(), b.data(), y2.data());
  EXPECT_EQ(y1, y2);
  EXPECT_THROW(make_double_sweep(view_of(a), options(Scheme::Carp, 2.0)), std::invalid_argument);
  EXPECT_THROW(make_double_sweep(view_of(a), options(Scheme::Sequential, 2.5)), std::invalid_argument);
  EXPECT_NO_THROW(make_double_sweep(view_of(a), options(Scheme::Cimmino, 3.0)));
  OperatorOptions negative = options(Scheme::Cimmino);
  negative.lambda = -0.35;
  EXPECT_THROW(make_double_sweep(view_of(a), negative), std::invalid_argument);
  EXPECT_THROW(parse_scheme("jacobi"), std::invalid_argument);
  EXPECT_EQ(parse_scheme("multicolor"), Scheme::Multicolor);
  const Csr rect = csr_from_coo(2, 3, {0, 1}, {0, 2}, {1, 1});
  EXPECT_THROW(make_double_sweep(view_of(rect), options(Scheme::Carp)), std::invalid_argument);
}

} // namespace
} // namespace pgk::carpcg::test

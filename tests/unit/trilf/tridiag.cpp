// PC trilf reference, step 3: assembly of T from A in the path permutation, the
// factorization with its documented zero/tiny pivot fallback, and the apply
// z = Q T^-1 Q^T r, compared with dense Gaussian elimination with partial pivoting.
#include "tests/unit/trilf/support.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

namespace pgk::trilf::test {
namespace {

struct Pipeline {
  Csr a;
  LinearForest forest;
  PathOrder order;
  Tridiagonal t;
};

Pipeline build(const Csr &a, const FactorOptions &o = FactorOptions()) {
  Pipeline p{a, extract_linear_forest(view_of(a), o), {}, {}};
  p.order = order_paths(p.forest);
  p.t = assemble(view_of(a), p.order);
  return p;
}

std::vector<Csr> test_matrices() {
  std::vector<Csr> m;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    RandomMatrix r;
    r.n = 150;
    r.seed = seed;
    r.symmetric_pattern = seed != 2;
    r.symmetric_values = seed == 1;
    r.levels = seed == 3 ? 2 : 0;
    r.negative_diag = seed == 4; // indefinite, still diagonally dominant
    m.push_back(random_matrix(r));
  }
  for (const char *s : {"aniso2d:nx=17,ny=13,variant=2", "convdiff2d:n=15,peclet=40", "lap3d7:n=6", "elast3d:n=4"})
    m.push_back(spec(s));
  return m;
}

// Dense T in the ORIGINAL ordering straight from the definition: A's diagonal plus A's
// entries on forest edges. Independent of the permutation and of assemble().
Dense dense_forest_matrix(const Csr &a, const LinearForest &f) {
  const auto n = static_cast<std::size_t>(a.nrows);
  Dense d(n, std::vector<double>(n, 0.0));
  for (Index i = 0; i < a.nrows; ++i) {
    d[static_cast<std::size_t>(i)][static_cast<std::size_t>(i)] = entry(a, i, i);
    for (int k = 0; k < 2; ++k) {
      const Index j = f.nbr[2 * static_cast<std::size_t>(i) + static_cast<std::size_t>(k)];
      if (j >= 0) d[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = entry(a, i, j);
    }
  }
  return d;
}

TEST(TrilfAssemble, EqualsTheTridiagonalPartOfThePermutedMatrixWithinPaths) {
  for (const Csr &a : test_matrices()) {
    const Pipeline p = build(a);
    const Csr b = permute_symmetric(a, p.order.perm);
    std::vector<char> start(static_cast<std::size_t>(a.nrows) + 1, 0);
    for (const Index s : p.order.path_start) start[static_cast<std::size_t>(s)] = 1;
    for (Index k = 0; k < a.nrows; ++k) {
      const auto uk = static_cast<std::size_t>(k);
      ASSERT_EQ(p.t.diag[uk], entry(b, k, k));
      ASSERT_EQ(p.t.lower[uk], start[uk] ? 0.0 : entry(b, k, k - 1));
      ASSERT_EQ(p.t.upper[uk], start[uk + 1] ? 0.0 : entry(b, k, k + 1));
    }
    // The forest coverage is what T keeps.
    EXPECT_DOUBLE_EQ(coverage(view_of(a), p.order), coverage(view_of(a), p.forest));
  }
}

TEST(TrilfSolve, EqualsDenseSolveOfTheForestMatrix) {
  int checked = 0;
  for (const Csr &a : test_matrices()) {
    const Pipeline p = build(a);
    const TridiagonalFactor f = factor(p.t, p.order.perm);
    EXPECT_EQ(f.splits, 0);
    EXPECT_EQ(f.replaced, 0);
    const auto n = static_cast<std::size_t>(a.nrows);
    const std::vector<double> b = random_vector(n, 100 + n);
    std::vector<double> x(n);
    solve(f, b.data(), x.data());
    const std::vector<double> ref = dense_solve(dense_forest_matrix(a, p.forest), b);
    EXPECT_LE(rel_diff(x, ref), 1e-12) << "n = " << n;
    // In place (x aliases b).
    std::vector<double> y = b;
    solve(f, y.data(), y.data());
    EXPECT_EQ(y, x);
    ++checked;
  }
  EXPECT_EQ(checked, 8);
}

TEST(TrilfSolve, NonDominantButNonsingularPaths) {
  // Symmetric indefinite tridiagonal with |d| < |l| + |u|, no tiny pivot.
  Tridiagonal t;
  const std::size_t n = 9;
  t.lower.assign(n, 1.0);
  t.upper.assign(n, 1.0);
  t.diag.assign(n, 0.5);
  t.lower[0] = t.upper[n - 1] = 0;
  t.lower[4] = t.upper[3] = 0; // two paths: 0..3 and 4..8
  std::vector<Index> perm{8, 7, 6, 5, 4, 3, 2, 1, 0};
  const TridiagonalFactor f = factor(t, perm);
  EXPECT_EQ(f.splits + f.replaced, 0);
  const std::vector<double> bp = random_vector(n, 3);
  std::vector<double> y = bp;
  solve_permuted(f, y.data());
  EXPECT_LE(rel_diff(y, dense_solve(dense_of(t), bp)), 1e-13);
  // The original-order interface gathers b[perm[k]] and scatters back.
  std::vector<double> b(n), x(n);
  for (std::size_t k = 0; k < n; ++k) b[static_cast<std::size_t>(perm[k])] = bp[k];
  solve(f, b.data(), x.data());
  for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(x[static_cast<std::size_t>(perm[k])], y[k]);
}

std::vector<Index> identity(std::size_t n) {
  std::vector<Index> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<Index>(i);
  return p;
}

Tridiagonal tri(std::vector<double> l, std::vector<double> d, std::vector<double> u) {
  Tridiagonal t;
  t.lower = std::move(l);
  t.diag = std::move(d);
  t.upper = std::move(u);
  return t;
}

TEST(TrilfPivots, ExactlySingularPairIsSplit) {
  const Tridiagonal t = tri({0, 1}, {1, 1}, {1, 0});
  const TridiagonalFactor f = factor(t, identity(2));
  EXPECT_EQ(f.splits, 1);
  EXPECT_EQ(f.replaced, 0);
  EXPECT_EQ(f.effective.lower, (std::vector<double>{0, 0}));
  EXPECT_EQ(f.effective.upper, (std::vector<double>{0, 0}));
  EXPECT_EQ(f.effective.diag, (std::vector<double>{1, 1}));
  std::vector<double> x{3, -4};
  solve_permuted(f, x.data());
  EXPECT_EQ(x, (std::vector<double>{3, -4})); // two Jacobi rows
}

TEST(TrilfPivots, ZeroDiagonalAtPathStartIsReplacedByTheRowNorm) {
  // Saddle point [0 2; 2 0]: d_0 = 0 -> 2 (|u_0|); then d'_1 = 0 - 2*2/2 = -2, fine.
  const Tridiagonal t = tri({0, 2}, {0, 0}, {2, 0});
  const TridiagonalFactor f = factor(t, identity(2));
  EXPECT_EQ(f.replaced, 1);
  EXPECT_EQ(f.splits, 0);
  EXPECT_EQ(f.effective.diag, (std::vector<double>{2, 0}));
  EXPECT_EQ(f.pivot, (std::vector<double>{2, -2}));
  std::vector<double> x{1, 1};
  solve_permuted(f, x.data());
  EXPECT_LE(rel_diff(x, dense_solve(dense_of(f.effective), {1, 1})), 1e-15);
  // A zero row (no diagonal, no coupling): replaced by 1, the equation becomes x = b.
  const TridiagonalFactor z = factor(tri({0, 0, 0}, {4, 0, -2}, {0, 0, 0}), identity(3));
  EXPECT_EQ(z.replaced, 1);
  std::vector<double> y{8, 5, 4};
  solve_permuted(z, y.data());
  EXPECT_EQ(y, (std::vector<double>{2, 5, -2}));
}

TEST(TrilfPivots, TinyPivotRelativeToItsRow) {
  // d_0 = 1e-20 against couplings of 1: replaced by -(1 + 1e-20) = -1 (sign kept); then
  // d'_1 = 1 - 1*1/(-1) = 2: no split.
  const TridiagonalFactor f = factor(tri({0, 1}, {-1e-20, 1}, {1, 0}), identity(2));
  EXPECT_EQ(f.replaced, 1);
  EXPECT_EQ(f.splits, 0);
  EXPECT_EQ(f.pivot, (std::vector<double>{-1, 2}));
  // rel_tol = 0 only catches exact zeros: the tiny pivot is kept.
  PivotOptions exact;
  exact.rel_tol = 0;
  const TridiagonalFactor g = factor(tri({0, 1}, {-1e-20, 1}, {1, 0}), identity(2), exact);
  EXPECT_EQ(g.replaced + g.splits, 0);
  EXPECT_EQ(g.pivot[0], -1e-20);
  PivotOptions bad;
  bad.rel_tol = -1;
  EXPECT_THROW(factor(tri({0}, {1}, {0}), identity(1), bad), std::invalid_argument);
}

TEST(TrilfPivots, RandomCancellationsGiveTheDocumentedEffectiveMatrix) {
  SplitMix64 rng(5);
  int splits = 0, replaced = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 60;
    Tridiagonal t;
    t.lower.assign(n, 0);
    t.upper.assign(n, 0);
    t.diag.assign(n, 0);
    // Build pivots p_k on purpose: most O(1), some exactly 0 (cancellation), some zero
    // diagonals at path starts; d_k = p_k + l_k u_{k-1} / p_{k-1}.
    double prev = 1;
    for (std::size_t k = 0; k < n; ++k) {
      const bool start = k == 0 || rng.bounded(7) == 0;
      if (!start) {
        t.lower[k] = 2 * rng.uniform() - 1;
        t.upper[k - 1] = 2 * rng.uniform() - 1;
      }
      const std::uint64_t kind = rng.bounded(6);
      const double p = kind == 0 ? 0.0 : (kind == 1 ? 1e-18 : 0.5 + rng.uniform());
      t.diag[k] = p + (start ? 0.0 : t.lower[k] * t.upper[k - 1] / prev);
      prev = p != 0 ? p : 1; // what the fallback will roughly leave behind
    }
    const TridiagonalFactor f = factor(t, identity(n));
    splits += static_cast<int>(f.splits);
    replaced += static_cast<int>(f.replaced);
    // T~ differs from T only at the reported places.
    Index lo_changed = 0, up_changed = 0, d_changed = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (f.effective.lower[k] != t.lower[k]) {
        ++lo_changed;
        EXPECT_EQ(f.effective.lower[k], 0.0);
        EXPECT_EQ(f.effective.upper[k - 1], 0.0);
      }
      up_changed += f.effective.upper[k] != t.upper[k];
      d_changed += f.effective.diag[k] != t.diag[k];
      const double s = std::fabs(t.lower[k]) + std::fabs(t.diag[k]) + std::fabs(t.upper[k]);
      EXPECT_GT(std::fabs(f.pivot[k]), 1.4901161193847656e-08 * s);
    }
    EXPECT_EQ(lo_changed, f.splits);
    EXPECT_EQ(up_changed, f.splits);
    EXPECT_LE(d_changed, f.replaced);
    // The factor solves T~.
    const std::vector<double> b = random_vector(n, 1000 + static_cast<std::uint64_t>(trial));
    std::vector<double> x = b;
    solve_permuted(f, x.data());
    std::vector<double> r(n);
    multiply(f.effective, x.data(), r.data());
    EXPECT_LE(rel_diff(r, b), 1e-9);
  }
  EXPECT_GT(splits, 20);
  EXPECT_GT(replaced, 20);
}

TEST(TrilfPivots, NonFiniteInputAndOverflowAreReported) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(factor(tri({0, 1}, {1, nan}, {1, 0}), identity(2)), std::domain_error);
  EXPECT_THROW(factor(tri({0, inf}, {1, 1}, {1, 0}), identity(2)), std::domain_error);
  // [1 1e200; 1e200 1]: by default d_0 = 1 is tiny against its row and becomes 1e200, so
  // nothing overflows; with rel_tol = 0 the update 1e200 * 1e200 does, and is reported.
  const TridiagonalFactor big = factor(tri({0, 1e200}, {1, 1}, {1e200, 0}), identity(2));
  EXPECT_EQ(big.replaced, 1);
  EXPECT_TRUE(std::isfinite(big.pivot[1]));
  PivotOptions exact;
  exact.rel_tol = 0;
  EXPECT_THROW(factor(tri({0, 1e200}, {1, 1}, {1e200, 0}), identity(2), exact), std::domain_error);
  // NaN in A is caught by assemble (the factor step never sees it).
  Csr a = spec("path:n=5");
  const Pipeline p = build(a);
  a.values[3] = nan;
  EXPECT_THROW(assemble(view_of(a), p.order), std::domain_error);
  // Malformed input.
  EXPECT_THROW(factor(tri({0, 1}, {1, 1}, {1}), identity(2)), std::invalid_argument);
  EXPECT_THROW(factor(tri({1, 1}, {1, 1}, {1, 0}), identity(2)), std::invalid_argument);
  EXPECT_THROW(factor(tri({0, 1}, {1, 1}, {1, 0}), std::vector<Index>{0, 0}), std::invalid_argument);
  PathOrder wrong = p.order;
  wrong.perm.pop_back();
  EXPECT_THROW(assemble(view_of(spec("path:n=5")), wrong), std::invalid_argument);
  // The empty matrix is fine.
  const TridiagonalFactor e = factor(Tridiagonal{}, {});
  solve(e, nullptr, nullptr);
  EXPECT_EQ(e.size(), 0);
}

TEST(TrilfSolve, UnmatchedVerticesAreJacobi) {
  // A diagonal matrix has no edges: T = diag(A), every vertex a path of its own.
  const Csr a = spec("empty:n=6");
  const Pipeline p = build(a);
  EXPECT_EQ(p.order.npaths(), 6);
  const TridiagonalFactor f = factor(p.t, p.order.perm);
  std::vector<double> b{1, 2, 3, 4, 5, 6}, x(6);
  solve(f, b.data(), x.data());
  EXPECT_EQ(x, b);
}

} // namespace
} // namespace pgk::trilf::test

namespace pgk::trilf::test {
namespace {

// y = T^T x in the permuted ordering, explicitly: (T^T x)_k = l_{k+1} x_{k+1} + d_k x_k +
// u_{k-1} x_{k-1}.
std::vector<double> multiply_transpose(const Tridiagonal &t, const std::vector<double> &x) {
  const std::size_t n = t.diag.size();
  std::vector<double> y(n);
  for (std::size_t k = 0; k < n; ++k) {
    double s = t.diag[k] * x[k];
    if (k > 0) s += t.upper[k - 1] * x[k - 1];
    if (k + 1 < n) s += t.lower[k + 1] * x[k + 1];
    y[k] = s;
  }
  return y;
}

TEST(TrilfSolveTranspose, InvertsTheTransposedEffectiveMatrix) {
  int checked = 0;
  // Matrices with nonsymmetric values (so T^T != T), plus pivot splits and replacements.
  for (const Csr &a : test_matrices()) {
    const Pipeline p = build(a);
    const TridiagonalFactor f = factor(p.t, p.order.perm);
    const auto n = static_cast<std::size_t>(a.nrows);
    const std::vector<double> b = random_vector(n, 7 + n);
    std::vector<double> x(n);
    solve_transpose(f, b.data(), x.data());
    // Q^T: permuted copies; T~^T (Q^T x) must equal Q^T b.
    std::vector<double> xp(n), bp(n);
    for (std::size_t k = 0; k < n; ++k) {
      xp[k] = x[static_cast<std::size_t>(f.perm[k])];
      bp[k] = b[static_cast<std::size_t>(f.perm[k])];
    }
    EXPECT_LE(rel_diff(multiply_transpose(f.effective, xp), bp), 1e-12) << "n = " << n;
    // In place, and the permuted form agrees.
    std::vector<double> y = b;
    solve_transpose(f, y.data(), y.data());
    EXPECT_EQ(y, x);
    std::vector<double> z = bp;
    solve_permuted_transpose(f, z.data());
    EXPECT_EQ(z, xp);
    ++checked;
  }
  EXPECT_EQ(checked, 8);
  SplitMix64 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const std::size_t n = 40;
    Tridiagonal t;
    t.lower.assign(n, 0);
    t.upper.assign(n, 0);
    t.diag.assign(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
      if (k > 0 && rng.bounded(5) != 0) {
        t.lower[k] = 2 * rng.uniform() - 1;
        t.upper[k - 1] = 2 * rng.uniform() - 1;
      }
      const std::uint64_t kind = rng.bounded(5);
      t.diag[k] = kind == 0 ? 0.0 : (kind == 1 ? t.lower[k] : 2 * rng.uniform() - 1);
    }
    const TridiagonalFactor f = factor(t, identity(n));
    const std::vector<double> b = random_vector(n, 500 + static_cast<std::uint64_t>(trial));
    std::vector<double> x = b;
    solve_permuted_transpose(f, x.data());
    EXPECT_LE(rel_diff(multiply_transpose(f.effective, x), b), 1e-9) << "trial " << trial;
  }
}

} // namespace
} // namespace pgk::trilf::test

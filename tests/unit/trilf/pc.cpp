// PC trilf reference end to end: Preconditioner::apply against dense solves, value updates
// on a fixed pattern, and the expected effect inside a Krylov method (fewer iterations than
// Jacobi and than the tridiagonal part in the original order, on ANISO2).
#include "tests/unit/trilf/support.hpp"
#include "src/trilf/pc.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace pgk::trilf::test {
namespace {

TEST(TrilfPc, ScalarAndBlockApplyMatchTheirSteps) {
  const Csr a = spec("convdiff2d:n=14,peclet=25");
  const auto n = static_cast<std::size_t>(a.nrows);
  const std::vector<double> r = random_vector(n, 42);
  for (const bool block : {false, true}) {
    Options opt;
    opt.block = block;
    const Preconditioner pc(view_of(a), opt);
    std::vector<double> z(n), ref(n);
    pc.apply(r.data(), z.data());
    if (block) {
      const BlockOrder o = block_linear_forest(view_of(a), opt.factor);
      EXPECT_EQ(o.slots, pc.block_order().slots);
      solve_block(factor_block(assemble_block(view_of(a), o), o), r.data(), ref.data());
      EXPECT_DOUBLE_EQ(pc.info().c_pi, coverage(view_of(a), o));
      EXPECT_EQ(pc.info().block.pairs * 2 + pc.info().block.ghosts, a.nrows);
    } else {
      const PathOrder o = order_paths(extract_linear_forest(view_of(a), opt.factor));
      EXPECT_EQ(o.perm, pc.order().perm);
      solve(factor(assemble(view_of(a), o), o.perm), r.data(), ref.data());
      EXPECT_EQ(pc.info().npaths, o.npaths());
      EXPECT_EQ(pc.info().forest.rounds_run, 5);
    }
    EXPECT_EQ(z, ref);
    EXPECT_DOUBLE_EQ(pc.info().c_id, coverage_identity(view_of(a)));
    EXPECT_GT(pc.info().c_pi, 0.0);
    EXPECT_EQ(pc.size(), a.nrows);
  }
}

TEST(TrilfPc, UpdateValuesKeepsTheForest) {
  Csr a = spec("aniso2d:n=12,variant=2");
  const auto n = static_cast<std::size_t>(a.nrows);
  const std::vector<double> r = random_vector(n, 1);
  for (const bool block : {false, true}) {
    Options opt;
    opt.block = block;
    Preconditioner pc(view_of(a), opt);
    std::vector<double> z1(n), z2(n);
    pc.apply(r.data(), z1.data());
    Csr a2 = a;
    for (double &v : a2.values) v *= 2; // exact: every operation of the solve scales by exactly 1/2
    pc.update_values(view_of(a2));
    pc.apply(r.data(), z2.data());
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(z2[i], z1[i] / 2);
    EXPECT_THROW(pc.update_values(view_of(spec("path:n=3"))), std::invalid_argument);
  }
}

// Preconditioned CG iterations to a relative residual of 1e-8 (T is SPD for ANISO: its
// paths are diagonally dominant), or -1 on failure.
template <class Apply> int pcg_iterations(const Csr &a, Apply prec) {
  const auto n = static_cast<std::size_t>(a.nrows);
  std::vector<double> b(n), x(n, 0.0), r, z(n), p, q(n);
  for (std::size_t i = 0; i < n; ++i)
    b[i] = std::sin(16 * 3.141592653589793 * static_cast<double>(i) / static_cast<double>(n)) + 0.1;
  r = b;
  prec(r.data(), z.data());
  p = z;
  auto dot = [](const std::vector<double> &u, const std::vector<double> &v) {
    double s = 0;
    for (std::size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
    return s;
  };
  const double bnorm = std::sqrt(dot(b, b));
  double rz = dot(r, z);
  for (int it = 1; it <= 2000; ++it) {
    for (Index i = 0; i < a.nrows; ++i) {
      double s = 0;
      for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
        s += a.values[static_cast<std::size_t>(e)] * p[static_cast<std::size_t>(a.colidx[e])];
      q[static_cast<std::size_t>(i)] = s;
    }
    const double alpha = rz / dot(p, q);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    if (std::sqrt(dot(r, r)) <= 1e-8 * bnorm) return it;
    prec(r.data(), z.data());
    const double rz2 = dot(r, z);
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + rz2 / rz * p[i];
    rz = rz2;
  }
  return -1;
}

// A tridiagonal preconditioner on a hand-made path order (identity = the paper's TriScal,
// all singletons = Jacobi).
TridiagonalFactor on_order(const Csr &a, bool one_path) {
  PathOrder o;
  for (Index i = 0; i < a.nrows; ++i) {
    o.perm.push_back(i);
    o.iperm.push_back(i);
    if (!one_path || i == 0) o.path_start.push_back(i);
  }
  o.path_start.push_back(a.nrows);
  return factor(assemble(view_of(a), o), o.perm);
}

TEST(TrilfPc, FewerKrylovIterationsThanJacobiAndTriScalOnAniso2) {
  const Csr a = spec("aniso2d:n=40,variant=2");
  const TridiagonalFactor jac = on_order(a, false), tri = on_order(a, true);
  const int it_jacobi = pcg_iterations(a, [&](const double *r, double *z) { solve(jac, r, z); });
  const int it_triscal = pcg_iterations(a, [&](const double *r, double *z) { solve(tri, r, z); });
  Options opt;
  const Preconditioner scal(view_of(a), opt);
  const int it_scalar = pcg_iterations(a, [&](const double *r, double *z) { scal.apply(r, z); });
  opt.block = true;
  opt.factor.charge_period = 1; // the paper's better block setting for ANISO
  const Preconditioner blk(view_of(a), opt);
  const int it_block = pcg_iterations(a, [&](const double *r, double *z) { blk.apply(r, z); });
  ASSERT_GT(it_jacobi, 0);
  ASSERT_GT(it_triscal, 0);
  ASSERT_GT(it_scalar, 0);
  ASSERT_GT(it_block, 0);
  EXPECT_LT(it_scalar, it_jacobi);
  EXPECT_LT(it_scalar, it_triscal);
  EXPECT_LT(it_block, it_triscal);
  std::printf("[ trilf ] PCG iterations on aniso2d:n=40,variant=2: Jacobi %d, TriScal %d, "
              "trilf %d, trilf block (m=1) %d\n",
              it_jacobi, it_triscal, it_scalar, it_block);
}

} // namespace
} // namespace pgk::trilf::test

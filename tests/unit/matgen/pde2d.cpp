// The 2D PDE kinds of the CARP-CG work (issue 11): fem2d (P1 finite elements, the report's
// problem class) and helmholtz2d (with and without convection). The generic checks (well formed,
// row slices, determinism, symmetry flag) cover them through all_specs() in generators.cpp.
#include "src/matgen/generators.hpp"

#include "src/common/csr_build.hpp"
#include "tests/support/host.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace pgk::gen {
namespace {

using test::Dense;
using test::same_csr;
using test::to_dense;

Csr make(const std::string &spec) { return generate(parse_spec(spec)); }

// Cholesky of a small dense matrix: true iff every pivot is positive (SPD).
bool cholesky_succeeds(Dense d) {
  const std::size_t n = d.size();
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t j = 0; j < k; ++j) d[k][k] -= d[k][j] * d[k][j];
    if (!(d[k][k] > 0)) return false;
    d[k][k] = std::sqrt(d[k][k]);
    for (std::size_t i = k + 1; i < n; ++i) {
      for (std::size_t j = 0; j < k; ++j) d[i][k] -= d[i][j] * d[k][j];
      d[i][k] /= d[k][k];
    }
  }
  return true;
}

double quadratic_form(const Dense &a, const std::vector<double> &x) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a.size(); ++j) s += x[i] * a[i][j] * x[j];
  return s;
}

// The P1 matrix assembled element by element (two triangles per cell, cut along (1,1)) with
// the Dirichlet rows replaced by identity rows and their columns dropped: an independent
// computation of what fem2d documents.
Dense assemble_p1(Index nx, Index ny, double side, double c) {
  const double hx = side / static_cast<double>(nx - 1), hy = side / static_cast<double>(ny - 1);
  const Index n = nx * ny;
  Dense a(static_cast<std::size_t>(n), std::vector<double>(static_cast<std::size_t>(n), 0.0));
  auto id = [nx](Index x, Index y) { return static_cast<std::size_t>(x + nx * y); };
  for (Index y = 0; y + 1 < ny; ++y)
    for (Index x = 0; x + 1 < nx; ++x) {
      const double p[2][3][2] = {{{0, 0}, {hx, 0}, {hx, hy}}, {{0, 0}, {hx, hy}, {0, hy}}};
      const std::size_t v[2][3] = {{id(x, y), id(x + 1, y), id(x + 1, y + 1)},
                                   {id(x, y), id(x + 1, y + 1), id(x, y + 1)}};
      for (int t = 0; t < 2; ++t) {
        // Gradients of the barycentric functions: grad l_i = rot(p_{i+2} - p_{i+1}) / (2 |T|).
        const double area = 0.5 * std::fabs((p[t][1][0] - p[t][0][0]) * (p[t][2][1] - p[t][0][1]) -
                                            (p[t][2][0] - p[t][0][0]) * (p[t][1][1] - p[t][0][1]));
        double g[3][2];
        for (int i = 0; i < 3; ++i) {
          const double *q1 = p[t][(i + 1) % 3], *q2 = p[t][(i + 2) % 3];
          g[i][0] = (q1[1] - q2[1]) / (2 * area);
          g[i][1] = (q2[0] - q1[0]) / (2 * area);
        }
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            a[v[t][i]][v[t][j]] +=
                area * (g[i][0] * g[j][0] + g[i][1] * g[j][1]) + c * area * (i == j ? 2.0 : 1.0) / 12;
      }
    }
  for (Index y = 0; y < ny; ++y)
    for (Index x = 0; x < nx; ++x) {
      if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) continue;
      const std::size_t b = id(x, y);
      for (std::size_t k = 0; k < a.size(); ++k) a[b][k] = a[k][b] = 0;
      a[b][b] = 1;
    }
  return a;
}

TEST(Fem2d, EqualsElementAssembly) {
  struct Case {
    Index nx, ny;
    double side, c;
  };
  for (const Case k : {Case{5, 5, 1, 1}, Case{6, 5, 3, 2.5}, Case{7, 4, 0.5, 0}, Case{4, 6, 3, 1000}}) {
    const std::string spec = "fem2d:nx=" + std::to_string(k.nx) + ",ny=" + std::to_string(k.ny) +
                             ",side=" + std::to_string(k.side) + ",reaction=" + std::to_string(k.c);
    SCOPED_TRACE(spec);
    const Csr a = make(spec);
    const Dense got = to_dense(a), want = assemble_p1(k.nx, k.ny, k.side, k.c);
    for (std::size_t i = 0; i < got.size(); ++i)
      for (std::size_t j = 0; j < got.size(); ++j)
        EXPECT_NEAR(got[i][j], want[i][j], 1e-12 * (1 + k.c)) << i << "," << j;
    // Stored entries are exactly the nonzeros of the assembly (no explicit zeros but the
    // (1,1) couplings when c = 0, whose mass vanishes).
    for (Index i = 0; i < a.nrows; ++i) EXPECT_LE(a.rowptr[i + 1] - a.rowptr[i], 7);
  }
}

TEST(Fem2d, SymmetricPositiveDefiniteWithIdentityBoundaryRows) {
  for (const char *spec : {"fem2d:n=7", "fem2d:nx=8,ny=5,side=3", "fem2d:n=6,reaction=0", "fem2d:n=2"}) {
    SCOPED_TRACE(spec);
    const Csr a = make(spec);
    EXPECT_TRUE(same_csr(transpose(view_of(a)), a));
    EXPECT_TRUE(cholesky_succeeds(to_dense(a)));
  }
  const Csr a = make("fem2d:nx=5,ny=4");
  for (const Index row : {0, 4, 5, 9, 15, 19}) { // boundary vertices: one stored 1
    ASSERT_EQ(a.rowptr[row + 1] - a.rowptr[row], 1);
    EXPECT_EQ(a.colidx[a.rowptr[row]], row);
    EXPECT_EQ(a.values[a.rowptr[row]], 1.0);
  }
}

TEST(Fem2d, ValuesOnTheUnitSquare) {
  // h = 1/4, m = h^2 / 24: interior diagonal 4 + 12 m, axis -1 + 2 m, (1,1) couplings 2 m.
  const Csr a = make("fem2d:n=5");
  const double m = 1.0 / 16 / 24;
  const Dense d = to_dense(a);
  const Index c = 2 + 5 * 2;
  EXPECT_DOUBLE_EQ(d[c][c], 4 + 12 * m);
  EXPECT_DOUBLE_EQ(d[c][c + 1], -1 + 2 * m);
  EXPECT_DOUBLE_EQ(d[c][c - 5], -1 + 2 * m);
  EXPECT_DOUBLE_EQ(d[c][c + 6], 2 * m);
  EXPECT_DOUBLE_EQ(d[c][c - 6], 2 * m);
  EXPECT_EQ(d[c][c + 4], 0.0);      // (-1, +1) is no edge
  EXPECT_EQ(d[c - 5][c - 10], 0.0); // boundary column dropped
}

TEST(Fem2d, TheReportsSizeIsReachable) {
  // n ~ 361k (the report's largest p = 1 system has 361345 unknowns); a slice in the middle.
  const Spec s = parse_spec("fem2d:n=601");
  EXPECT_EQ(describe(s).nrows, 361201);
  const Csr mid = generate_rows(s, 180000, 180010);
  EXPECT_EQ(mid.nrows, 10);
  EXPECT_EQ(mid.nnz(), 70);
}

TEST(Helmholtz2d, ValuesSymmetryAndIndefiniteness) {
  const Csr a = make("helmholtz2d:n=30,kh=0.3");
  EXPECT_TRUE(same_csr(transpose(view_of(a)), a));
  const Dense d = to_dense(a);
  EXPECT_EQ(d[31][31], 4 - 0.3 * 0.3);
  EXPECT_EQ(d[31][32], -1.0);
  // The smoothest mode sees -Lap ~ 2 pi^2 h^2 < kh^2: negative; the checkerboard positive.
  std::vector<double> smooth(d.size()), checker(d.size());
  for (Index y = 0; y < 30; ++y)
    for (Index x = 0; x < 30; ++x) {
      smooth[x + 30 * y] = std::sin(M_PI * (x + 1) / 31.0) * std::sin(M_PI * (y + 1) / 31.0);
      checker[x + 30 * y] = (x + y) % 2 ? 1.0 : -1.0;
    }
  EXPECT_LT(quadratic_form(d, smooth), 0.0);
  EXPECT_GT(quadratic_form(d, checker), 0.0);
  // Small kh on a coarse grid: still positive definite.
  EXPECT_TRUE(cholesky_succeeds(to_dense(make("helmholtz2d:n=5,kh=0.01"))));
  EXPECT_FALSE(cholesky_succeeds(d));
}

TEST(Helmholtz2d, ConvectionIsASkewCentralTerm) {
  const Csr a = make("helmholtz2d:nx=9,ny=3,kh=0.5,peclet=40");
  EXPECT_FALSE(same_csr(transpose(view_of(a)), a));
  const Dense d = to_dense(a), s = to_dense(make("helmholtz2d:nx=9,ny=3,kh=0.5"));
  const double cx = 40.0 / 10, cy = 20.0 / 4;
  const Index c = 4 + 9 * 1;
  EXPECT_EQ(d[c][c - 1], -1 - cx / 2);
  EXPECT_EQ(d[c][c + 1], -1 + cx / 2);
  EXPECT_EQ(d[c][c - 9], -1 - cy / 2);
  EXPECT_EQ(d[c][c + 9], -1 + cy / 2);
  // (A + A^T) / 2 is the Helmholtz operator without convection.
  for (std::size_t i = 0; i < d.size(); ++i)
    for (std::size_t j = 0; j < d.size(); ++j) EXPECT_NEAR((d[i][j] + d[j][i]) / 2, s[i][j], 1e-15);
}

TEST(Pde2d, GoldenFingerprints) {
  // Pins the exact output (see AllKinds.GoldenFingerprints in generators.cpp).
  EXPECT_EQ(test::fingerprint(make("fem2d:nx=9,ny=7,side=3,reaction=2")), 14098335802779914765ull);
  EXPECT_EQ(test::fingerprint(make("helmholtz2d:nx=8,ny=6,kh=0.7,peclet=33")), 4653244527070082821ull);
}

} // namespace
} // namespace pgk::gen

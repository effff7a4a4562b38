// Helpers of the carpcg unit tests: test systems and dense views of the operators.
#pragma once

#include "src/carpcg/cg.hpp"
#include "src/carpcg/operators.hpp"
#include "src/common/csr_build.hpp"
#include "src/matgen/generators.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace pgk::carpcg::test {

using Vector = std::vector<double>;
using Dense = std::vector<Vector>;

inline Csr make(const std::string &spec) { return gen::generate(gen::parse_spec(spec)); }

// A deterministic exact solution with entries in [-0.5, 0.5) and b = A x_e.
inline Vector exact_solution(Index n) {
  Vector x(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) x[i] = static_cast<double>((i * 7919) % 101) / 101.0 - 0.5;
  return x;
}
inline Vector times(const Csr &a, const Vector &x) {
  Vector y(static_cast<std::size_t>(a.nrows), 0.0);
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) y[i] += a.values[k] * x[a.colidx[k]];
  return y;
}

inline OperatorOptions options(Scheme s, double lambda = -1, Index blocks = 1) {
  OperatorOptions o;
  o.scheme = s;
  o.lambda = lambda > 0 ? lambda : default_relaxation(s);
  o.blocks = blocks;
  return o;
}

// M = I - Q as a dense matrix: column j is e_j - DKSWP(e_j; 0).
inline Dense dense_m(const DoubleSweep &op) {
  const std::size_t n = static_cast<std::size_t>(op.size());
  Dense m(n, Vector(n, 0.0));
  Vector e(n, 0.0), y(n);
  for (std::size_t j = 0; j < n; ++j) {
    e[j] = 1;
    op.apply(e.data(), nullptr, y.data());
    for (std::size_t i = 0; i < n; ++i) m[i][j] = e[i] - y[i];
    e[j] = 0;
  }
  return m;
}

// max |(W M)_ij - (W M)_ji| / max |W M|.
inline double w_asymmetry(const Dense &m, const Vector &w) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < m.size(); ++j) {
      const double wi = w.empty() ? 1.0 : w[i], wj = w.empty() ? 1.0 : w[j];
      diff = std::max(diff, std::fabs(wi * m[i][j] - wj * m[j][i]));
      scale = std::max(scale, std::fabs(wi * m[i][j]));
    }
  return scale > 0 ? diff / scale : diff;
}

inline double max_abs_diff(const Vector &a, const Vector &b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

// Solves A x = A x_e from x = 0 with a scheme; returns the statistics, x in *x.
inline SolveStats solve_scheme(const Csr &a, const OperatorOptions &o, SolveOptions so, Vector *x = nullptr,
                               const Vector *rhs = nullptr) {
  const Vector b = rhs ? *rhs : times(a, exact_solution(a.nrows));
  auto op = make_double_sweep(view_of(a), o);
  Vector xs(static_cast<std::size_t>(a.nrows), 0.0);
  SolveStats st = solve(*op, b.data(), xs.data(), so);
  if (x) *x = xs;
  return st;
}

} // namespace pgk::carpcg::test

#include "src/trilf/tridiag.hpp"

#include "src/common/csr_build.hpp"
#include "src/trilf/weights.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace pgk::trilf {

Tridiagonal assemble(const CsrView &a, const PathOrder &order) {
  check_matrix(a, "trilf assemble");
  const Index n = a.nrows;
  if (static_cast<Index>(order.perm.size()) != n || static_cast<Index>(order.iperm.size()) != n ||
      order.path_start.empty() || order.path_start.back() != n)
    throw std::invalid_argument("trilf assemble: path order does not match the matrix");
  const auto un = static_cast<std::size_t>(n);
  Tridiagonal t;
  t.lower.assign(un, 0.0);
  t.diag.assign(un, 0.0);
  t.upper.assign(un, 0.0);
  // Neighbours in the permutation that lie on the same path.
  std::vector<char> starts(un + 1, 0);
  for (const Index s : order.path_start) starts[static_cast<std::size_t>(s)] = 1;
  for (Index k = 0; k < n; ++k) {
    const Index i = order.perm[static_cast<std::size_t>(k)];
    const Index prev = starts[static_cast<std::size_t>(k)] ? -1 : order.perm[static_cast<std::size_t>(k) - 1];
    const Index next = starts[static_cast<std::size_t>(k) + 1] ? -1 : order.perm[static_cast<std::size_t>(k) + 1];
    // One pass over row i, as the device's one-thread-per-nonzero scatter does.
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      const Index j = a.colidx[e];
      const double v = a.values ? a.values[e] : 1.0;
      if (j == i) t.diag[static_cast<std::size_t>(k)] += v;
      else if (j == prev) t.lower[static_cast<std::size_t>(k)] += v;
      else if (j == next) t.upper[static_cast<std::size_t>(k)] += v;
    }
  }
  return t;
}

void check_factor_input(const Tridiagonal &t, const std::vector<Index> &perm, const PivotOptions &opt) {
  const Index n = t.size();
  const auto un = static_cast<std::size_t>(n);
  if (t.lower.size() != un || t.upper.size() != un)
    throw std::invalid_argument("trilf factor: lower/diag/upper sizes differ");
  if (!is_permutation(perm, n)) throw std::invalid_argument("trilf factor: perm is not a permutation of 0..N-1");
  if (!(opt.rel_tol >= 0 && opt.rel_tol < 1)) throw std::invalid_argument("trilf factor: rel_tol must lie in [0, 1)");
  for (std::size_t k = 0; k < un; ++k)
    if (!std::isfinite(t.lower[k]) || !std::isfinite(t.diag[k]) || !std::isfinite(t.upper[k]))
      throw std::domain_error("trilf factor: non-finite entry of T at permuted row " + std::to_string(k) +
                              " (original row " + std::to_string(perm[k]) + ")");
  if (n > 0 && (t.lower[0] != 0 || t.upper[un - 1] != 0))
    throw std::invalid_argument("trilf factor: lower[0] and upper[N-1] must be 0");
}

TridiagonalFactor factor(const Tridiagonal &t, const std::vector<Index> &perm, const PivotOptions &opt) {
  const Index n = t.size();
  const auto un = static_cast<std::size_t>(n);
  check_factor_input(t, perm, opt);
  auto fail = [&](const char *what, Index k) {
    throw std::domain_error(std::string("trilf factor: ") + what + " at permuted row " + std::to_string(k) +
                            " (original row " + std::to_string(perm[static_cast<std::size_t>(k)]) + ")");
  };

  TridiagonalFactor f;
  f.perm = perm;
  f.effective = t;
  f.mult.assign(un, 0.0);
  f.pivot.assign(un, 0.0);
  double *low = f.effective.lower.data(), *dia = f.effective.diag.data();
  double *up = f.effective.upper.data();
  const double tau = opt.rel_tol;
  for (std::size_t k = 0; k < un; ++k) {
    const double s = std::fabs(t.lower[k]) + std::fabs(t.diag[k]) + std::fabs(t.upper[k]);
    double m = 0, update = 0;
    if (k > 0 && low[k] != 0) {
      m = low[k] / f.pivot[k - 1];
      if (!std::isfinite(m)) fail("multiplier overflows", static_cast<Index>(k));
      update = m * up[k - 1];
    }
    double d = dia[k] - update;
    if (std::fabs(d) <= tau * s && update != 0) {
      // Split the path before k: T~ loses the coupling between k-1 and k.
      low[k] = 0;
      up[k - 1] = 0;
      m = update = 0;
      d = dia[k];
      ++f.splits;
    }
    if (std::fabs(d) <= tau * s) {
      // No update left (d == dia[k]): replace the diagonal itself.
      d = s > 0 ? (dia[k] < 0 ? -s : s) : 1.0;
      dia[k] = d;
      ++f.replaced;
    }
    if (!std::isfinite(d)) fail("pivot overflows", static_cast<Index>(k));
    f.mult[k] = m;
    f.pivot[k] = d;
  }
  return f;
}

void solve_permuted(const TridiagonalFactor &f, double *y) {
  const std::size_t n = f.pivot.size();
  if (n == 0) return;
  const double *m = f.mult.data(), *p = f.pivot.data(), *u = f.effective.upper.data();
  for (std::size_t k = 1; k < n; ++k) // L z = y
    y[k] -= m[k] * y[k - 1];
  y[n - 1] /= p[n - 1]; // U x = z
  for (std::size_t k = n - 1; k-- > 0;) y[k] = (y[k] - u[k] * y[k + 1]) / p[k];
}

void solve(const TridiagonalFactor &f, const double *b, double *x) {
  const std::size_t n = f.pivot.size();
  std::vector<double> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = b[f.perm[k]];
  solve_permuted(f, y.data());
  for (std::size_t k = 0; k < n; ++k) x[f.perm[k]] = y[k];
}

void solve_permuted_transpose(const TridiagonalFactor &f, double *y) {
  const std::size_t n = f.pivot.size();
  if (n == 0) return;
  const double *m = f.mult.data(), *p = f.pivot.data(), *u = f.effective.upper.data();
  y[0] /= p[0]; // U^T w = y: row k is u_{k-1} w_{k-1} + d'_k w_k
  for (std::size_t k = 1; k < n; ++k) y[k] = (y[k] - u[k - 1] * y[k - 1]) / p[k];
  for (std::size_t k = n - 1; k-- > 0;) // L^T x = w: row k is x_k + m_{k+1} x_{k+1}
    y[k] -= m[k + 1] * y[k + 1];
}

void solve_transpose(const TridiagonalFactor &f, const double *b, double *x) {
  const std::size_t n = f.pivot.size();
  std::vector<double> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = b[f.perm[k]];
  solve_permuted_transpose(f, y.data());
  for (std::size_t k = 0; k < n; ++k) x[f.perm[k]] = y[k];
}

void multiply(const Tridiagonal &t, const double *x, double *y) {
  const std::size_t n = t.diag.size();
  for (std::size_t k = 0; k < n; ++k) {
    double s = t.diag[k] * x[k];
    if (k > 0) s += t.lower[k] * x[k - 1];
    if (k + 1 < n) s += t.upper[k] * x[k + 1];
    y[k] = s;
  }
}

} // namespace pgk::trilf

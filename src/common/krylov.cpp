#include "src/common/krylov.hpp"

#include <algorithm>
#include <cmath>

namespace pgk::krylov {

void multiply(const Csr &a, const Vector &x, Vector &y) {
  for (Index i = 0; i < a.nrows; ++i) {
    double s = 0;
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
      s += a.values[static_cast<std::size_t>(e)] * x[static_cast<std::size_t>(a.colidx[e])];
    y[static_cast<std::size_t>(i)] = s;
  }
}

double dot(const Vector &u, const Vector &v) {
  double s = 0;
  for (std::size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
  return s;
}

namespace {

// The Arnoldi basis, the Hessenberg matrix (column-major, ld = restart + 1) and the Givens
// rotations of one GMRES cycle.
struct Cycle {
  int ld;
  std::vector<Vector> v;
  Vector h, cs, sn, g, t;
  Cycle(std::size_t n, int restart)
      : ld(restart + 1), v(static_cast<std::size_t>(ld), Vector(n)),
        h(static_cast<std::size_t>(ld) * static_cast<std::size_t>(restart)), cs(static_cast<std::size_t>(restart)),
        sn(static_cast<std::size_t>(restart)), g(static_cast<std::size_t>(ld)), t(n) {}
  double &at(int i, int j) {
    return h[static_cast<std::size_t>(j) * static_cast<std::size_t>(ld) + static_cast<std::size_t>(i)];
  }
};

// Arnoldi step j: v[j+1], column j of h, rotated; returns |g[j+1]|, the residual estimate.
double arnoldi_step(const Csr &a, const Precondition &m, Cycle &c, int j) {
  const auto uj = static_cast<std::size_t>(j);
  Vector &w = c.v[uj + 1];
  multiply(a, c.v[uj], c.t);
  m(c.t.data(), w.data());
  for (int i = 0; i <= j; ++i) { // modified Gram-Schmidt
    const Vector &vi = c.v[static_cast<std::size_t>(i)];
    c.at(i, j) = dot(w, vi);
    for (std::size_t k = 0; k < w.size(); ++k) w[k] -= c.at(i, j) * vi[k];
  }
  const double norm = std::sqrt(dot(w, w));
  if (norm > 0)
    for (double &x : w) x /= norm;
  for (int i = 0; i < j; ++i) { // the earlier rotations
    const auto ui = static_cast<std::size_t>(i);
    const double a0 = c.at(i, j), a1 = c.at(i + 1, j);
    c.at(i, j) = c.cs[ui] * a0 + c.sn[ui] * a1;
    c.at(i + 1, j) = -c.sn[ui] * a0 + c.cs[ui] * a1;
  }
  const double d = std::hypot(c.at(j, j), norm);
  c.cs[uj] = c.at(j, j) / d;
  c.sn[uj] = norm / d;
  c.at(j, j) = d;
  c.g[uj + 1] = -c.sn[uj] * c.g[uj];
  c.g[uj] *= c.cs[uj];
  return std::fabs(c.g[uj + 1]);
}

// x += V y, y the solution of the j x j triangular system of the cycle.
void update(Cycle &c, int j, Vector &x) {
  Vector y(static_cast<std::size_t>(j));
  for (int i = j - 1; i >= 0; --i) {
    double s = c.g[static_cast<std::size_t>(i)];
    for (int k = i + 1; k < j; ++k) s -= c.at(i, k) * y[static_cast<std::size_t>(k)];
    y[static_cast<std::size_t>(i)] = s / c.at(i, i);
  }
  for (int i = 0; i < j; ++i)
    for (std::size_t k = 0; k < x.size(); ++k)
      x[k] += y[static_cast<std::size_t>(i)] * c.v[static_cast<std::size_t>(i)][k];
}

} // namespace

int gmres_iterations(const Csr &a, const Vector &b, const Precondition &m, double rtol, int max_it, int restart) {
  const std::size_t n = b.size();
  Cycle c(n, restart);
  Vector x(n, 0.0), r(n);
  m(b.data(), c.t.data());
  const double target = rtol * std::sqrt(dot(c.t, c.t));
  for (int it = 0; it < max_it;) {
    multiply(a, x, c.t);
    for (std::size_t i = 0; i < n; ++i) c.t[i] = b[i] - c.t[i];
    m(c.t.data(), r.data());
    const double beta = std::sqrt(dot(r, r));
    if (!std::isfinite(beta)) return -1;
    if (beta <= target) return it;
    for (std::size_t i = 0; i < n; ++i) c.v[0][i] = r[i] / beta;
    std::fill(c.g.begin(), c.g.end(), 0.0);
    c.g[0] = beta;
    int j = 0;
    double estimate = beta;
    while (j < restart && it < max_it && estimate > target) {
      ++it;
      estimate = arnoldi_step(a, m, c, j);
      ++j;
    }
    update(c, j, x);
  }
  return -1;
}

int cg_iterations(const Csr &a, const Vector &b, const Precondition &m, double rtol, int max_it) {
  const std::size_t n = b.size();
  Vector x(n, 0.0), r = b, z(n), q(n);
  m(r.data(), z.data());
  Vector p = z;
  const double bn = std::sqrt(dot(b, b));
  double rz = dot(r, z);
  for (int it = 1; it <= max_it; ++it) {
    multiply(a, p, q);
    const double alpha = rz / dot(p, q);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    if (std::sqrt(dot(r, r)) <= rtol * bn) return it;
    m(r.data(), z.data());
    const double rz2 = dot(r, z);
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + rz2 / rz * p[i];
    rz = rz2;
  }
  return -1;
}

} // namespace pgk::krylov

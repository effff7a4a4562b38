// Kaczmarz row projections; see sweep.hpp.
#include "src/carpcg/sweep.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace pgk::carpcg {

namespace {

// The projection of row i; a.colidx may be a block-local column map (blocks.cpp), so the
// unknowns are addressed only through it.
inline void project_row(const CsrView &a, Index i, double norm2, double bi, double lambda, double *x,
                        const UpdateLog &log) {
  const Index lo = a.rowptr[i], hi = a.rowptr[i + 1];
  double dot = 0;
  for (Index k = lo; k < hi; ++k) dot += a.values[k] * x[a.colidx[k]];
  const double coef = lambda * ((bi - dot) / norm2);
  if (!log.delta) {
    for (Index k = lo; k < hi; ++k) x[a.colidx[k]] += coef * a.values[k];
    return;
  }
  for (Index k = lo; k < hi; ++k) {
    const Index j = a.colidx[k];
    const double u = coef * a.values[k];
    x[j] += u;
    if (j >= log.first) log.delta[j - log.first] += u;
  }
}

} // namespace

std::vector<double> row_norms2(const CsrView &a) {
  std::vector<double> norms(static_cast<std::size_t>(a.nrows), 0.0);
  for (Index i = 0; i < a.nrows; ++i) {
    double s = 0;
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      if (!std::isfinite(a.values[k]))
        throw std::domain_error("carpcg: the matrix has a NaN or Inf entry in row " + std::to_string(i) + " (column " +
                                std::to_string(a.colidx[k]) + ")");
      s += a.values[k] * a.values[k];
    }
    if (!std::isfinite(s))
      throw std::domain_error("carpcg: the squared norm of row " + std::to_string(i) +
                              " overflows (entries near 1e154 or larger); scale the system");
    norms[static_cast<std::size_t>(i)] = s;
  }
  return norms;
}

void sweep(const CsrView &a, const double *norms2, const double *b, double lambda, const Index *rows, Index count,
           bool backward, double *x, UpdateLog log) {
  for (Index t = 0; t < count; ++t) {
    const Index pos = backward ? count - 1 - t : t;
    const Index i = rows ? rows[pos] : pos;
    const double n2 = norms2[i];
    if (n2 == 0) continue; // a zero row (sweep.hpp)
    project_row(a, i, n2, b ? b[i] : 0.0, lambda, x, log);
  }
}

void cimmino_pass(const CsrView &a, const double *norms2, const double *b, double lambda, const double *x,
                  double *acc) {
  for (Index i = 0; i < a.nrows; ++i) {
    const double n2 = norms2[i];
    if (n2 == 0) continue;
    const Index lo = a.rowptr[i], hi = a.rowptr[i + 1];
    double dot = 0;
    for (Index k = lo; k < hi; ++k) dot += a.values[k] * x[a.colidx[k]];
    const double coef = lambda * (((b ? b[i] : 0.0) - dot) / n2);
    for (Index k = lo; k < hi; ++k) acc[a.colidx[k]] += coef * a.values[k];
  }
}

void residual(const CsrView &a, const double *b, const double *x, double *r) {
  for (Index i = 0; i < a.nrows; ++i) {
    double dot = 0;
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) dot += a.values[k] * x[a.colidx[k]];
    r[i] = (b ? b[i] : 0.0) - dot;
  }
}

} // namespace pgk::carpcg

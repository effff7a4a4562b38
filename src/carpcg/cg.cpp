// CG on the double-sweep operator, standard and single-reduction; see cg.hpp.
#include "src/carpcg/cg.hpp"

#include "src/carpcg/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pgk::carpcg {

const char *stop_name(Stop s) {
  switch (s) {
  case Stop::Converged: return "converged";
  case Stop::MaxIterations: return "max_it";
  case Stop::Breakdown: return "breakdown";
  case Stop::NotFinite: return "not finite";
  }
  return "?";
}

double weighted_dot(const double *u, const double *v, const double *w, Index n) {
  double s = 0;
  if (w)
    for (Index i = 0; i < n; ++i) s += (u[i] * v[i]) * w[i];
  else
    for (Index i = 0; i < n; ++i) s += u[i] * v[i];
  return s;
}

void axpy(double *y, double a, const double *x, Index n) {
  for (Index i = 0; i < n; ++i) y[i] += a * x[i];
}

namespace {

using Vector = std::vector<double>;

// The state both variants share: operator, right-hand side, options, statistics.
class Solver {
public:
  Solver(const DoubleSweep &op, const double *b, const SolveOptions &o, SolveStats &st)
      : op_(op), b_(b), o_(o), st_(st), n_(op.size()), w_(op.weights().empty() ? nullptr : op.weights().data()),
        t_(static_cast<std::size_t>(n_)) {
    bnorm_ = std::sqrt(weighted_dot(b, b, nullptr, n_));
  }

  double dot(const Vector &u, const Vector &v) const { return weighted_dot(u.data(), v.data(), w_, n_); }

  // out = u - DKSWP(u; 0) = M u.
  void apply_m(const Vector &u, Vector &out) {
    op_.apply(u.data(), nullptr, t_.data());
    for (Index i = 0; i < n_; ++i) out[i] = u[i] - t_[i];
  }
  // out = DKSWP(x; b) - x = R (b - A x).
  void initial_residual(const double *x, Vector &out) {
    op_.apply(x, b_, t_.data());
    for (Index i = 0; i < n_; ++i) out[i] = t_[i] - x[i];
  }

  // Records the true residual of x at iteration k; true when it meets rtol.
  bool check(int k, const double *x) {
    residual(op_.matrix(), b_, x, t_.data());
    const double rn = std::sqrt(weighted_dot(t_.data(), t_.data(), nullptr, n_));
    const double rel = bnorm_ > 0 ? rn / bnorm_ : rn;
    st_.checked_at.push_back(k);
    st_.true_residuals.push_back(rel);
    st_.relative_residual = rel;
    return rel <= o_.rtol;
  }
  bool check_due(int k) const { return k % o_.true_residual_interval == 0 || k == o_.max_it; }

  // After iteration k: hooks and the scheduled check. Returns true when the solve ends.
  bool after_iteration(int k, const double *x, double rr) {
    st_.iterations = k;
    st_.cg_residuals.push_back(std::sqrt(std::max(rr, 0.0)));
    if (o_.on_iterate) o_.on_iterate(k, x);
    if (check_due(k) && check(k, x)) return stop(Stop::Converged);
    if (!std::isfinite(rr)) return stop(Stop::NotFinite);
    return false;
  }
  void record_initial(double rr) { st_.cg_residuals.push_back(std::sqrt(std::max(rr, 0.0))); }
  bool stop(Stop s) {
    st_.stop = s;
    return true;
  }
  double bnorm() const { return bnorm_; }

private:
  const DoubleSweep &op_;
  const double *b_;
  const SolveOptions &o_;
  SolveStats &st_;
  Index n_;
  const double *w_;
  double bnorm_ = 0;
  Vector t_;
};

void axpy(Vector &y, double a, const Vector &x) { pgk::carpcg::axpy(y.data(), a, x.data(), (Index)y.size()); }
void aypx(Vector &y, double a, const Vector &x) { // y = x + a y
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = x[i] + a * y[i];
}
void axpy(double *y, double a, const Vector &x) { pgk::carpcg::axpy(y, a, x.data(), (Index)x.size()); }

// The report's Alg. 2 (two reductions per iteration).
void solve_standard(Solver &s, double *x, std::size_t n, int max_it) {
  Vector r(n), p(n), q(n);
  s.initial_residual(x, p);
  r = p;
  double rr = s.dot(r, r);
  s.record_initial(rr);
  for (int k = 1; k <= max_it; ++k) {
    s.apply_m(p, q);
    const double pq = s.dot(p, q);
    if (!std::isfinite(pq)) {
      s.stop(Stop::NotFinite);
      return;
    }
    if (pq <= 0) {
      s.stop(Stop::Breakdown);
      return;
    }
    const double alpha = rr / pq;
    axpy(x, alpha, p);
    axpy(r, -alpha, q);
    const double rr_new = s.dot(r, r);
    if (s.after_iteration(k, x, rr_new)) return;
    aypx(p, rr_new / rr, r);
    rr = rr_new;
  }
}

// Chronopoulos-Gear: gamma = <r,r>_W and delta = <r,s>_W from one reduction.
void solve_single_reduction(Solver &s, double *x, std::size_t n, int max_it) {
  Vector r(n), sv(n), p(n), q(n);
  s.initial_residual(x, r);
  s.apply_m(r, sv);
  double gamma = s.dot(r, r), delta = s.dot(r, sv);
  s.record_initial(gamma);
  if (!std::isfinite(gamma) || !std::isfinite(delta)) {
    s.stop(Stop::NotFinite);
    return;
  }
  if (gamma == 0 || delta <= 0) {
    s.stop(Stop::Breakdown);
    return;
  }
  double alpha = gamma / delta;
  p = r;
  q = sv;
  for (int k = 1; k <= max_it; ++k) {
    axpy(x, alpha, p);
    axpy(r, -alpha, q);
    s.apply_m(r, sv);
    const double gamma_new = s.dot(r, r), delta_new = s.dot(r, sv);
    if (s.after_iteration(k, x, gamma_new)) return;
    if (!std::isfinite(delta_new)) {
      s.stop(Stop::NotFinite);
      return;
    }
    const double beta = gamma_new / gamma;
    const double denom = delta_new - beta * gamma_new / alpha;
    if (gamma_new == 0 || denom <= 0) {
      s.stop(Stop::Breakdown);
      return;
    }
    alpha = gamma_new / denom;
    aypx(p, beta, r);
    aypx(q, beta, sv);
    gamma = gamma_new;
  }
}

} // namespace

SolveStats solve(const DoubleSweep &op, const double *b, double *x, const SolveOptions &o) {
  if (o.true_residual_interval < 1) throw std::invalid_argument("carpcg: the true residual interval must be >= 1");
  if (o.max_it < 0) throw std::invalid_argument("carpcg: max_it must be >= 0");
  SolveStats st;
  const long long before = op.applications();
  Solver s(op, b, o, st);
  const std::size_t n = static_cast<std::size_t>(op.size());
  if (!std::isfinite(s.bnorm())) throw std::domain_error("carpcg: the right-hand side has NaN or Inf entries");
  if (s.bnorm() == 0) { // the solution is 0: nothing to iterate on
    std::fill(x, x + n, 0.0);
    st.checked_at.push_back(0);
    st.true_residuals.push_back(0);
    st.stop = Stop::Converged;
    return st;
  }
  if (s.check(0, x)) {
    st.stop = Stop::Converged;
  } else if (o.variant == CgVariant::Standard) {
    solve_standard(s, x, n, o.max_it);
  } else {
    solve_single_reduction(s, x, n, o.max_it);
  }
  st.double_sweeps = op.applications() - before;
  return st;
}

} // namespace pgk::carpcg

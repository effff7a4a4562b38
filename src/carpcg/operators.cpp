// The double-sweep operators of the four schemes; see operators.hpp.
#include "src/carpcg/operators.hpp"

#include "src/carpcg/blocks.hpp"
#include "src/carpcg/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pgk::carpcg {

const char *scheme_name(Scheme s) {
  switch (s) {
  case Scheme::Sequential: return "sequential";
  case Scheme::Multicolor: return "multicolor";
  case Scheme::Carp: return "carp";
  case Scheme::Cimmino: return "cimmino";
  }
  return "?";
}

Scheme parse_scheme(const std::string &name) {
  for (const Scheme s : {Scheme::Sequential, Scheme::Multicolor, Scheme::Carp, Scheme::Cimmino})
    if (name == scheme_name(s)) return s;
  throw std::invalid_argument("carpcg: unknown scheme '" + name + "' (sequential, multicolor, carp, cimmino)");
}

// Measured (bench/NOTES.md, "carpcg relaxation"): sweeps in natural order within a block behave like
// SSOR, whose best relaxation tends to 2 as the grid is refined; 1.9 needed 1.3-3.2x fewer iterations
// than 1.0 on every FEM, Helmholtz and convection row (1 to 1024 blocks). A colouring sweep behaves
// like a red-black one: 1.0-1.3 are best there, 1.7 and more lose. Cimmino: the report's 0.35.
double default_relaxation(Scheme s) {
  switch (s) {
  case Scheme::Cimmino: return 0.35;
  case Scheme::Multicolor: return 1.0;
  default: return 1.9; // sequential, carp
  }
}

DoubleSweep::DoubleSweep(const CsrView &a, double lambda, bool kaczmarz) : a_(a), lambda_(lambda) {
  if (a.nrows != a.ncols)
    throw std::invalid_argument("carpcg: the matrix must be square, got " + std::to_string(a.nrows) + " x " +
                                std::to_string(a.ncols));
  // Kaczmarz projections relaxed outside (0, 2) are not contractions; the Cimmino pass only
  // needs lambda~ > 0 (convergence needs lambda~ < 2 / rho(A^T D A), which varies).
  if (!std::isfinite(lambda) || lambda <= 0 || (kaczmarz && lambda >= 2))
    throw std::invalid_argument(std::string(kaczmarz ? "carpcg: the relaxation of a Kaczmarz sweep must be in (0, 2)"
                                                     : "carpcg: the cimmino relaxation lambda~ must be > 0") +
                                ", got " + std::to_string(lambda));
  norms2_ = row_norms2(a);
}

namespace {

// KSWP then BKSWP over a row order (nullptr: natural).
class SequentialSweep : public DoubleSweep {
public:
  SequentialSweep(const CsrView &a, double lambda, std::vector<Index> order)
      : DoubleSweep(a, lambda, true), order_(std::move(order)) {
    if (!order_.empty() && order_.size() != static_cast<std::size_t>(a.nrows))
      throw std::invalid_argument("carpcg: the row order must list every row once");
  }
  void apply(const double *x, const double *b, double *y) const override {
    ++applications_;
    std::copy(x, x + a_.ncols, y);
    const Index *rows = order_.empty() ? nullptr : order_.data();
    sweep(a_, norms2_.data(), b, lambda_, rows, a_.nrows, false, y);
    sweep(a_, norms2_.data(), b, lambda_, rows, a_.nrows, true, y);
  }

private:
  std::vector<Index> order_;
};

// Colour by colour: colours 0..c-1 forward, c-1..0 backward. On one host thread this is the
// sequential sweep in the coloured order; the loop over one colour is the parallel loop of the
// device and of the ranks.
class MulticolorSweep : public DoubleSweep {
public:
  MulticolorSweep(const CsrView &a, double lambda) : DoubleSweep(a, lambda, true), coloring_(distance2_coloring(a)) {}
  void apply(const double *x, const double *b, double *y) const override {
    ++applications_;
    std::copy(x, x + a_.ncols, y);
    for (int c = 0; c < coloring_.ncolors; ++c) sweep_color(c, b, false, y);
    for (int c = coloring_.ncolors - 1; c >= 0; --c) sweep_color(c, b, true, y);
  }
  const Coloring &coloring() const { return coloring_; }

private:
  void sweep_color(int c, const double *b, bool backward, double *y) const {
    const Index *rows = coloring_.rows.data() + coloring_.class_ptr[c];
    sweep(a_, norms2_.data(), b, lambda_, rows, coloring_.class_size(c), backward, y);
  }
  Coloring coloring_;
};

// DCSWP over explicit blocks with component averaging; W = diag(|L_j|).
class CarpSweep : public DoubleSweep {
public:
  CarpSweep(const CsrView &a, const OperatorOptions &o) : DoubleSweep(a, o.lambda, true) {
    const std::vector<Index> block = o.block_of_row.empty() ? contiguous_blocks(a.nrows, o.blocks) : o.block_of_row;
    Index nblocks = 1;
    for (const Index k : block) nblocks = std::max(nblocks, k + 1);
    plan_ = BlockPlan(a, norms2_, block, nblocks);
    acc_.assign(static_cast<std::size_t>(a.ncols), 0.0);
    mid_.assign(static_cast<std::size_t>(a.ncols), 0.0);
    if (o.weighted_dot) {
      weights_.resize(static_cast<std::size_t>(a.ncols));
      for (std::size_t j = 0; j < weights_.size(); ++j)
        weights_[j] = static_cast<double>(std::max<Index>(1, plan_.multiplicity()[j]));
    }
  }
  void apply(const double *x, const double *b, double *y) const override {
    ++applications_;
    half(x, b, false, mid_.data());
    half(mid_.data(), b, true, y);
  }
  const std::vector<double> &weights() const override { return weights_; }
  const BlockPlan &plan() const { return plan_; }

private:
  // One sweep per block, then the average; an unknown no block touches keeps its value.
  void half(const double *x, const double *b, bool backward, double *y) const {
    plan_.sweep_sum(a_, norms2_.data(), b, lambda_, backward, x, acc_.data());
    const std::vector<Index> &mult = plan_.multiplicity();
    for (Index j = 0; j < a_.ncols; ++j) {
      const Index m = mult[static_cast<std::size_t>(j)];
      y[j] = m > 0 ? acc_[static_cast<std::size_t>(j)] / static_cast<double>(m) : x[j];
    }
  }
  BlockPlan plan_;
  std::vector<double> weights_;
  mutable std::vector<double> acc_, mid_;
};

// The report's frozen-x double pass: y1 = x + sum_i coef_i(x) a_i^T, y = y1 + sum_i coef_i(y1) a_i^T.
class CimminoSweep : public DoubleSweep {
public:
  CimminoSweep(const CsrView &a, double lambda) : DoubleSweep(a, lambda, false) {
    acc_.assign(static_cast<std::size_t>(a.ncols), 0.0);
    mid_.assign(static_cast<std::size_t>(a.ncols), 0.0);
  }
  void apply(const double *x, const double *b, double *y) const override {
    ++applications_;
    pass(x, b, mid_.data());
    pass(mid_.data(), b, y);
  }

private:
  void pass(const double *x, const double *b, double *y) const {
    std::fill(acc_.begin(), acc_.end(), 0.0);
    cimmino_pass(a_, norms2_.data(), b, lambda_, x, acc_.data());
    for (Index j = 0; j < a_.ncols; ++j) y[j] = x[j] + acc_[static_cast<std::size_t>(j)];
  }
  mutable std::vector<double> acc_, mid_;
};

} // namespace

std::unique_ptr<DoubleSweep> make_double_sweep(const CsrView &a, const OperatorOptions &o) {
  switch (o.scheme) {
  case Scheme::Sequential: return std::make_unique<SequentialSweep>(a, o.lambda, o.order);
  case Scheme::Multicolor: return std::make_unique<MulticolorSweep>(a, o.lambda);
  case Scheme::Carp: return std::make_unique<CarpSweep>(a, o);
  case Scheme::Cimmino: return std::make_unique<CimminoSweep>(a, o.lambda);
  }
  throw std::invalid_argument("carpcg: unknown scheme");
}

const Coloring *coloring_of(const DoubleSweep &op) {
  const auto *m = dynamic_cast<const MulticolorSweep *>(&op);
  return m ? &m->coloring() : nullptr;
}

const std::vector<Index> *multiplicity_of(const DoubleSweep &op) {
  const auto *c = dynamic_cast<const CarpSweep *>(&op);
  return c ? &c->plan().multiplicity() : nullptr;
}

} // namespace pgk::carpcg

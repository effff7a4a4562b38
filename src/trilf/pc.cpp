#include "src/trilf/pc.hpp"

#include "src/trilf/weights.hpp"

#include <chrono>
#include <stdexcept>

namespace pgk::trilf {
namespace {

// Milliseconds since `t0`, and restarts the clock.
double lap(std::chrono::steady_clock::time_point &t0) {
  const auto t1 = std::chrono::steady_clock::now();
  const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  t0 = t1;
  return ms;
}

} // namespace

Preconditioner::Preconditioner(const CsrView &a, const Options &opt) : opt_(opt), n_(a.nrows) {
  auto t0 = std::chrono::steady_clock::now();
  if (opt_.block) {
    // One call: weights, pairing, coarse graph, coarse factor, cycles and order are not
    // separable without duplicating block_linear_forest; all of it counts as `factor`.
    border_ = block_linear_forest(a, opt_.factor, &info_.block, opt_.pairing);
    times_.factor = lap(t0);
    info_.npaths = border_.npaths();
    info_.longest = border_.longest;
    info_.c_pi = coverage(a, border_);
  } else {
    if (opt_.factor.max_degree != 2)
      throw std::invalid_argument("trilf: the scalar preconditioner needs max_degree = 2");
    const Csr w = weight_graph(a, opt_.factor.weight);
    times_.weights = lap(t0);
    const Factor f = parallel_factor(view_of(w), opt_.factor);
    times_.factor = lap(t0);
    const LinearForest forest = break_cycles(f, view_of(w));
    times_.cycles = lap(t0);
    order_ = order_paths(forest);
    times_.paths = lap(t0);
    info_.forest.rounds_run = f.rounds_run;
    info_.forest.maximal = f.maximal;
    info_.forest.factor_edges = f.edges();
    info_.forest.cycles_broken = forest.cycles_broken;
    info_.forest.forest_edges = forest.edges();
    info_.npaths = order_.npaths();
    info_.longest = order_.longest;
    info_.c_pi = coverage(a, order_);
  }
  info_.c_id = coverage_identity(a);
  update_values(a);
}

void Preconditioner::update_values(const CsrView &a) {
  if (a.nrows != n_) throw std::invalid_argument("trilf: update_values with a matrix of another size");
  auto t0 = std::chrono::steady_clock::now();
  if (opt_.block) {
    const BlockTridiagonal t = assemble_block(a, border_);
    times_.assemble = lap(t0);
    blockf_ = factor_block(t, border_, opt_.pivot);
    times_.lu = lap(t0);
    info_.splits = blockf_.splits;
    info_.replaced = blockf_.replaced;
  } else {
    const Tridiagonal t = assemble(a, order_);
    times_.assemble = lap(t0);
    scalar_ = factor(t, order_.perm, opt_.pivot);
    times_.lu = lap(t0);
    info_.splits = scalar_.splits;
    info_.replaced = scalar_.replaced;
  }
}

void Preconditioner::apply(const double *r, double *z) const {
  if (opt_.block) solve_block(blockf_, r, z);
  else solve(scalar_, r, z);
}

void Preconditioner::apply_transpose(const double *r, double *z) const {
  if (opt_.block) solve_block_transpose(blockf_, r, z);
  else solve_transpose(scalar_, r, z);
}

} // namespace pgk::trilf

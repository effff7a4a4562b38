#include "trilf_pc.hpp"

#include <stdexcept>

namespace pgk::trilf {

Preconditioner::Preconditioner(const CsrView &a, const Options &opt) : opt_(opt), n_(a.nrows) {
  if (opt_.block) {
    border_ = block_linear_forest(a, opt_.factor, &info_.block);
    info_.npaths = border_.npaths();
    info_.longest = border_.longest;
    info_.c_kept = coverage(a, border_);
  } else {
    const LinearForest forest = extract_linear_forest(a, opt_.factor, &info_.forest);
    order_ = order_paths(forest);
    info_.npaths = order_.npaths();
    info_.longest = order_.longest;
    info_.c_kept = coverage(a, order_);
  }
  info_.c_id = coverage_identity(a);
  update_values(a);
}

void Preconditioner::update_values(const CsrView &a) {
  if (a.nrows != n_)
    throw std::invalid_argument("trilf: update_values with a matrix of another size");
  if (opt_.block) {
    blockf_ = factor_block(assemble_block(a, border_), border_, opt_.pivot);
    info_.splits = blockf_.splits;
    info_.replaced = blockf_.replaced;
  } else {
    scalar_ = factor(assemble(a, order_), order_.perm, opt_.pivot);
    info_.splits = scalar_.splits;
    info_.replaced = scalar_.replaced;
  }
}

void Preconditioner::apply(const double *r, double *z) const {
  if (opt_.block)
    solve_block(blockf_, r, z);
  else
    solve(scalar_, r, z);
}

} // namespace pgk::trilf

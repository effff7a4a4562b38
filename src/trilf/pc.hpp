// PC trilf reference as one object: setup (weights -> factor -> forest -> order -> T ->
// factorization) and apply z = M^-1 r, scalar or 2x2 block. This is the host oracle the
// PETSc PC and the device version are compared with; every step is also callable on its
// own (trilf_weights/factor/paths/tridiag/block/coverage.hpp).
#pragma once

#include "src/common/csr.hpp"
#include "src/trilf/block.hpp"
#include "src/trilf/coverage.hpp"
#include "src/trilf/factor.hpp"
#include "src/trilf/paths.hpp"
#include "src/trilf/tridiag.hpp"

namespace pgk::trilf {

struct Options {
  FactorOptions factor; // paper defaults; factor.max_degree must be 2 (scalar)
  PivotOptions pivot;
  bool block = false;                  // AlgTriBlockPrecond instead of AlgTriScalPrecond
  PairRule pairing = PairRule::Forest; // block variant: how rows are paired (block.hpp)
};

struct SetupInfo {
  ForestStats forest;             // scalar variant
  BlockStats block;               // block variant
  Index npaths = 0;               // paths (coarse paths in the block variant)
  Index longest = 0;              // vertices (blocks) in the longest path
  Index splits = 0, replaced = 0; // pivot fallbacks of the last factorization
  double c_id = 0;                // coverage of the original tridiagonal part
  double c_pi = 0;                // coverage of the preconditioner (forest, or block tridiagonal)
};

// Wall-clock of each setup phase in milliseconds. Block variant: `factor` covers pairing,
// coarse graph and coarse factor; `cycles` and `paths` are those of the coarse graph.
struct PhaseTimes {
  double weights = 0;  // weight graph W (and pattern(A+A^T) when A is not structurally symmetric)
  double factor = 0;   // [0,n]-factor proposal/confirm rounds
  double cycles = 0;   // cycle breaking
  double paths = 0;    // path id/position + offsets + permutation
  double assemble = 0; // T from A
  double lu = 0;       // factorization of T
  double forest() const { return weights + factor + cycles + paths; }
  double total() const { return forest() + assemble + lu; }
};

class Preconditioner {
public:
  Preconditioner() = default;
  // Full setup. Throws std::invalid_argument / std::domain_error as the steps do.
  Preconditioner(const CsrView &a, const Options &opt);

  // New values, same nonzero pattern: keeps the forest (and permutation), re-assembles and
  // refactors. The caller guarantees the pattern; sizes are checked.
  void update_values(const CsrView &a);

  // z = M^-1 r and z = M^-T r, both in the original ordering; z may alias r.
  void apply(const double *r, double *z) const;
  void apply_transpose(const double *r, double *z) const;

  const SetupInfo &info() const { return info_; }
  const PhaseTimes &times() const { return times_; }        // of the last setup / update_values
  const PathOrder &order() const { return order_; }         // scalar variant
  const BlockOrder &block_order() const { return border_; } // block variant
  Index size() const { return n_; }

private:
  Options opt_;
  Index n_ = 0;
  PathOrder order_;
  BlockOrder border_;
  TridiagonalFactor scalar_;
  BlockTridiagonalFactor blockf_;
  SetupInfo info_;
  PhaseTimes times_;
};

} // namespace pgk::trilf

// The row blocks of CARP (component-averaged row projections, Gordon & Gordon): the rows are
// partitioned into blocks B_1..B_t; each block sweeps its rows on its own copy of the unknowns
// they touch, and the copies are then averaged, x_j = (1/|L_j|) sum_{l in L_j} x_j^(l), where
// L_j is the set of blocks touching x_j.
//
// A block's copy is compact: its columns (the distinct unknowns its rows touch, ascending) are
// numbered 0..width-1 and every entry of the matrix keeps its block-local column number, the
// "local column map" of an MPIAIJ diagonal/off-diagonal split. The same plan serves one process
// (blocks.hpp + averaging in operators.cpp) and MPI, where the columns are a rank's owned
// unknowns followed by its ghosts and the sums of the copies are completed across ranks by the
// reverse scatter of PETSc's MatMult pattern (petsc_plugin/ksp/carpcg_host.cpp).
//
// Zero rows (sweep.hpp) belong to no block: they touch nothing and count in no |L_j|.
#pragma once

#include "src/common/csr.hpp"

#include <vector>

namespace pgk::carpcg {

// block_of_row for `nblocks` contiguous ranges of near-equal size: rows [k n / t, (k+1) n / t)
// form block k. nblocks is clamped to [1, max(nrows, 1)]. Filled on `threads` threads.
std::vector<Index> contiguous_blocks(Index nrows, Index nblocks, int threads = 1);

class BlockPlan {
public:
  BlockPlan() = default;
  // block_of_row: a block id in [0, nblocks) per row of a; norms2 from row_norms2(a) (rows with
  // norms2 == 0 are left out). Throws std::invalid_argument on a bad block id or size. The blocks
  // are built on `threads` threads (<= 0: every hardware thread): the same plan for any count.
  BlockPlan(const CsrView &a, const std::vector<double> &norms2, const std::vector<Index> &block_of_row, Index nblocks,
            int threads = 1);

  Index nblocks() const { return static_cast<Index>(blocks_.size()); }

  // For each unknown j (a.ncols of them), the number of blocks touching it: |L_j| as far as
  // these blocks go (one process: all of them).
  const std::vector<Index> &multiplicity() const { return multiplicity_; }

  // The sum over blocks of their swept copies: every block copies x on its columns, sweeps its
  // rows (ascending: forward; descending: backward) with right-hand side b (nullptr: 0), and
  // adds its copy to acc; acc[j] = 0 where no block touches j. a and norms2 must be the ones
  // the plan was built from; acc has a.ncols entries and may not alias x.
  void sweep_sum(const CsrView &a, const double *norms2, const double *b, double lambda, bool backward, const double *x,
                 double *acc) const;

  // Rows and columns of block k (for tests and -ksp_view figures).
  const std::vector<Index> &rows(Index k) const { return blocks_[k].rows; }
  const std::vector<Index> &cols(Index k) const { return blocks_[k].cols; }
  // Per stored entry of a: its column's number among its row's block's cols (0 in a zero row).
  const std::vector<Index> &local_col() const { return local_col_; }

private:
  struct Block {
    std::vector<Index> rows; // ascending
    std::vector<Index> cols; // ascending, distinct: the block-local numbering
  };
  std::vector<Block> blocks_;
  std::vector<Index> local_col_; // per stored entry: its column's number in its row's block
  std::vector<Index> multiplicity_;
  mutable std::vector<double> copy_; // one block's copy (the widest block)
};

} // namespace pgk::carpcg

// CARP row blocks with compact local copies; see blocks.hpp.
#include "src/carpcg/blocks.hpp"

#include "src/carpcg/sweep.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pgk::carpcg {

std::vector<Index> contiguous_blocks(Index nrows, Index nblocks) {
  const Index t = std::max<Index>(1, std::min<Index>(nblocks, std::max<Index>(nrows, 1)));
  std::vector<Index> block(static_cast<std::size_t>(nrows));
  for (Index k = 0; k < t; ++k) {
    // 64-bit products: n * t may exceed Index.
    const Index lo = static_cast<Index>(static_cast<long long>(nrows) * k / t);
    const Index hi = static_cast<Index>(static_cast<long long>(nrows) * (k + 1) / t);
    for (Index i = lo; i < hi; ++i) block[static_cast<std::size_t>(i)] = k;
  }
  return block;
}

BlockPlan::BlockPlan(const CsrView &a, const std::vector<double> &norms2, const std::vector<Index> &block_of_row,
                     Index nblocks) {
  if (block_of_row.size() != static_cast<std::size_t>(a.nrows) || norms2.size() != block_of_row.size())
    throw std::invalid_argument("carpcg: block assignment and row norms must have one entry per row");
  if (nblocks < 1) throw std::invalid_argument("carpcg: need at least one block");
  blocks_.resize(static_cast<std::size_t>(nblocks));
  for (Index i = 0; i < a.nrows; ++i) {
    const Index k = block_of_row[static_cast<std::size_t>(i)];
    if (k < 0 || k >= nblocks)
      throw std::invalid_argument("carpcg: row " + std::to_string(i) + " is in block " + std::to_string(k) +
                                  ", outside [0, " + std::to_string(nblocks) + ")");
    if (norms2[static_cast<std::size_t>(i)] != 0) blocks_[static_cast<std::size_t>(k)].rows.push_back(i);
  }
  // Local column numbers: the block's distinct columns, ascending; a stamp array finds them
  // without a sort per row.
  local_col_.assign(static_cast<std::size_t>(a.nnz_host()), 0);
  multiplicity_.assign(static_cast<std::size_t>(a.ncols), 0);
  std::vector<Index> slot(static_cast<std::size_t>(a.ncols), -1);
  std::size_t widest = 0;
  for (Block &blk : blocks_) {
    for (const Index i : blk.rows)
      for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) blk.cols.push_back(a.colidx[e]);
    std::sort(blk.cols.begin(), blk.cols.end());
    blk.cols.erase(std::unique(blk.cols.begin(), blk.cols.end()), blk.cols.end());
    for (std::size_t t = 0; t < blk.cols.size(); ++t) {
      slot[static_cast<std::size_t>(blk.cols[t])] = static_cast<Index>(t);
      ++multiplicity_[static_cast<std::size_t>(blk.cols[t])];
    }
    for (const Index i : blk.rows)
      for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
        local_col_[static_cast<std::size_t>(e)] = slot[static_cast<std::size_t>(a.colidx[e])];
    widest = std::max(widest, blk.cols.size());
  }
  copy_.assign(widest, 0.0);
}

void BlockPlan::sweep_sum(const CsrView &a, const double *norms2, const double *b, double lambda, bool backward,
                          const double *x, double *acc) const {
  std::fill(acc, acc + a.ncols, 0.0);
  // The same rows and values, addressed through the block-local column numbers.
  const CsrView local{a.nrows, static_cast<Index>(copy_.size()), a.rowptr, local_col_.data(), a.values};
  for (const Block &blk : blocks_) {
    const std::size_t width = blk.cols.size();
    for (std::size_t t = 0; t < width; ++t) copy_[t] = x[blk.cols[t]];
    sweep(local, norms2, b, lambda, blk.rows.data(), static_cast<Index>(blk.rows.size()), backward, copy_.data());
    for (std::size_t t = 0; t < width; ++t) acc[blk.cols[t]] += copy_[t];
  }
}

} // namespace pgk::carpcg

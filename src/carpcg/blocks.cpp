// CARP row blocks with compact local copies; see blocks.hpp.
#include "src/carpcg/blocks.hpp"

#include "src/carpcg/sweep.hpp"
#include "src/common/prefault.hpp"
#include "src/common/thread_pool.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pgk::carpcg {

namespace {

// Below this many rows or stored entries a plan is built on the calling thread: starting the
// workers costs more than the work.
constexpr Index kParallelMin = Index(1) << 16;
// Blocks a free thread takes at a time: blocks differ in width, so they are handed out.
constexpr std::int64_t kBlocksPerChunk = 16;

// A block's column span up to which local columns are looked up in a table over the span
// instead of by binary search (per thread: 16 MiB at most).
constexpr Index kMaxTableSpan = Index(1) << 22;

// Per thread: the block's column list before sort and unique, and the lookup table.
struct Scratch {
  std::vector<Index> all, place;
};

// One block's distinct columns (ascending), its entries' local column numbers (the position of
// each entry's column among them) and its share of the multiplicities. Blocks hold disjoint rows,
// so local_col is written at disjoint places; on several threads the multiplicities are integer
// atomic adds, whose sum does not depend on the order: the plan is the same for any thread count.
void build_block(const CsrView &a, const std::vector<Index> &rows, std::vector<Index> &cols, Index *local_col,
                 Index *multiplicity, bool atomic, Scratch &s) {
  s.all.clear();
  for (const Index i : rows) s.all.insert(s.all.end(), a.colidx + a.rowptr[i], a.colidx + a.rowptr[i + 1]);
  std::sort(s.all.begin(), s.all.end());
  cols.assign(s.all.begin(), std::unique(s.all.begin(), s.all.end()));
  if (cols.empty()) return;
  for (const Index j : cols) {
    if (atomic) __atomic_fetch_add(&multiplicity[j], Index(1), __ATOMIC_RELAXED);
    else ++multiplicity[j];
  }
  const Index lo = cols.front(), span = cols.back() - lo + 1;
  if (span <= kMaxTableSpan) { // only the places of the block's own columns are written, then read
    if (s.place.size() < static_cast<std::size_t>(span)) s.place.resize(static_cast<std::size_t>(span));
    for (std::size_t t = 0; t < cols.size(); ++t)
      s.place[static_cast<std::size_t>(cols[t] - lo)] = static_cast<Index>(t);
    for (const Index i : rows)
      for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
        local_col[e] = s.place[static_cast<std::size_t>(a.colidx[e] - lo)];
    return;
  }
  for (const Index i : rows)
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
      local_col[e] = static_cast<Index>(std::lower_bound(cols.begin(), cols.end(), a.colidx[e]) - cols.begin());
}

} // namespace

std::vector<Index> contiguous_blocks(Index nrows, Index nblocks, int threads) {
  const Index t = std::max<Index>(1, std::min<Index>(nblocks, std::max<Index>(nrows, 1)));
  ThreadPool pool(nrows < kParallelMin ? 1 : threads);
  std::vector<Index> block = prefaulted_vector<Index>(static_cast<std::size_t>(nrows), 0, pool);
  pool.parallel_for(0, t, kBlocksPerChunk, [&](std::int64_t k) {
    // 64-bit products: n * t may exceed Index.
    const Index lo = static_cast<Index>(static_cast<long long>(nrows) * k / t);
    const Index hi = static_cast<Index>(static_cast<long long>(nrows) * (k + 1) / t);
    std::fill(block.begin() + lo, block.begin() + hi, static_cast<Index>(k));
  });
  return block;
}

BlockPlan::BlockPlan(const CsrView &a, const std::vector<double> &norms2, const std::vector<Index> &block_of_row,
                     Index nblocks, int threads) {
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
  ThreadPool pool(a.nnz_host() < kParallelMin ? 1 : threads);
  local_col_ = prefaulted_vector<Index>(static_cast<std::size_t>(a.nnz_host()), 0, pool);
  multiplicity_ = prefaulted_vector<Index>(static_cast<std::size_t>(a.ncols), 0, pool);
  std::vector<Scratch> scratch(static_cast<std::size_t>(pool.threads()));
  const bool atomic = pool.threads() > 1;
  pool.parallel_dynamic(0, nblocks, kBlocksPerChunk, [&](int t, std::int64_t k) {
    Block &blk = blocks_[static_cast<std::size_t>(k)];
    build_block(a, blk.rows, blk.cols, local_col_.data(), multiplicity_.data(), atomic,
                scratch[static_cast<std::size_t>(t)]);
  });
  std::size_t widest = 0;
  for (const Block &blk : blocks_) widest = std::max(widest, blk.cols.size());
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

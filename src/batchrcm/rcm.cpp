#include "src/batchrcm/rcm.hpp"

#include "src/common/thread_pool.hpp"

#include <atomic>
#include <stdexcept>
#include <string>

namespace pgk::rcm {
namespace {

// f(lo, hi) on consecutive slices of [0, n): on the pool's threads when there is one and n is long.
template <class F> void for_slices(ThreadPool *pool, std::int64_t n, F &&f) {
  pgk::for_slices(pool, 0, n, kSliceGrain, [&](int, std::int64_t lo, std::int64_t hi) { f(lo, hi); });
}

// The first bad row or entry, serially (the message names it): only after a check found one.
[[noreturn]] void report_bad_arrays(const CsrView &g) {
  for (Index i = 0; i < g.nrows; ++i)
    if (g.rowptr[i + 1] < g.rowptr[i])
      throw std::invalid_argument("rcm: row pointer decreases at row " + std::to_string(i));
  for (Index e = 0; e < g.rowptr[g.nrows]; ++e)
    if (g.colidx[e] < 0 || g.colidx[e] >= g.ncols)
      throw std::invalid_argument("rcm: column index out of range at entry " + std::to_string(e));
  throw std::logic_error("rcm: validate_graph found a bad entry that it cannot find again");
}

} // namespace

void validate_graph(const CsrView &g, ThreadPool *pool) {
  if (g.nrows != g.ncols)
    throw std::invalid_argument("rcm: the matrix must be square (" + std::to_string(g.nrows) + " x " +
                                std::to_string(g.ncols) + ")");
  if (g.nrows < 0) throw std::invalid_argument("rcm: negative dimension");
  if (g.nrows == 0) return;
  if (!g.rowptr) throw std::invalid_argument("rcm: null row pointer");
  if (g.rowptr[0] != 0) throw std::invalid_argument("rcm: rowptr[0] must be 0");
  std::atomic<bool> bad{false};
  for_slices(pool, g.nrows, [&](std::int64_t lo, std::int64_t hi) {
    for (std::int64_t i = lo; i < hi; ++i)
      if (g.rowptr[i + 1] < g.rowptr[i]) bad.store(true, std::memory_order_relaxed);
  });
  if (bad) report_bad_arrays(g);
  const Index nnz = g.rowptr[g.nrows];
  if (nnz > 0 && !g.colidx) throw std::invalid_argument("rcm: null column indices");
  for_slices(pool, nnz, [&](std::int64_t lo, std::int64_t hi) {
    bool seen = false;
    for (std::int64_t e = lo; e < hi; ++e) seen |= g.colidx[e] < 0 || g.colidx[e] >= g.ncols;
    if (seen) bad.store(true, std::memory_order_relaxed);
  });
  if (bad) report_bad_arrays(g);
}

std::vector<Index> compute_valence(const CsrView &g, bool count_diagonal, ThreadPool *pool) {
  std::vector<Index> v(static_cast<std::size_t>(g.nrows));
  for_slices(pool, g.nrows, [&](std::int64_t lo, std::int64_t hi) {
    for (std::int64_t i = lo; i < hi; ++i) {
      Index d = g.rowptr[i + 1] - g.rowptr[i];
      if (!count_diagonal)
        for (Index e = g.rowptr[i]; e < g.rowptr[i + 1]; ++e) d -= (g.colidx[e] == static_cast<Index>(i));
      v[static_cast<std::size_t>(i)] = d;
    }
  });
  return v;
}

bool is_permutation(const std::vector<Index> &p, Index n) {
  if (static_cast<Index>(p.size()) != n) return false;
  std::vector<char> seen(p.size(), 0);
  for (Index x : p) {
    if (x < 0 || x >= n || seen[static_cast<std::size_t>(x)]) return false;
    seen[static_cast<std::size_t>(x)] = 1;
  }
  return true;
}

} // namespace pgk::rcm

// build_graph on a thread pool: the same arrays as the serial build_graph (graph.cpp).
#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>
#include <string>

#include "src/common/csr_build.hpp"
#include "src/common/csr_symmetry.hpp"
#include "src/common/prefault.hpp"
#include "src/common/thread_pool.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/graph.hpp"

namespace pgk::rabbitpp {
namespace {

// Row pointer from per-row counts (exclusive scan; serial, O(n)).
std::vector<Index> scan_counts(const std::vector<Index> &count) {
  std::vector<Index> ptr(count.size() + 1, 0);
  for (std::size_t i = 0; i < count.size(); ++i) ptr[i + 1] = ptr[i] + count[i];
  return ptr;
}

// Row i of A without its diagonal, sorted and unique, written to `out` (null: only counted). A
// strictly increasing row (PETSc's rows are) is copied around its diagonal; any other row is
// sorted in the thread's scratch first.
Index clean_row(const CsrView &a, Index i, std::vector<Index> &scratch, Index *out) {
  const Index *b = a.colidx + a.rowptr[i], *e = a.colidx + a.rowptr[i + 1];
  bool increasing = true;
  for (const Index *p = b + 1; p < e && increasing; ++p) increasing = p[-1] < *p;
  if (!increasing) {
    scratch.assign(b, e);
    std::sort(scratch.begin(), scratch.end());
    scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
    b = scratch.data(), e = b + scratch.size();
  }
  const Index *diag = std::lower_bound(b, e, i);
  const bool has_diag = diag != e && *diag == i;
  if (out) out = std::copy(diag + has_diag, e, std::copy(b, diag, out));
  return static_cast<Index>(e - b) - has_diag;
}

// f(thread, i) for every row, in chunks of rows handed to whichever thread is free.
template <class F> void for_rows(ThreadPool &pool, Index n, F &&f) {
  pool.parallel_ranges(n, 4096, [&](int t, std::int64_t lo, std::int64_t hi) {
    for (std::int64_t i = lo; i < hi; ++i) f(t, static_cast<Index>(i));
  });
}

// A without its diagonal, rows sorted and unique: counted, then written at the scanned offsets.
Csr clean_copy(const CsrView &a, ThreadPool &pool) {
  const Index n = a.nrows;
  Csr c;
  c.nrows = c.ncols = n;
  std::vector<std::vector<Index>> scratch(static_cast<std::size_t>(pool.threads()));
  std::vector<Index> count(static_cast<std::size_t>(n));
  for_rows(pool, n, [&](int t, Index i) { count[i] = clean_row(a, i, scratch[t], nullptr); });
  c.rowptr = scan_counts(count);
  c.colidx = prefaulted_vector<Index>(static_cast<std::size_t>(c.rowptr[n]), 0, pool);
  for_rows(pool, n, [&](int t, Index i) { clean_row(a, i, scratch[t], c.colidx.data() + c.rowptr[i]); });
  return c;
}

// Transpose with sorted rows (atomic placement, then each row sorted: deterministic).
Csr transpose_parallel(const Csr &c, ThreadPool &pool) {
  const Index n = c.nrows;
  std::vector<std::atomic<Index>> count(static_cast<std::size_t>(n));
  pool.parallel_for(0, n, 4096, [&](std::int64_t i) { count[i].store(0, std::memory_order_relaxed); });
  pool.parallel_for(0, n, 1024, [&](std::int64_t i) {
    for (Index k = c.rowptr[i]; k < c.rowptr[i + 1]; ++k) count[c.colidx[k]].fetch_add(1, std::memory_order_relaxed);
  });
  Csr t;
  t.nrows = t.ncols = n;
  t.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (Index j = 0; j < n; ++j) t.rowptr[j + 1] = t.rowptr[j] + count[j].load(std::memory_order_relaxed);
  pool.parallel_for(0, n, 4096, [&](std::int64_t j) { count[j].store(t.rowptr[j], std::memory_order_relaxed); });
  t.colidx.resize(static_cast<std::size_t>(t.rowptr[n]));
  pool.parallel_for(0, n, 1024, [&](std::int64_t i) {
    for (Index k = c.rowptr[i]; k < c.rowptr[i + 1]; ++k)
      t.colidx[count[c.colidx[k]].fetch_add(1, std::memory_order_relaxed)] = static_cast<Index>(i);
  });
  pool.parallel_for(0, n, 256, [&](std::int64_t j) {
    std::sort(t.colidx.begin() + t.rowptr[j], t.colidx.begin() + t.rowptr[j + 1]);
  });
  return t;
}

// Row i of G = union of row i of C and of C^T, w = multiplicity; `write` false only counts.
Index merge_row(const Csr &c, const Csr &t, Index i, Graph *g) {
  Index p = c.rowptr[i], pe = c.rowptr[i + 1], q = t.rowptr[i], qe = t.rowptr[i + 1], out = 0, n = c.nrows;
  Index dst = g ? g->rowptr[i] : 0;
  std::int64_t strength = 0;
  while (p < pe || q < qe) {
    const Index cp = p < pe ? c.colidx[p] : n, cq = q < qe ? t.colidx[q] : n, col = std::min(cp, cq);
    const std::uint8_t w = static_cast<std::uint8_t>((cp == col) + (cq == col));
    p += (cp == col);
    q += (cq == col);
    if (g) g->colidx[dst + out] = col, g->weight[dst + out] = w;
    strength += w;
    ++out;
  }
  if (g) g->strength[i] = strength;
  return out;
}

void check_input(const CsrView &a, ThreadPool &pool) {
  std::string why;
  if (!validate_csr(a, &why, pool)) throw std::invalid_argument("rabbitpp: malformed CSR: " + why);
  if (a.nrows != a.ncols)
    throw std::invalid_argument("rabbitpp: the matrix must be square, got " + std::to_string(a.nrows) + " x " +
                                std::to_string(a.ncols));
}

void check_total(std::int64_t total) {
  if (total > 3037000499LL)
    throw std::overflow_error("rabbitpp: the graph's total edge weight " + std::to_string(total) +
                              " exceeds 3037000499 (the exact modularity-gain comparison needs total^2 < 2^63)");
}

// build_graph_parallel on an A that check_input accepted.
Graph build_graph_checked(const CsrView &a, ThreadPool &pool, bool known_symmetric) {
  const Index n = a.nrows;
  Csr c = clean_copy(a, pool);
  Graph g;
  g.n = n;
  g.strength = prefaulted_vector<std::int64_t>(static_cast<std::size_t>(n), 0, pool);
  if (known_symmetric || sorted_pattern_is_symmetric(view_of(c), &pool)) { // G = C, every weight 2
    g.rowptr = std::move(c.rowptr);
    g.colidx = std::move(c.colidx);
    g.weight = prefaulted_vector<std::uint8_t>(g.colidx.size(), 2, pool);
    pool.parallel_for(0, n, 4096, [&](std::int64_t i) {
      g.strength[i] = 2 * static_cast<std::int64_t>(g.rowptr[i + 1] - g.rowptr[i]);
    });
  } else {
    const Csr t = transpose_parallel(c, pool);
    std::vector<Index> count(static_cast<std::size_t>(n));
    pool.parallel_for(0, n, 1024, [&](std::int64_t i) { count[i] = merge_row(c, t, static_cast<Index>(i), nullptr); });
    g.rowptr = scan_counts(count);
    g.colidx.resize(static_cast<std::size_t>(g.rowptr[n]));
    g.weight.resize(static_cast<std::size_t>(g.rowptr[n]));
    pool.parallel_for(0, n, 1024, [&](std::int64_t i) { merge_row(c, t, static_cast<Index>(i), &g); });
  }
  g.total = std::accumulate(g.strength.begin(), g.strength.end(), std::int64_t{0});
  check_total(g.total);
  return g;
}

} // namespace

Graph build_graph_parallel(const CsrView &a, ThreadPool &pool, bool known_symmetric) {
  check_input(a, pool);
  return build_graph_checked(a, pool, known_symmetric);
}

BatchGraph::BatchGraph(const CsrView &a, ThreadPool &pool, bool known_symmetric) {
  check_input(a, pool);
  if (!known_symmetric || !rows_sorted_unique(a, nullptr, pool)) {
    owned_ = build_graph_checked(a, pool, known_symmetric);
    view_ = owned_;
    view_.symmetry_promised = known_symmetric;
    return;
  }
  const Index n = a.nrows;
  // A's rows are G's rows with at most their diagonal entry more: str(v) = 2 (row length - [a_vv stored]).
  strength_ = prefaulted_vector<std::int64_t>(static_cast<std::size_t>(n), 0, pool);
  pool.parallel_for(0, n, 4096, [&](std::int64_t v) {
    const Index *b = a.colidx + a.rowptr[v], *e = a.colidx + a.rowptr[v + 1], *d = std::lower_bound(b, e, v);
    strength_[v] = 2 * static_cast<std::int64_t>((e - b) - (d != e && *d == v));
  });
  view_.n = n;
  view_.rowptr = a.rowptr;
  view_.colidx = a.colidx;
  view_.strength = strength_.data();
  view_.total = std::accumulate(strength_.begin(), strength_.end(), std::int64_t{0});
  view_.edges = view_.total / 2;
  view_.diagonal_stored = true;
  view_.symmetry_promised = true;
  check_total(view_.total);
}

} // namespace pgk::rabbitpp

// build_graph on a thread pool: the same arrays as the serial build_graph (graph.cpp).
#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>
#include <string>

#include "src/common/csr_build.hpp"
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

// A without its diagonal, rows sorted and unique (rows of A that already are: copied as is).
Csr clean_copy(const CsrView &a, ThreadPool &pool) {
  const Index n = a.nrows;
  Csr c;
  c.nrows = c.ncols = n;
  std::vector<std::vector<Index>> sorted_rows(static_cast<std::size_t>(n));
  std::vector<Index> count(static_cast<std::size_t>(n));
  pool.parallel_for(0, n, 256, [&](std::int64_t i) {
    const Index *b = a.colidx + a.rowptr[i], *e = a.colidx + a.rowptr[i + 1];
    bool clean = true;
    for (const Index *p = b; p != e; ++p) clean = clean && *p != i && (p == b || p[-1] < *p);
    if (clean) {
      count[i] = static_cast<Index>(e - b);
      return;
    }
    std::vector<Index> &r = sorted_rows[i];
    r.assign(b, e);
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    r.erase(std::remove(r.begin(), r.end(), static_cast<Index>(i)), r.end());
    count[i] = static_cast<Index>(r.size());
  });
  c.rowptr = scan_counts(count);
  c.colidx.resize(static_cast<std::size_t>(c.rowptr[n]));
  pool.parallel_for(0, n, 256, [&](std::int64_t i) {
    const bool copied = sorted_rows[i].empty() && count[i] == a.rowptr[i + 1] - a.rowptr[i];
    const Index *src = copied ? a.colidx + a.rowptr[i] : sorted_rows[i].data();
    std::copy(src, src + count[i], c.colidx.begin() + c.rowptr[i]);
  });
  return c;
}

bool structurally_symmetric(const Csr &c, ThreadPool &pool) {
  std::atomic<bool> symmetric{true};
  pool.parallel_for(0, c.nrows, 1024, [&](std::int64_t i) {
    if (!symmetric.load(std::memory_order_relaxed)) return;
    for (Index k = c.rowptr[i]; k < c.rowptr[i + 1]; ++k) {
      const Index j = c.colidx[k];
      if (!std::binary_search(c.colidx.begin() + c.rowptr[j], c.colidx.begin() + c.rowptr[j + 1],
                              static_cast<Index>(i))) {
        symmetric.store(false, std::memory_order_relaxed);
        return;
      }
    }
  });
  return symmetric.load();
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

} // namespace

Graph build_graph_parallel(const CsrView &a, ThreadPool &pool, bool known_symmetric) {
  std::string why;
  if (!validate_csr(a, &why)) throw std::invalid_argument("rabbitpp: malformed CSR: " + why);
  if (a.nrows != a.ncols)
    throw std::invalid_argument("rabbitpp: the matrix must be square, got " + std::to_string(a.nrows) + " x " +
                                std::to_string(a.ncols));
  const Index n = a.nrows;
  Csr c = clean_copy(a, pool);
  Graph g;
  g.n = n;
  g.strength.assign(static_cast<std::size_t>(n), 0);
  if (known_symmetric || structurally_symmetric(c, pool)) { // G = C, every weight 2
    g.rowptr = std::move(c.rowptr);
    g.colidx = std::move(c.colidx);
    g.weight.assign(g.colidx.size(), 2);
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
  if (g.total > 3037000499LL)
    throw std::overflow_error("rabbitpp: the graph's total edge weight " + std::to_string(g.total) +
                              " exceeds 3037000499 (the exact modularity-gain comparison needs total^2 < 2^63)");
  return g;
}

} // namespace pgk::rabbitpp

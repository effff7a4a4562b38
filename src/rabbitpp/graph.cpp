#include "src/rabbitpp/graph.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "src/common/csr_build.hpp"

namespace pgk::rabbitpp {
namespace {

// Row i of A, sorted and without duplicates or the diagonal.
void clean_row(const CsrView &a, Index i, std::vector<Index> &out) {
  out.assign(a.colidx + a.rowptr[i], a.colidx + a.rowptr[i + 1]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  out.erase(std::remove(out.begin(), out.end(), i), out.end());
}

} // namespace

Graph build_graph(const CsrView &a) {
  std::string why;
  if (!validate_csr(a, &why)) throw std::invalid_argument("rabbitpp: malformed CSR: " + why);
  if (a.nrows != a.ncols)
    throw std::invalid_argument("rabbitpp: the matrix must be square, got " + std::to_string(a.nrows) + " x " +
                                std::to_string(a.ncols));
  const Index n = a.nrows;
  // Cleaned copy of A (sorted, unique, no diagonal) and its transpose: row i of G merges both.
  Csr clean;
  clean.nrows = clean.ncols = n;
  clean.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  std::vector<Index> row;
  for (Index i = 0; i < n; ++i) {
    clean_row(a, i, row);
    clean.colidx.insert(clean.colidx.end(), row.begin(), row.end());
    clean.rowptr[i + 1] = static_cast<Index>(clean.colidx.size());
  }
  const Csr t = transpose(view_of(clean));
  Graph g;
  g.n = n;
  g.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  g.strength.assign(static_cast<std::size_t>(n), 0);
  for (Index i = 0; i < n; ++i) {
    Index p = clean.rowptr[i], pe = clean.rowptr[i + 1], q = t.rowptr[i], qe = t.rowptr[i + 1];
    while (p < pe || q < qe) {
      const Index cp = p < pe ? clean.colidx[p] : n, cq = q < qe ? t.colidx[q] : n;
      const Index c = std::min(cp, cq);
      const std::uint8_t w = static_cast<std::uint8_t>((cp == c) + (cq == c));
      p += (cp == c);
      q += (cq == c);
      g.colidx.push_back(c);
      g.weight.push_back(w);
      g.strength[i] += w;
    }
    g.rowptr[i + 1] = static_cast<Index>(g.colidx.size());
  }
  g.total = std::accumulate(g.strength.begin(), g.strength.end(), std::int64_t{0});
  // gain = w * total - str(v) * str(u) with w, str <= total: total^2 must not overflow.
  if (g.total > 3037000499LL)
    throw std::overflow_error("rabbitpp: the graph's total edge weight " + std::to_string(g.total) +
                              " exceeds 3037000499 (the exact modularity-gain comparison needs total^2 < 2^63)");
  return g;
}

std::vector<Index> processing_order(const GraphView &g) {
  // Counting sort by degree: stable, so ties stay in ascending id. O(n + max degree).
  Index max_degree = 0;
  for (Index v = 0; v < g.n; ++v) max_degree = std::max(max_degree, g.degree(v));
  std::vector<Index> start(static_cast<std::size_t>(max_degree) + 2, 0);
  for (Index v = 0; v < g.n; ++v) ++start[g.degree(v) + 1];
  for (Index d = 0; d <= max_degree; ++d) start[d + 1] += start[d];
  std::vector<Index> order(static_cast<std::size_t>(g.n));
  for (Index v = 0; v < g.n; ++v) order[start[g.degree(v)]++] = v;
  return order;
}

} // namespace pgk::rabbitpp

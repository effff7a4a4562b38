#include "src/batchrcm/rcm.hpp"

#include <stdexcept>
#include <string>

namespace pgk::rcm {

void validate_graph(const CsrView &g) {
  if (g.nrows != g.ncols)
    throw std::invalid_argument("rcm: the matrix must be square (" + std::to_string(g.nrows) + " x " +
                                std::to_string(g.ncols) + ")");
  if (g.nrows < 0) throw std::invalid_argument("rcm: negative dimension");
  if (g.nrows == 0) return;
  if (!g.rowptr) throw std::invalid_argument("rcm: null row pointer");
  if (g.rowptr[0] != 0) throw std::invalid_argument("rcm: rowptr[0] must be 0");
  for (Index i = 0; i < g.nrows; ++i)
    if (g.rowptr[i + 1] < g.rowptr[i])
      throw std::invalid_argument("rcm: row pointer decreases at row " + std::to_string(i));
  const Index nnz = g.rowptr[g.nrows];
  if (nnz > 0 && !g.colidx) throw std::invalid_argument("rcm: null column indices");
  for (Index e = 0; e < nnz; ++e)
    if (g.colidx[e] < 0 || g.colidx[e] >= g.ncols)
      throw std::invalid_argument("rcm: column index out of range at entry " + std::to_string(e));
}

std::vector<Index> compute_valence(const CsrView &g, bool count_diagonal) {
  std::vector<Index> v(static_cast<std::size_t>(g.nrows));
  for (Index i = 0; i < g.nrows; ++i) {
    Index d = g.rowptr[i + 1] - g.rowptr[i];
    if (!count_diagonal)
      for (Index e = g.rowptr[i]; e < g.rowptr[i + 1]; ++e) d -= (g.colidx[e] == i);
    v[static_cast<std::size_t>(i)] = d;
  }
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

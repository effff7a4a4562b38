// Greedy distance-2 colouring; see coloring.hpp.
#include "src/carpcg/coloring.hpp"

#include "src/common/csr_build.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pgk::carpcg {

Coloring distance2_coloring(const CsrView &a) {
  // The rows of every column, ascending (the transposed pattern): row i conflicts with the
  // earlier rows k < i found in the columns of row i.
  const Csr at = transpose(CsrView{a.nrows, a.ncols, a.rowptr, a.colidx, nullptr});
  std::vector<int> color(static_cast<std::size_t>(a.nrows), -1);
  std::vector<Index> seen; // seen[c] == i + 1: colour c is taken by a neighbour of row i
  for (Index i = 0; i < a.nrows; ++i) {
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      const Index j = a.colidx[e];
      for (Index f = at.rowptr[j]; f < at.rowptr[j + 1] && at.colidx[f] < i; ++f) {
        const int c = color[static_cast<std::size_t>(at.colidx[f])];
        if (static_cast<std::size_t>(c) >= seen.size()) seen.resize(static_cast<std::size_t>(c) + 1, 0);
        seen[static_cast<std::size_t>(c)] = i + 1;
      }
    }
    int c = 0;
    while (static_cast<std::size_t>(c) < seen.size() && seen[static_cast<std::size_t>(c)] == i + 1) ++c;
    color[static_cast<std::size_t>(i)] = c;
  }
  return coloring_from_colors(std::move(color));
}

Coloring coloring_from_colors(std::vector<int> color, int ncolors) {
  Coloring out;
  for (const int c : color) {
    if (c < 0 || (ncolors >= 0 && c >= ncolors))
      throw std::invalid_argument("carpcg: colour " + std::to_string(c) + " outside the colouring");
    out.ncolors = std::max(out.ncolors, c + 1);
  }
  if (ncolors >= 0) out.ncolors = ncolors;
  out.class_ptr.assign(static_cast<std::size_t>(out.ncolors) + 1, 0);
  for (const int c : color) ++out.class_ptr[static_cast<std::size_t>(c) + 1];
  for (int c = 0; c < out.ncolors; ++c) out.class_ptr[c + 1] += out.class_ptr[c];
  out.rows.resize(color.size());
  std::vector<Index> next(out.class_ptr.begin(), out.class_ptr.end() - 1);
  for (std::size_t i = 0; i < color.size(); ++i) out.rows[next[color[i]]++] = static_cast<Index>(i);
  out.color = std::move(color);
  return out;
}

bool is_distance2_coloring(const CsrView &a, const Coloring &c) {
  if (c.color.size() != static_cast<std::size_t>(a.nrows)) return false;
  std::vector<Index> owner(static_cast<std::size_t>(a.ncols), -1); // row of this colour using column j
  std::vector<int> stamp(static_cast<std::size_t>(a.ncols), -1);
  for (int col = 0; col < c.ncolors; ++col) {
    for (Index t = c.class_ptr[col]; t < c.class_ptr[col + 1]; ++t) {
      const Index i = c.rows[t];
      for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
        const std::size_t j = static_cast<std::size_t>(a.colidx[e]);
        if (stamp[j] == col && owner[j] != i) return false;
        stamp[j] = col;
        owner[j] = i;
      }
    }
  }
  return true;
}

} // namespace pgk::carpcg

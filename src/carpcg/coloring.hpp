// Distance-2 colouring of A's row-overlap graph: rows i and k conflict when they have a stored
// entry in a common column (explicit zeros count: the pattern decides). Rows of one colour touch
// disjoint unknowns, so their Kaczmarz projections commute and can run at the same time; a
// sweep colour by colour is exactly a sequential sweep in the coloured row order (the report's
// section 3.1; the digest's "exact multicolor DKSWP").
#pragma once

#include "src/common/csr.hpp"

#include <vector>

namespace pgk::carpcg {

struct Coloring {
  int ncolors = 0;
  std::vector<int> color;       // per row, in [0, ncolors)
  std::vector<Index> class_ptr; // ncolors + 1 offsets into rows
  std::vector<Index> rows;      // the rows grouped by colour, ascending within a colour

  // The coloured row order of a forward sweep (colour 0 first): `rows`.
  const std::vector<Index> &order() const { return rows; }
  Index class_size(int c) const { return class_ptr[c + 1] - class_ptr[c]; }
};

// Greedy colouring in natural row order: row i gets the smallest colour used by no earlier row
// that shares a column with it. Deterministic; the number of colours is at most the largest
// number of other rows any row overlaps, plus one. Columns may exceed rows (a.ncols is used).
Coloring distance2_coloring(const CsrView &a);

// The classes of a given colour per row. ncolors: the number of classes, at least 1 + the
// largest colour (MPI ranks share the global count although a rank may lack some colours);
// -1: exactly 1 + the largest colour (0 for no rows). Throws std::invalid_argument on a
// negative colour or a colour >= ncolors.
Coloring coloring_from_colors(std::vector<int> color, int ncolors = -1);

// Whether no two rows of one colour share a column (the property the sweeps rely on).
bool is_distance2_coloring(const CsrView &a, const Coloring &c);

} // namespace pgk::carpcg

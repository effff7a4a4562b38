// COO assembly of Mat aijcompound (MatSetPreallocationCOO / MatSetValuesCOO): from the scalar
// coordinates (i[k], j[k]) the compound pattern of kind block and the map that sends every COO
// value to its scalar of the compound CSR, so that a values-only assembly is one pass over
// jmap/perm (on the host here, on the device in kernels/aijcompound/ops.hpp, bit for bit).
//
// Semantics follow PETSc's MatSetValuesCOO for AIJ: an entry with a negative row or column index
// is ignored; repeated coordinates are summed, in increasing k; the sum starts at +0.0 and is then
// added to the old value (ADD_VALUES) or to 0.0 (INSERT_VALUES). A scalar no entry lands on keeps
// its value (add) or becomes 0.0 (insert); under add it is not touched at all, so a stored -0.0
// stays -0.0 (PETSc's a + 0.0 would turn it into +0.0).
#pragma once

#include "src/aijcompound/compound.hpp"

#include <vector>

namespace pgk::aijcompound {

struct CooMap {
  // Kind block, the given bs: a block is stored where any kept COO entry falls, block columns
  // sorted and unique per block row, every value 0.0.
  CompoundCsr pattern;
  // nvalues + 1 offsets into perm: scalar t of pattern.values (entry e, component c = jj*bs + ii,
  // column-major in the block) receives v[perm[p]] for p = jmap[t] .. jmap[t+1]-1, the COO
  // indices k in increasing order.
  std::vector<Index> jmap;
  std::vector<Index> perm; // jmap.back() entries: every kept k exactly once
};

// The map of ncoo scalar coordinates (coo_i, coo_j may be null when ncoo == 0) into an nrows x
// ncols matrix stored as bs x bs blocks. std::invalid_argument when bs is not 2..8, a size is
// negative or not a multiple of bs, or a kept entry lies outside the matrix (i >= nrows or
// j >= ncols with both >= 0; PETSc errors there too).
CooMap coo_map(Index ncoo, const Index *coo_i, const Index *coo_j, Index nrows, Index ncols, int bs);

// The host reference of the value assembly: for every t < nvalues with contributions,
// sum = +0.0, sum += v[perm[p]] for p = jmap[t] .. jmap[t+1]-1, then
// values[t] = (add ? values[t] : 0.0) + sum; without contributions values[t] stays (add) or
// becomes 0.0 (insert).
void coo_assemble(const Index *jmap, const Index *perm, const double *v, Index nvalues, bool add, double *values);

} // namespace pgk::aijcompound

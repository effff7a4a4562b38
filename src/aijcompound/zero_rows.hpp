// Reference of MatZeroRows and MatZeroRowsColumns on the compound CSR (src/aijcompound/compound.hpp):
// Dirichlet rows (and columns) of the expanded matrix, the pattern kept. Serial, deterministic.
#pragma once

#include "src/aijcompound/compound.hpp"

namespace pgk::aijcompound {

// MatZeroRows: every stored scalar of the given scalar rows of the expanded matrix becomes 0 and,
// for diag != 0, the row's diagonal scalar diag; the pattern is kept (zeros stay stored). rows: n
// scalar row indices in [0, nbrows*bs), any order, repeats allowed. Throws std::invalid_argument,
// A unchanged, when a row is out of range, when diag != 0 and a row's diagonal block is not stored
// (or the row has no diagonal column), or when A's entries are complex or quaternion and the rows
// cover part of a block row (that form cannot hold: convert to the block kind first, see
// covers_whole_block_rows). Whole block rows keep the form: their diagonal entry becomes diag.
void zero_rows(CompoundCsr &a, const Index *rows, Index n, double diag);
// Whether the rows (as zero_rows takes them, each in range) cover every scalar row of each block row
// they touch.
bool covers_whole_block_rows(int bs, const Index *rows, Index n);
// MatZeroRowsColumns' column part: with mask[j] != 0 for the scalar columns j to eliminate
// (nbcols*bs entries), b_i -= sum over masked j of a_ij x_j for every row i (b, x may be null:
// no update; x indexed by columns), in storage order per row, then every stored scalar of a masked
// column becomes 0. Complex and quaternion entries need the mask constant on each block column
// (std::invalid_argument, A and b unchanged, otherwise).
void eliminate_columns(CompoundCsr &a, const unsigned char *mask, const double *x, double *b);

} // namespace pgk::aijcompound

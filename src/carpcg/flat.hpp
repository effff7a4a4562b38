// The flat array layouts the device schemes (kernels/carpcg/) work on, built on the host from
// the pattern, and sequential emulations of the device passes over them. The emulations are
// what the kernels compute in parallel (each output written by one thread, in the same order of
// operations), so the unit tests can check on the host that a layout reproduces the reference
// bit for bit: cimmino over the transpose = cimmino_pass, carp over the flat blocks =
// BlockPlan::sweep_sum / |L_j|.
#pragma once

#include "src/carpcg/blocks.hpp"
#include "src/common/csr.hpp"

#include <vector>

namespace pgk::carpcg {

// The transpose of a's pattern with, per entry, its position in a's arrays: column j's rows are
// rows[colptr[j] .. colptr[j+1]), ascending, and entry[p] is the index of (rows[p], j) in
// a.colidx / a.values. A column sum in this order runs in natural row order.
struct TransposeMap {
  std::vector<Index> colptr, rows, entry;
};
TransposeMap transpose_map(const CsrView &pattern);

// cimmino over the transpose: out_j = base_j + sum over column j, rows ascending, of coef_i a_ij
// (base == nullptr: 0), coef_i = lambda ((b_i - a_i . x) / |a_i|^2) and 0 for a zero row.
// Equals x + cimmino_pass (acc from 0) bit for bit when base == x.
void cimmino_transposed(const CsrView &a, const TransposeMap &t, const double *norms2, const double *b, double lambda,
                        const double *x, const double *base, double *coef, double *out);

// A BlockPlan as flat arrays: block k's rows rows[row_ptr[k] .. row_ptr[k+1]) (ascending), its
// columns cols[col_ptr[k] .. col_ptr[k+1]) (ascending; its compact copy is copies[col_ptr[k] ..]),
// and per unknown j the positions in `copies` of its copies, in block order:
// gather_pos[gather_ptr[j] .. gather_ptr[j+1]); their count is |L_j|. The block-local column of
// each stored entry is the plan's own BlockPlan::local_col(), not copied here (nnz entries).
struct FlatBlocks {
  std::vector<Index> row_ptr, rows, col_ptr, cols, gather_ptr, gather_pos;
  Index nblocks() const { return static_cast<Index>(row_ptr.size()) - 1; }
};
// On `threads` threads (<= 0: every hardware thread), the same arrays for any count;
// std::invalid_argument if pattern is not the matrix plan was built from (sizes).
FlatBlocks flatten(const BlockPlan &plan, const CsrView &pattern, int threads = 1);

// carp half sweep over the flat blocks (local_col: the plan's BlockPlan::local_col()): every block
// copies x into copies, sweeps its rows (backward: reversed) on its copy, then y_j = (sum of j's copies in block order,
// from 0) / |L_j| (x_j where no block touches j). Equals BlockPlan::sweep_sum / multiplicity bit for bit.
void carp_half_flat(const CsrView &a, const FlatBlocks &f, const Index *local_col, const double *norms2,
                    const double *b, double lambda, bool backward, const double *x, double *copies, double *y);

} // namespace pgk::carpcg

// Reference operations of Mat aijcompound on the compound CSR (src/aijcompound/compound.hpp):
// what MatMult(Add), MatMultTranspose(Add), MatGetDiagonal, MatInvertBlockDiagonal, MatScale,
// MatShift, MatDiagonalScale and MatAXPY compute (MatZeroRows and MatZeroRowsColumns: zero_rows.hpp). Serial, in
// storage order, deterministic. Vectors are interlaced (bs scalars per block row, PETSc's layout); x and y must not
// overlap.
#pragma once

#include "src/aijcompound/compound.hpp"

#include <vector>

namespace pgk::aijcompound {

// y = A x. Per block row, bs accumulators start at +0.0 and take the row's entries in storage
// (ascending column) order, each entry's block column by column (apply_entry). x: nbcols*bs,
// y: nbrows*bs.
void mult(const CompoundCsr &a, const double *x, double *y);
// y = A x + z, as y_i = (A x)_i + z_i after the row's sum (so it equals mult then an add bit for
// bit, as PETSc's MatMultAdd = MatMult + VecAXPY would); z may be y.
void mult_add(const CompoundCsr &a, const double *x, const double *z, double *y);

// The explicit compound transpose, built once and kept by the caller: at's block row j holds
// the blocks of a's block column j in ascending block-row order, each entry transposed (a real
// block: its transpose; complex: the conjugate; quaternion: the conjugate, L(q)^T = L(conj q)),
// so A^T x is mult(at, x): deterministic, no atomics. source[e] is the entry of a that entry e
// of at came from, so values-only changes refresh it without rebuilding (refresh_values).
struct Transpose {
  CompoundCsr at;
  std::vector<Index> source;
};
Transpose transpose(const CompoundCsr &a);
void refresh_values(const CompoundCsr &a, Transpose &t);
// The transposed entry: out receives esize scalars.
void transpose_entry(EntryKind kind, int bs, const double *in, double *out);

// y = A^T x and y = A^T x + z through the explicit transpose (same summation rules as mult).
inline void mult_transpose(const Transpose &t, const double *x, double *y) { mult(t.at, x, y); }
inline void mult_transpose_add(const Transpose &t, const double *x, const double *z, double *y) {
  mult_add(t.at, x, z, y);
}

// d = the scalar diagonal of the expanded matrix, nbrows*bs scalars (0 where the diagonal block is
// missing or the row has no diagonal, i.e. block row >= nbcols).
void diagonal(const CompoundCsr &a, double *d);

// inv = the inverse of every bs x bs diagonal block (nbrows*bs*bs scalars, column-major per block,
// the order of PETSc's MatInvertBlockDiagonal). Gauss-Jordan with partial pivoting on [A_II | I]:
// per column the first row of largest |pivot| below the diagonal, the pivot row divided by the
// pivot, every other row r updated as row_r - f * pivot row. An exactly zero pivot (PETSc's test in
// its block kernels), a missing diagonal block included, throws std::domain_error naming the block
// row. Needs nbrows == nbcols (std::invalid_argument otherwise).
void invert_block_diagonal(const CompoundCsr &a, double *inv);
// One bs x bs column-major block in place; false when a pivot is exactly zero.
bool invert_block(int bs, double *block);

// A = alpha A.
void scale(CompoundCsr &a, double alpha);
// A = A + alpha I on the scalar diagonal (block rows < min(nbrows, nbcols)). A missing diagonal
// block is std::invalid_argument (naming the block row) and leaves A unchanged.
void shift(CompoundCsr &a, double alpha);
// A = diag(l) A diag(r), each stored scalar computed as (l_i * a_ij) * r_j; l (nbrows*bs) or r
// (nbcols*bs) may be null. Complex and quaternion entries keep their form only when l and r are
// constant within each block: otherwise std::invalid_argument and A unchanged (convert to the
// block kind first).
void diagonal_scale(CompoundCsr &a, const double *l, const double *r);
// Y = Y + alpha X, same kind, bs and pattern (std::invalid_argument otherwise): y += alpha * x per
// stored scalar.
void axpy(CompoundCsr &y, double alpha, const CompoundCsr &x);

} // namespace pgk::aijcompound

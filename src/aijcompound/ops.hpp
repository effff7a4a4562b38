// Reference operations of Mat aijcompound on the compound CSR (src/aijcompound/compound.hpp):
// what MatMult(Add), MatMultTranspose(Add), MatGetDiagonal, MatInvertBlockDiagonal, MatScale,
// MatShift, MatDiagonalScale, MatZeroRows and MatAXPY compute. Serial, in storage order, deterministic.
// Vectors are interlaced (bs scalars per block row, PETSc's layout); x and y must not overlap.
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
// Y = Y + alpha X, same kind, bs and pattern (std::invalid_argument otherwise): y += alpha * x per
// stored scalar.
void axpy(CompoundCsr &y, double alpha, const CompoundCsr &x);

} // namespace pgk::aijcompound

// Mat aijcompound (sequential and MPI): Dirichlet rows, MatZeroRows, and rows with their columns,
// MatZeroRowsColumns (the symmetric elimination CG users want), on the host through the reference
// of src/aijcompound/zero_rows.hpp. The pattern is kept (as MATAIJ with MAT_KEEP_NONZERO_PATTERN):
// the zeroed scalars stay stored. Complex and quaternion entries become real blocks (on every rank)
// when the rows cover part of a block row. A device copy uploads the new values at its next use.
#include "petsc_plugin/mat/aijcompound/mpi.hpp"
#include "src/aijcompound/zero_rows.hpp"

#include <vector>

// b = diag x on the zeroed rows (local indices), so that A x = b holds there.
static PetscErrorCode SetDirichletValues(PetscInt n, const PetscInt rows[], PetscScalar diag, Vec x, Vec b)
{
  const PetscScalar *xa;
  PetscScalar       *ba;

  PetscFunctionBegin;
  if (!x || !b) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArray(b, &ba));
  for (PetscInt k = 0; k < n; ++k) ba[rows[k]] = diag * xa[rows[k]];
  PetscCall(VecRestoreArray(b, &ba));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckRows(Mat A, PetscInt n, const PetscInt rows[], PetscInt N)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; ++k) PetscCheck(rows[k] >= 0 && rows[k] < N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MatZeroRows: row %" PetscInt_FMT " is out of range [0, %" PetscInt_FMT ")", rows[k], N);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The sequential matrix's rows (and, with columns, the same columns: b -= A(:, rows) x first).
static PetscErrorCode ZeroSeq(Mat A, PetscInt n, const PetscInt rows[], PetscScalar diag, Vec x, Vec b, PetscBool columns)
{
  ac::CompoundCsr &c = MatAIJCompoundData(A)->c;

  PetscFunctionBegin;
  PetscCall(CheckRows(A, n, rows, A->rmap->n));
  PetscCheck(!columns || A->rmap->n == A->cmap->n, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatZeroRowsColumns on seqcompoundaij needs a square matrix");
  PetscCall(MatAIJCompoundSyncHost(A));
  if (c.kind != ac::EntryKind::block && !ac::covers_whole_block_rows(c.bs, rows, n)) PetscCall(MatAIJCompoundToBlockKind(A, "MatZeroRows on part of a block row"));
  if (columns) {
    std::vector<unsigned char> mask((size_t)A->cmap->n, 0);
    const PetscScalar         *xa = nullptr;
    PetscScalar               *ba = nullptr;
    for (PetscInt k = 0; k < n; ++k) mask[rows[k]] = 1;
    if (x && b) PetscCall(VecGetArrayRead(x, &xa));
    if (x && b) PetscCall(VecGetArray(b, &ba));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, ac::eliminate_columns(c, mask.data(), xa, ba));
    if (x && b) PetscCall(VecRestoreArray(b, &ba));
    if (x && b) PetscCall(VecRestoreArrayRead(x, &xa));
  }
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, ac::zero_rows(c, rows, n, PetscRealPart(diag)));
  PetscCall(SetDirichletValues(n, rows, diag, x, b));
  PetscCall(MatAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatZeroRows_SeqAIJCompound(Mat A, PetscInt n, const PetscInt rows[], PetscScalar diag, Vec x, Vec b)
{
  PetscFunctionBegin;
  PetscCall(ZeroSeq(A, n, rows, diag, x, b, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatZeroRowsColumns_SeqAIJCompound(Mat A, PetscInt n, const PetscInt rows[], PetscScalar diag, Vec x, Vec b)
{
  PetscFunctionBegin;
  PetscCall(ZeroSeq(A, n, rows, diag, x, b, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The ghost columns of the zeroed rows (the off-diagonal block's column mask, whole blocks as the
// ghosts are) and, for b, the ghost values of x: both through A's own scatter.
static PetscErrorCode GhostColumns(Mat A, PetscInt nl, const PetscInt lrows[], Vec x, std::vector<unsigned char> &mask, std::vector<PetscScalar> &xghost)
{
  Mat_MPIAIJCompound *d = MatMPIAIJCompoundData(A);
  Vec                 marks, g;
  PetscScalar        *ma;
  const PetscScalar  *ga;
  PetscInt            ng;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &marks, NULL));
  PetscCall(VecSet(marks, 0.0));
  PetscCall(VecGetArray(marks, &ma));
  for (PetscInt k = 0; k < nl; ++k) ma[lrows[k]] = 1.0;
  PetscCall(VecRestoreArray(marks, &ma));
  PetscCall(VecDuplicate(d->lvec, &g));
  PetscCall(VecGetLocalSize(g, &ng));
  for (int pass = 0; pass < (x ? 2 : 1); ++pass) {
    Vec from = pass ? x : marks;
    PetscCall(VecScatterBegin(d->Mvctx, from, g, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(d->Mvctx, from, g, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(g, &ga));
    if (!pass) mask.assign((size_t)ng, 0);
    if (!pass)
      for (PetscInt c = 0; c < ng; ++c) mask[c] = ga[c] != 0.0;
    else xghost.assign(ga, ga + ng);
    PetscCall(VecRestoreArrayRead(g, &ga));
  }
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&marks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Global rows (any rank may name any row) routed to their owners; the diagonal block's local rows
// take diag; with columns, both blocks' columns of the zeroed rows are eliminated (the off-diagonal
// block's through the ghost mask), b -= A(:, rows) x first. Collective.
static PetscErrorCode ZeroMPI(Mat A, PetscInt n, const PetscInt rows[], PetscScalar diag, Vec x, Vec b, PetscBool columns)
{
  Mat_MPIAIJCompound *d = MatMPIAIJCompoundData(A);
  PetscInt            nl, *lrows;
  PetscBool           samelayout;
  int                 whole;

  PetscFunctionBegin;
  PetscCall(CheckRows(A, n, rows, A->rmap->N));
  PetscCall(PetscLayoutCompare(A->rmap, A->cmap, &samelayout));
  PetscCheck(samelayout || (diag == 0.0 && !columns), PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "MatZeroRows%s on mpicompoundaij%s needs the same row and column layouts", columns ? "Columns" : "", columns ? "" : " with a nonzero diagonal");
  PetscCall(PetscLayoutMapLocal(A->rmap, n, rows, &nl, &lrows, NULL));
  whole = d->kind == ac::EntryKind::block || ac::covers_whole_block_rows((int)A->rmap->bs, lrows, nl);
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &whole, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)A)));
  if (!whole) PetscCall(MatMPIAIJCompoundToBlockKind(A, "MatZeroRows on part of a block row"));
  if (columns) { // b -= A(:, rows) x: the diagonal block's local columns, then the ghost columns
    std::vector<unsigned char> local((size_t)A->cmap->n, 0), ghost;
    std::vector<PetscScalar>   xghost;
    const PetscScalar         *xa   = nullptr;
    PetscScalar               *ba   = nullptr;
    const bool                 vecs = x && b;
    for (PetscInt k = 0; k < nl; ++k) local[lrows[k]] = 1;
    PetscCall(GhostColumns(A, nl, lrows, vecs ? x : nullptr, ghost, xghost));
    PetscCall(MatAIJCompoundSyncHost(d->Ad));
    PetscCall(MatAIJCompoundSyncHost(d->Ao));
    if (vecs) PetscCall(VecGetArrayRead(x, &xa));
    if (vecs) PetscCall(VecGetArray(b, &ba));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, ac::eliminate_columns(MatAIJCompoundData(d->Ad)->c, local.data(), xa, ba));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, ac::eliminate_columns(MatAIJCompoundData(d->Ao)->c, ghost.data(), vecs ? xghost.data() : nullptr, ba));
    if (vecs) PetscCall(VecRestoreArray(b, &ba));
    if (vecs) PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(MatAIJCompoundValuesChanged(d->Ad));
    PetscCall(MatAIJCompoundValuesChanged(d->Ao));
  }
  PetscCall(ZeroSeq(d->Ad, nl, lrows, diag, NULL, NULL, PETSC_FALSE));
  PetscCall(ZeroSeq(d->Ao, nl, lrows, 0.0, NULL, NULL, PETSC_FALSE));
  PetscCall(SetDirichletValues(nl, lrows, diag, x, b)); // local rows of the MPI vectors' arrays
  PetscCall(PetscFree(lrows));
  PetscCall(MatMPIAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatZeroRows_MPIAIJCompound(Mat A, PetscInt n, const PetscInt rows[], PetscScalar diag, Vec x, Vec b)
{
  PetscFunctionBegin;
  PetscCall(ZeroMPI(A, n, rows, diag, x, b, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatZeroRowsColumns_MPIAIJCompound(Mat A, PetscInt n, const PetscInt rows[], PetscScalar diag, Vec x, Vec b)
{
  PetscFunctionBegin;
  PetscCall(ZeroMPI(A, n, rows, diag, x, b, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatAIJCompoundSetZeroRowsOps(Mat A, PetscBool mpi)
{
  A->ops->zerorows        = mpi ? MatZeroRows_MPIAIJCompound : MatZeroRows_SeqAIJCompound;
  A->ops->zerorowscolumns = mpi ? MatZeroRowsColumns_MPIAIJCompound : MatZeroRowsColumns_SeqAIJCompound;
}

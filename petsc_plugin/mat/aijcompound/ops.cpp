// Mat aijcompound: the operations on the compound CSR, on the host through the serial reference
// (src/aijcompound/ops.hpp).
#include "petsc_plugin/mat/aijcompound/aijcompound.hpp"

#include <algorithm>

#define Data MatAIJCompoundData

// Values changed on the host: the cached transpose keeps its structure and refreshes its values
// when next used, the device copy re-uploads them (values only).
PetscErrorCode MatAIJCompoundValuesChanged(Mat A)
{
  PetscFunctionBegin;
  if (Data(A)->t) Data(A)->t_stale = true;
  if (Data(A)->dev) A->offloadmask = PETSC_OFFLOAD_CPU; // the device copy uploads them at its next use
  PetscCall(MatDestroy(&Data(A)->inner));               // MatSetValues rebuilds it from the new values
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Values changed on the device: what the host keeps that derives from the values goes stale.
PetscErrorCode MatAIJCompoundDeviceValuesDone(Mat A)
{
  PetscFunctionBegin;
  if (Data(A)->t) Data(A)->t_stale = true;
  PetscCall(MatDestroy(&Data(A)->inner));
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAIJCompoundGetTranspose(Mat A, const ac::Transpose **t)
{
  Mat_SeqAIJCompound *d = Data(A);

  PetscFunctionBegin;
  if (!d->t) {
    PetscCall(PetscInfo(A, "building the explicit compound transpose (%" PetscInt_FMT " blocks)\n", (PetscInt)d->c.nnzb()));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, d->t = std::make_unique<ac::Transpose>(ac::transpose(d->c)));
  } else if (d->t_stale) {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ac::refresh_values(d->c, *d->t));
  }
  d->t_stale = false;
  *t         = d->t.get();
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Every operation tries the device first (device.cpp); the host reference runs where it declines.
static PetscErrorCode MatMult_SeqAIJCompound(Mat A, Vec x, Vec y)
{
  const PetscScalar *xa;
  PetscScalar       *ya;
  PetscBool          done;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundDeviceMult(A, x, nullptr, y, PETSC_FALSE, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJCompoundSyncHost(A));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayWrite(y, &ya));
  ac::mult(Data(A)->c, xa, ya);
  PetscCall(VecRestoreArrayWrite(y, &ya));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(PetscLogFlops(2.0 * Data(A)->c.nnzb() * Data(A)->c.bs * Data(A)->c.bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_SeqAIJCompound(Mat A, Vec x, Vec z, Vec y)
{
  const PetscScalar *xa;
  PetscScalar       *ya, *za;
  PetscBool          done;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundDeviceMult(A, x, z, y, PETSC_FALSE, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJCompoundSyncHost(A));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayPair(z, y, &za, &ya));
  ac::mult_add(Data(A)->c, xa, za, ya);
  PetscCall(VecRestoreArrayPair(z, y, &za, &ya));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(PetscLogFlops(2.0 * Data(A)->c.nnzb() * Data(A)->c.bs * Data(A)->c.bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_SeqAIJCompound(Mat A, Vec x, Vec y)
{
  const ac::Transpose *t;
  const PetscScalar   *xa;
  PetscScalar         *ya;
  PetscBool            done;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundDeviceMult(A, x, nullptr, y, PETSC_TRUE, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJCompoundSyncHost(A));
  PetscCall(MatAIJCompoundGetTranspose(A, &t));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayWrite(y, &ya));
  ac::mult_transpose(*t, xa, ya);
  PetscCall(VecRestoreArrayWrite(y, &ya));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTransposeAdd_SeqAIJCompound(Mat A, Vec x, Vec z, Vec y)
{
  const ac::Transpose *t;
  const PetscScalar   *xa;
  PetscScalar         *ya, *za;
  PetscBool            done;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundDeviceMult(A, x, z, y, PETSC_TRUE, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJCompoundSyncHost(A));
  PetscCall(MatAIJCompoundGetTranspose(A, &t));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayPair(z, y, &za, &ya));
  ac::mult_transpose_add(*t, xa, za, ya);
  PetscCall(VecRestoreArrayPair(z, y, &za, &ya));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetDiagonal_SeqAIJCompound(Mat A, Vec v)
{
  PetscScalar *va;
  PetscBool    done;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundDeviceGetDiagonal(A, v, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJCompoundSyncHost(A));
  PetscCall(VecGetArrayWrite(v, &va));
  ac::diagonal(Data(A)->c, va);
  PetscCall(VecRestoreArrayWrite(v, &va));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatInvertBlockDiagonal_SeqAIJCompound(Mat A, const PetscScalar **values)
{
  Mat_SeqAIJCompound *d = Data(A);
  PetscBool           done;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundDeviceInvertBlockDiagonal(A, &done));
  if (done) {
    *values = d->ibdiag.data();
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatAIJCompoundSyncHost(A));
  d->ibdiag.assign((size_t)d->c.nbrows * d->c.bs * d->c.bs, 0.0);
  try {
    ac::invert_block_diagonal(d->c, d->ibdiag.data());
  } catch (const std::domain_error &e) {
    PetscCheck(!A->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "MatInvertBlockDiagonal on seqcompoundaij: %s", e.what());
    A->factorerrortype = MAT_FACTOR_NUMERIC_ZEROPIVOT;
    PetscCall(PetscInfo(A, "zero pivot: %s\n", e.what()));
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "MatInvertBlockDiagonal on seqcompoundaij: %s", e.what());
  }
  *values = d->ibdiag.data();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatScale_SeqAIJCompound(Mat A, PetscScalar alpha)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundDeviceScale(A, alpha, &done));
  if (done) PetscCall(MatAIJCompoundDeviceValuesDone(A));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJCompoundSyncHost(A));
  ac::scale(Data(A)->c, alpha);
  PetscCall(MatAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatShift_SeqAIJCompound(Mat A, PetscScalar alpha)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundDeviceShift(A, alpha, &done));
  if (done) PetscCall(MatAIJCompoundDeviceValuesDone(A));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJCompoundSyncHost(A));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, ac::shift(Data(A)->c, alpha));
  PetscCall(MatAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Re-stores complex/quaternion entries as real blocks (the structure may no longer hold).
PetscErrorCode MatAIJCompoundToBlockKind(Mat A, const char why[])
{
  Mat_SeqAIJCompound *d = Data(A);

  PetscFunctionBegin;
  if (d->c.kind == ac::EntryKind::block) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJCompoundSyncHost(A));
  PetscCall(MatAIJCompoundDeviceReset(A)); // a new entry size: the device copy is rebuilt at its next use
  PetscCall(PetscInfo(A, "converting %s entries to %dx%d real blocks: %s\n", ac::kind_name(d->c.kind), d->c.bs, d->c.bs, why));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
    const pgk::Csr s = ac::expand(d->c);
    d->c             = ac::from_scalar(pgk::view_of(s), ac::EntryKind::block, d->c.bs);
  });
  d->t.reset();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDiagonalScale_SeqAIJCompound(Mat A, Vec l, Vec r)
{
  const PetscScalar *la = nullptr, *ra = nullptr;
  bool               done = false;
  PetscBool          ondev;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundDeviceDiagonalScale(A, l, r, &ondev));
  if (ondev) PetscCall(MatAIJCompoundDeviceValuesDone(A));
  if (ondev) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJCompoundSyncHost(A));
  if (l) PetscCall(VecGetArrayRead(l, &la));
  if (r) PetscCall(VecGetArrayRead(r, &ra));
  try {
    ac::diagonal_scale(Data(A)->c, la, ra);
    done = true;
  } catch (const std::invalid_argument &) {
    done = false; // l or r not constant within a complex/quaternion block: A unchanged
  }
  if (!done) {
    PetscCall(MatAIJCompoundToBlockKind(A, "MatDiagonalScale with scalings that vary inside a block"));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ac::diagonal_scale(Data(A)->c, la, ra));
  }
  if (r) PetscCall(VecRestoreArrayRead(r, &ra));
  if (l) PetscCall(VecRestoreArrayRead(l, &la));
  PetscCall(MatAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// B = A. B of this type takes A's values where the kind and pattern agree, else A's whole compound
// CSR (its device copy rebuilt at its next use); B of another type gets A's expansion copied in.
static PetscErrorCode MatCopy_SeqAIJCompound(Mat A, Mat B, MatStructure str)
{
  PetscBool same;
  Mat       E;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATSEQAIJCOMPOUND, &same));
  if (!same) {
    PetscCall(MatAIJCompoundExpand(A, &E));
    PetscCall(MatCopy(E, B, str));
    PetscCall(MatDestroy(&E));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(A->rmap->n == B->rmap->n && A->cmap->n == B->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "MatCopy: A is %" PetscInt_FMT " x %" PetscInt_FMT ", B is %" PetscInt_FMT " x %" PetscInt_FMT, A->rmap->n, A->cmap->n, B->rmap->n, B->cmap->n);
  PetscCall(MatAIJCompoundSyncHost(A));
  PetscCall(MatAIJCompoundSyncHost(B));
  const ac::CompoundCsr &ca = Data(A)->c;
  ac::CompoundCsr       &cb = Data(B)->c;
  if (ca.kind == cb.kind && ca.bs == cb.bs && ca.rowptr == cb.rowptr && ca.colidx == cb.colidx) cb.values = ca.values;
  else {
    PetscCall(MatAIJCompoundDeviceReset(B)); // another pattern or entry size
    cb = ca;
    Data(B)->t.reset();
    Data(B)->coo.reset(); // the COO maps were of B's former pattern
  }
  PetscCall(MatAIJCompoundValuesChanged(B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAXPY_SeqAIJCompound(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  PetscBool same;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)X, MATSEQAIJCOMPOUND, &same));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatAXPY on seqcompoundaij needs X of the same type (got %s); convert both to MATSEQAIJ", ((PetscObject)X)->type_name);
  PetscCall(MatAIJCompoundDeviceAXPY(Y, a, X, &same));
  if (same) PetscCall(MatAIJCompoundDeviceValuesDone(Y));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJCompoundSyncHost(Y));
  PetscCall(MatAIJCompoundSyncHost(X));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_SUP, ac::axpy(Data(Y)->c, a, Data(X)->c));
  PetscCall(MatAIJCompoundValuesChanged(Y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetInfo_SeqAIJCompound(Mat A, MatInfoType flag, MatInfo *info)
{
  const ac::CompoundCsr &c = Data(A)->c;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->block_size   = c.bs;
  info->nz_used      = (PetscLogDouble)c.nnzb() * c.bs * c.bs; // scalars of the expanded matrix
  info->nz_allocated = info->nz_used;
  info->memory       = (PetscLogDouble)(c.values.size() * sizeof(double) + (c.colidx.size() + c.rowptr.size()) * sizeof(PetscInt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_SeqAIJCompound(Mat A, PetscViewer viewer)
{
  const ac::CompoundCsr &c = Data(A)->c;
  PetscBool              iascii;
  PetscViewerFormat      format;
  Mat                    B;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (iascii && (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL)) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "aijcompound: entry kind %s (-mat_aijcompound_entry %s), bs %d, %d scalars per entry\n", ac::kind_name(c.kind), MatAIJCompoundEntries[Data(A)->entry_option], c.bs, c.esize()));
    PetscCall(PetscViewerASCIIPrintf(viewer, "block rows %" PetscInt_FMT ", block columns %" PetscInt_FMT ", stored blocks %" PetscInt_FMT ", layout CSR (host)\n", (PetscInt)c.nbrows, (PetscInt)c.nbcols, (PetscInt)c.nnzb()));
    PetscCall(PetscViewerASCIIPrintf(viewer, "explicit transpose: %s\n", Data(A)->t ? "built" : "not built"));
    PetscCall(MatAIJCompoundDeviceView(A, viewer));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // Any other viewer or format: the expanded scalar matrix.
  PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatView(B, viewer));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatAIJCompoundSetComputeOps(Mat A)
{
  A->ops->mult                = MatMult_SeqAIJCompound;
  A->ops->multadd             = MatMultAdd_SeqAIJCompound;
  A->ops->multtranspose       = MatMultTranspose_SeqAIJCompound;
  A->ops->multtransposeadd    = MatMultTransposeAdd_SeqAIJCompound;
  A->ops->getdiagonal         = MatGetDiagonal_SeqAIJCompound;
  A->ops->invertblockdiagonal = MatInvertBlockDiagonal_SeqAIJCompound;
  A->ops->scale               = MatScale_SeqAIJCompound;
  A->ops->shift               = MatShift_SeqAIJCompound;
  A->ops->diagonalscale       = MatDiagonalScale_SeqAIJCompound;
  A->ops->axpy                = MatAXPY_SeqAIJCompound;
  A->ops->getinfo             = MatGetInfo_SeqAIJCompound;
  A->ops->view                = MatView_SeqAIJCompound;
  A->ops->norm                = MatNorm_AIJCompound;
  A->ops->copy                = MatCopy_SeqAIJCompound;
  A->ops->load                = MatLoad_AIJCompound;
}

// Mat aijcompound under MPI: the operations, as MATMPIAIJ composes them, through the public Mat
// interface of the two sequential blocks on local views of the vectors (VecGetLocalVector: no
// copy, the views follow the vectors' type, host or device).
#include "petsc_plugin/mat/aijcompound/mpi.hpp"

#define Data MatMPIAIJCompoundData

// y = Ad x + (z) while the ghosts arrive, then y += Ao lvec (MATMPIAIJ's overlap). z may be y or null.
// On the device the local product runs on Ad's side stream, launched before the scatter: without
// GPU-aware MPI, PETSc's scatter stages the halo through the host and synchronizes its own stream
// (pack, copy, MPI, copy, unpack), so on one stream the device would idle through all of that.
static PetscErrorCode MultAdd(Mat A, Vec x, Vec z, Vec y)
{
  Mat_MPIAIJCompound *d  = Data(A);
  Vec                 xl = nullptr, yl = nullptr, zl = nullptr;
  PetscBool           forked = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundGetLocalVec(d->xl, x, PETSC_TRUE, &xl));
  PetscCall(MatAIJCompoundGetLocalVec(d->yl, y, PETSC_FALSE, &yl));
  if (z && z != y && z != x) PetscCall(MatAIJCompoundGetLocalVec(d->zl, z, PETSC_TRUE, &zl));
  Vec zsame = !z ? nullptr : z == y ? yl : z == x ? xl : zl; // z's local view
  PetscCall(MatAIJCompoundDeviceMultForked(d->Ad, xl, zsame, yl, &forked));
  PetscCall(VecScatterBegin(d->Mvctx, x, d->lvec, INSERT_VALUES, SCATTER_FORWARD));
  if (!forked) {
    if (!zsame) PetscCall(MatMult(d->Ad, xl, yl));
    else PetscCall(MatMultAdd(d->Ad, xl, zsame, yl));
  }
  if (zl) PetscCall(MatAIJCompoundRestoreLocalVec(d->zl, z, PETSC_TRUE, &zl));
  PetscCall(MatAIJCompoundRestoreLocalVec(d->xl, x, PETSC_TRUE, &xl));
  PetscCall(VecScatterEnd(d->Mvctx, x, d->lvec, INSERT_VALUES, SCATTER_FORWARD));
  if (forked) PetscCall(MatAIJCompoundDeviceJoin(d->Ad));
  PetscCall(MatMultAdd(d->Ao, d->lvec, yl, yl));
  PetscCall(MatAIJCompoundRestoreLocalVec(d->yl, y, PETSC_FALSE, &yl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_MPIAIJCompound(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MultAdd(A, x, nullptr, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_MPIAIJCompound(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MultAdd(A, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// y = Ad^T x + (z) locally, lvec = Ao^T x, then the reverse scatter adds lvec into the owners' y.
// Deterministic: each sequential transpose product is (explicit transpose, no atomics) and the
// order in which the reverse scatter adds other ranks' contributions is fixed for a given layout.
static PetscErrorCode MultTransposeAdd(Mat A, Vec x, Vec z, Vec y)
{
  Mat_MPIAIJCompound *d  = Data(A);
  Vec                 xl = nullptr, yl = nullptr, zl = nullptr;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundGetLocalVec(d->xl, x, PETSC_TRUE, &xl));
  PetscCall(MatMultTranspose(d->Ao, xl, d->lvec));
  PetscCall(MatAIJCompoundGetLocalVec(d->yl, y, PETSC_FALSE, &yl));
  if (!z) PetscCall(MatMultTranspose(d->Ad, xl, yl));
  else if (z == y) PetscCall(MatMultTransposeAdd(d->Ad, xl, yl, yl));
  else if (z == x) PetscCall(MatMultTransposeAdd(d->Ad, xl, xl, yl));
  else {
    PetscCall(MatAIJCompoundGetLocalVec(d->zl, z, PETSC_TRUE, &zl));
    PetscCall(MatMultTransposeAdd(d->Ad, xl, zl, yl));
    PetscCall(MatAIJCompoundRestoreLocalVec(d->zl, z, PETSC_TRUE, &zl));
  }
  PetscCall(MatAIJCompoundRestoreLocalVec(d->yl, y, PETSC_FALSE, &yl));
  PetscCall(MatAIJCompoundRestoreLocalVec(d->xl, x, PETSC_TRUE, &xl));
  PetscCall(VecScatterBegin(d->Mvctx, d->lvec, y, ADD_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(d->Mvctx, d->lvec, y, ADD_VALUES, SCATTER_REVERSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_MPIAIJCompound(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MultTransposeAdd(A, x, nullptr, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTransposeAdd_MPIAIJCompound(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MultTransposeAdd(A, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The diagonal lies in the diagonal block only when the row and column partitions agree.
static PetscErrorCode CheckSquareBlocks(Mat A, const char op[])
{
  PetscFunctionBegin;
  PetscCheck(A->rmap->N == A->cmap->N, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "%s on mpicompoundaij needs a square matrix", op);
  PetscCheck(A->rmap->rstart == A->cmap->rstart && A->rmap->rend == A->cmap->rend, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s on mpicompoundaij: the row partition must equal the column partition", op);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetDiagonal_MPIAIJCompound(Mat A, Vec v)
{
  Mat_MPIAIJCompound *d  = Data(A);
  Vec                 vl = nullptr;

  PetscFunctionBegin;
  PetscCall(CheckSquareBlocks(A, "MatGetDiagonal"));
  PetscCall(MatAIJCompoundGetLocalVec(d->yl, v, PETSC_FALSE, &vl));
  PetscCall(MatGetDiagonal(d->Ad, vl));
  PetscCall(MatAIJCompoundRestoreLocalVec(d->yl, v, PETSC_FALSE, &vl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The diagonal block's inverse blocks (owned by it); a zero pivot is reported as the block reports it.
static PetscErrorCode MatInvertBlockDiagonal_MPIAIJCompound(Mat A, const PetscScalar **values)
{
  Mat_MPIAIJCompound *d = Data(A);
  MatFactorError      err;

  PetscFunctionBegin;
  PetscCall(CheckSquareBlocks(A, "MatInvertBlockDiagonal"));
  PetscCall(MatSetErrorIfFailure(d->Ad, A->erroriffailure));
  PetscCall(MatFactorClearError(d->Ad));
  PetscCall(MatInvertBlockDiagonal(d->Ad, values));
  PetscCall(MatFactorGetError(d->Ad, &err));
  A->factorerrortype = err;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatScale_MPIAIJCompound(Mat A, PetscScalar a)
{
  PetscFunctionBegin;
  PetscCall(MatScale(Data(A)->Ad, a));
  PetscCall(MatScale(Data(A)->Ao, a));
  PetscCall(MatMPIAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatShift_MPIAIJCompound(Mat A, PetscScalar a)
{
  PetscFunctionBegin;
  PetscCall(CheckSquareBlocks(A, "MatShift"));
  PetscCall(MatShift(Data(A)->Ad, a));
  PetscCall(MatMPIAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Whether v (null: no scaling) is constant inside each block of bs scalars (exactly, as the
// sequential type requires to keep complex/quaternion entries).
static PetscErrorCode ConstantInBlocks(Vec v, PetscInt bs, int *constant)
{
  const PetscScalar *a;
  PetscInt           n;

  PetscFunctionBegin;
  *constant = 1;
  if (!v) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetArrayRead(v, &a));
  for (PetscInt i = 0; i < n && *constant; ++i) *constant = a[i] == a[i - i % bs];
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A = diag(l) A diag(r): l on both blocks; r on the diagonal block, its ghosts on the other.
// Complex/quaternion entries become real blocks on every rank first where a scaling varies
// inside a block on some rank, so the kind stays the same everywhere.
static PetscErrorCode MatDiagonalScale_MPIAIJCompound(Mat A, Vec l, Vec r)
{
  Mat_MPIAIJCompound *d  = Data(A);
  Vec                 ll = nullptr, rl = nullptr;
  int                 keeps[2];

  PetscFunctionBegin;
  if (d->kind != ac::EntryKind::block) {
    PetscCall(ConstantInBlocks(l, A->rmap->bs, &keeps[0]));
    PetscCall(ConstantInBlocks(r, A->cmap->bs, &keeps[1]));
    keeps[0] = keeps[0] && keeps[1];
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, keeps, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)A)));
    if (!keeps[0]) PetscCall(MatMPIAIJCompoundToBlockKind(A, "MatDiagonalScale with scalings that vary inside a block"));
  }
  if (r) {
    PetscCall(VecScatterBegin(d->Mvctx, r, d->lvec, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(d->Mvctx, r, d->lvec, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(MatAIJCompoundGetLocalVec(d->xl, r, PETSC_TRUE, &rl));
  }
  if (l && l == r) ll = rl;
  else if (l) PetscCall(MatAIJCompoundGetLocalVec(d->yl, l, PETSC_TRUE, &ll));
  PetscCall(MatDiagonalScale(d->Ad, ll, rl));
  PetscCall(MatDiagonalScale(d->Ao, ll, r ? d->lvec : NULL));
  if (l && l != r) PetscCall(MatAIJCompoundRestoreLocalVec(d->yl, l, PETSC_TRUE, &ll));
  if (r) PetscCall(MatAIJCompoundRestoreLocalVec(d->xl, r, PETSC_TRUE, &rl));
  PetscCall(MatMPIAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Y += a X. Block by block when X has the same kind and ghosts on every rank and the caller says
// SAME_NONZERO_PATTERN; otherwise through MATMPIAIJ (any pattern), the entry kind chosen again.
static PetscErrorCode MatAXPY_MPIAIJCompound(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  Mat_MPIAIJCompound *dy = Data(Y), *dx = Data(X);
  int                 same = dy->kind == dx->kind && dy->garray == dx->garray;
  Mat                 TY, TX;

  PetscFunctionBegin;
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)Y)));
  if (same && str == SAME_NONZERO_PATTERN) {
    PetscCall(MatAXPY(dy->Ad, a, dx->Ad, SAME_NONZERO_PATTERN));
    PetscCall(MatAXPY(dy->Ao, a, dx->Ao, SAME_NONZERO_PATTERN));
  } else {
    PetscCall(PetscInfo(Y, "MatAXPY through MATMPIAIJ (%s)\n", same ? "pattern not known to be the same" : "different entry kinds or ghost blocks"));
    PetscCall(MatMPIAIJCompoundExpand(Y, &TY));
    PetscCall(MatMPIAIJCompoundExpand(X, &TX));
    PetscCall(MatAXPY(TY, a, TX, str == SAME_NONZERO_PATTERN ? DIFFERENT_NONZERO_PATTERN : str));
    PetscCall(MatMPIAIJCompoundBuild(Y, TY, dy->entry_option));
    PetscCall(MatDestroy(&TX));
    PetscCall(MatDestroy(&TY));
  }
  PetscCall(MatMPIAIJCompoundValuesChanged(Y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetInfo_MPIAIJCompound(Mat A, MatInfoType flag, MatInfo *info)
{
  MatInfo        id, io;
  PetscLogDouble v[4];

  PetscFunctionBegin;
  PetscCall(MatGetInfo(Data(A)->Ad, MAT_LOCAL, &id));
  PetscCall(MatGetInfo(Data(A)->Ao, MAT_LOCAL, &io));
  v[0] = id.nz_used + io.nz_used;
  v[1] = id.nz_allocated + io.nz_allocated;
  v[2] = id.memory + io.memory;
  v[3] = id.mallocs + io.mallocs;
  if (flag == MAT_GLOBAL_MAX) PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, v, 4, MPIU_PETSCLOGDOUBLE, MPI_MAX, PetscObjectComm((PetscObject)A)));
  else if (flag == MAT_GLOBAL_SUM) PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, v, 4, MPIU_PETSCLOGDOUBLE, MPI_SUM, PetscObjectComm((PetscObject)A)));
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->block_size   = A->rmap->bs;
  info->nz_used      = v[0];
  info->nz_allocated = v[1];
  info->memory       = v[2];
  info->mallocs      = v[3];
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Per rank: block rows, stored blocks of both blocks, ghost blocks (and with ::ascii_info_detail
// each block's own view).
static PetscErrorCode ViewInfo(Mat A, PetscViewer viewer, PetscViewerFormat format)
{
  Mat_MPIAIJCompound *d  = Data(A);
  const PetscInt      bs = A->rmap->bs;
  MatInfo             id, io;
  PetscMPIInt         rank;
  PetscViewer         sv;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
  PetscCall(MatGetInfo(d->Ad, MAT_LOCAL, &id));
  PetscCall(MatGetInfo(d->Ao, MAT_LOCAL, &io));
  PetscCall(PetscViewerASCIIPrintf(viewer, "aijcompound (MPI): entry kind %s (-mat_aijcompound_entry %s) on every rank, bs %" PetscInt_FMT ", %d scalars per entry\n", ac::kind_name(d->kind), MatAIJCompoundEntries[d->entry_option], bs,
                                   ac::entry_size(d->kind, (int)bs)));
  PetscCall(PetscViewerASCIIPushSynchronized(viewer));
  PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "[%d] block rows %" PetscInt_FMT ", diagonal block %.0f stored blocks, off-diagonal block %.0f stored blocks in %" PetscInt_FMT " ghost block columns\n", rank, A->rmap->n / bs,
                                               (double)(id.nz_used / (bs * bs)), (double)(io.nz_used / (bs * bs)), (PetscInt)d->garray.size()));
  PetscCall(PetscViewerFlush(viewer));
  PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  if (format != PETSC_VIEWER_ASCII_INFO_DETAIL) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerGetSubViewer(viewer, PETSC_COMM_SELF, &sv));
  PetscCall(PetscViewerPushFormat(sv, PETSC_VIEWER_ASCII_INFO));
  PetscCall(PetscViewerASCIIPrintf(sv, "[%d] diagonal block:\n", rank));
  PetscCall(MatView(d->Ad, sv));
  PetscCall(PetscViewerASCIIPrintf(sv, "[%d] off-diagonal block:\n", rank));
  PetscCall(MatView(d->Ao, sv));
  PetscCall(PetscViewerPopFormat(sv));
  PetscCall(PetscViewerRestoreSubViewer(viewer, PETSC_COMM_SELF, &sv));
  PetscCall(PetscViewerFlush(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_MPIAIJCompound(Mat A, PetscViewer viewer)
{
  PetscBool         iascii;
  PetscViewerFormat format;
  Mat               B;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (iascii && (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL)) {
    PetscCall(ViewInfo(A, viewer, format));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // Any other viewer or format: the expanded matrix.
  PetscCall(MatMPIAIJCompoundExpand(A, &B));
  PetscCall(MatView(B, viewer));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// B = A: block by block where B is of this type with A's entry kind and ghost blocks on every rank;
// otherwise B is rebuilt from A's expansion (B of this type) or gets the expansion copied in.
static PetscErrorCode MatCopy_MPIAIJCompound(Mat A, Mat B, MatStructure str)
{
  Mat_MPIAIJCompound *da = Data(A);
  PetscBool           ours;
  int                 same;
  Mat                 E;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATMPIAIJCOMPOUND, &ours));
  same = ours && da->kind == Data(B)->kind && da->garray == Data(B)->garray;
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)A)));
  if (same) {
    PetscCall(MatCopy(da->Ad, Data(B)->Ad, str));
    PetscCall(MatCopy(da->Ao, Data(B)->Ao, str));
  } else {
    PetscCall(MatMPIAIJCompoundExpand(A, &E));
    if (ours) PetscCall(MatMPIAIJCompoundBuild(B, E, Data(B)->entry_option));
    else PetscCall(MatCopy(E, B, str));
    PetscCall(MatDestroy(&E));
  }
  if (ours) PetscCall(MatMPIAIJCompoundValuesChanged(B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The diagonal block itself (PCBJACOBI, PCASM-like users get a MATSEQAIJCOMPOUND).
static PetscErrorCode MatGetDiagonalBlock_MPIAIJCompound(Mat A, Mat *a)
{
  PetscFunctionBegin;
  *a = Data(A)->Ad;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatMPIAIJCompoundSetComputeOps(Mat A)
{
  A->ops->mult                = MatMult_MPIAIJCompound;
  A->ops->multadd             = MatMultAdd_MPIAIJCompound;
  A->ops->multtranspose       = MatMultTranspose_MPIAIJCompound;
  A->ops->multtransposeadd    = MatMultTransposeAdd_MPIAIJCompound;
  A->ops->getdiagonal         = MatGetDiagonal_MPIAIJCompound;
  A->ops->invertblockdiagonal = MatInvertBlockDiagonal_MPIAIJCompound;
  A->ops->scale               = MatScale_MPIAIJCompound;
  A->ops->shift               = MatShift_MPIAIJCompound;
  A->ops->diagonalscale       = MatDiagonalScale_MPIAIJCompound;
  A->ops->axpy                = MatAXPY_MPIAIJCompound;
  A->ops->getinfo             = MatGetInfo_MPIAIJCompound;
  A->ops->view                = MatView_MPIAIJCompound;
  A->ops->getdiagonalblock    = MatGetDiagonalBlock_MPIAIJCompound;
  A->ops->norm                = MatNorm_AIJCompound;
  A->ops->copy                = MatCopy_MPIAIJCompound;
  A->ops->load                = MatLoad_AIJCompound;
}

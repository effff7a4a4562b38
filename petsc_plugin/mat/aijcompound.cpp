// Mat aijcompound (issue 10), host path: a sequential matrix whose entries are compound (real
// k x k blocks, complex numbers as 2x2 blocks, quaternions as 4x4 blocks), stored as the compound
// CSR of src/aijcompound/ and multiplied by its serial reference. The type is built by MatConvert
// from an assembled MATSEQAIJ / MATSEQBAIJ / MATSEQAIJCUSPARSE (its host copy); it converts back to
// MATSEQAIJ (and through it to any type). Assembly with MatSetValues, the device kernels, the tuner
// and MPI are not written yet.
#include "petsc_plugin/sys/csr_access.hpp"
#include "src/aijcompound/ops.hpp"

#include <petsc/private/matimpl.h>

#include <algorithm>
#include <memory>

namespace ac = pgk::aijcompound;

static const char *const MatAIJCompoundEntries[] = {"auto", "block", "complex", "quaternion", "MatAIJCompoundEntry", "MAT_AIJCOMPOUND_ENTRY_", NULL};
enum { ENTRY_AUTO, ENTRY_BLOCK, ENTRY_COMPLEX, ENTRY_QUATERNION };

struct Mat_SeqAIJCompound {
  ac::CompoundCsr                c;
  std::unique_ptr<ac::Transpose> t;                         // explicit transpose, built at the first MatMultTranspose
  bool                           t_stale = false;           // values changed since t was built: refresh_values
  std::vector<double>            ibdiag;                    // MatInvertBlockDiagonal's output, owned here
  PetscInt                       entry_option = ENTRY_AUTO; // what -mat_aijcompound_entry asked for
};

static PetscErrorCode MatConvertFrom_SeqAIJCompound(Mat, MatType, MatReuse, Mat *);

static Mat_SeqAIJCompound *Data(Mat A)
{
  return (Mat_SeqAIJCompound *)A->data;
}

// Values changed: the cached transpose keeps its structure and refreshes its values when next used.
static PetscErrorCode MatAIJCompoundValuesChanged(Mat A)
{
  PetscFunctionBegin;
  if (Data(A)->t) Data(A)->t_stale = true;
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

static PetscErrorCode MatMult_SeqAIJCompound(Mat A, Vec x, Vec y)
{
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
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

  PetscFunctionBegin;
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

  PetscFunctionBegin;
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

  PetscFunctionBegin;
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

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(v, &va));
  ac::diagonal(Data(A)->c, va);
  PetscCall(VecRestoreArrayWrite(v, &va));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatInvertBlockDiagonal_SeqAIJCompound(Mat A, const PetscScalar **values)
{
  Mat_SeqAIJCompound *d = Data(A);

  PetscFunctionBegin;
  d->ibdiag.assign((size_t)d->c.nbrows * d->c.bs * d->c.bs, 0.0);
  try {
    ac::invert_block_diagonal(d->c, d->ibdiag.data());
  } catch (const std::domain_error &e) {
    PetscCheck(!A->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "MatInvertBlockDiagonal on seqaijcompound: %s", e.what());
    A->factorerrortype = MAT_FACTOR_NUMERIC_ZEROPIVOT;
    PetscCall(PetscInfo(A, "zero pivot: %s\n", e.what()));
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "MatInvertBlockDiagonal on seqaijcompound: %s", e.what());
  }
  *values = d->ibdiag.data();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatScale_SeqAIJCompound(Mat A, PetscScalar alpha)
{
  PetscFunctionBegin;
  ac::scale(Data(A)->c, alpha);
  PetscCall(MatAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatShift_SeqAIJCompound(Mat A, PetscScalar alpha)
{
  PetscFunctionBegin;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, ac::shift(Data(A)->c, alpha));
  PetscCall(MatAIJCompoundValuesChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Re-stores complex/quaternion entries as real blocks (the structure may no longer hold).
static PetscErrorCode MatAIJCompoundToBlockKind(Mat A, const char why[])
{
  Mat_SeqAIJCompound *d = Data(A);

  PetscFunctionBegin;
  if (d->c.kind == ac::EntryKind::block) PetscFunctionReturn(PETSC_SUCCESS);
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

  PetscFunctionBegin;
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

static PetscErrorCode MatAXPY_SeqAIJCompound(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  PetscBool same;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)X, MATSEQAIJCOMPOUND, &same));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatAXPY on seqaijcompound needs X of the same type (got %s); convert both to MATSEQAIJ", ((PetscObject)X)->type_name);
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
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // Any other viewer or format: the expanded scalar matrix.
  PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatView(B, viewer));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SeqAIJCompound(Mat A)
{
  PetscFunctionBegin;
  delete Data(A);
  A->data = nullptr;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_seqaijcompound_seqaij_C", NULL));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetUp_SeqAIJCompound(Mat A)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Mat seqaijcompound cannot be assembled with MatSetValues yet: assemble a MATSEQAIJ or MATSEQBAIJ with a block size and MatConvert() it to MATSEQAIJCOMPOUND");
}

// The expanded scalar matrix as a new MATSEQAIJ.
static PetscErrorCode MatAIJCompoundExpand(Mat A, Mat *B)
{
  pgk::Csr s;

  PetscFunctionBegin;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, s = ac::expand(Data(A)->c));
  PetscCall(MatCreate(PETSC_COMM_SELF, B));
  PetscCall(MatSetSizes(*B, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(*B, A, A));
  PetscCall(MatSetType(*B, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(*B, s.rowptr.data(), s.colidx.data(), s.values.data()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatConvert(A, MATSEQAIJ or any other type): expand, then PETSc converts the MATSEQAIJ further.
static PetscErrorCode MatConvert_SeqAIJCompound_Any(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat       B, C;
  PetscBool isaij;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundExpand(A, &B));
  PetscCall(PetscStrcmpAny(type, &isaij, MATSEQAIJ, MATAIJ, ""));
  if (!isaij) {
    PetscCall(MatConvert(B, type, MAT_INITIAL_MATRIX, &C));
    PetscCall(MatDestroy(&B));
    B = C;
  }
  if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(A, &B));
  else if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(B, *newmat, DIFFERENT_NONZERO_PATTERN));
    PetscCall(MatDestroy(&B));
  } else *newmat = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDuplicate_SeqAIJCompound(Mat A, MatDuplicateOption op, Mat *B)
{
  PetscFunctionBegin;
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), B));
  PetscCall(MatSetSizes(*B, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(*B, A, A));
  PetscCall(MatSetType(*B, MATSEQAIJCOMPOUND));
  Data(*B)->c            = Data(A)->c;
  Data(*B)->entry_option = Data(A)->entry_option;
  if (op == MAT_DO_NOT_COPY_VALUES) std::fill(Data(*B)->c.values.begin(), Data(*B)->c.values.end(), 0.0);
  PetscCall(PetscLayoutSetUp((*B)->rmap));
  PetscCall(PetscLayoutSetUp((*B)->cmap));
  (*B)->preallocated = PETSC_TRUE;
  (*B)->assembled    = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void MatAIJCompoundSetOps(Mat A)
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
  A->ops->destroy             = MatDestroy_SeqAIJCompound;
  A->ops->setup               = MatSetUp_SeqAIJCompound;
  A->ops->duplicate           = MatDuplicate_SeqAIJCompound;
  A->ops->convert             = MatConvert_SeqAIJCompound_Any;
  A->ops->convertfrom         = MatConvertFrom_SeqAIJCompound;
}

// The entry kind of a host CSR with block size bs from -mat_aijcompound_entry.
static PetscErrorCode MatAIJCompoundChooseKind(Mat A, const pgk::CsrView &s, PetscInt bs, PetscInt option, ac::EntryKind *kind)
{
  PetscFunctionBegin;
  *kind = ac::EntryKind::block;
  if (option == ENTRY_AUTO) {
    if (bs == 2 && ac::detect_complex(s)) *kind = ac::EntryKind::complex;
    if (bs == 4 && ac::detect_quaternion(s)) *kind = ac::EntryKind::quaternion;
  } else if (option == ENTRY_COMPLEX) {
    PetscCheck(bs == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-mat_aijcompound_entry complex needs block size 2, the matrix has %" PetscInt_FMT, bs);
    PetscCheck(ac::detect_complex(s), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-mat_aijcompound_entry complex: not every stored 2x2 block has the complex form [a -b; b a]; use -mat_aijcompound_entry auto or block");
    *kind = ac::EntryKind::complex;
  } else if (option == ENTRY_QUATERNION) {
    PetscCheck(bs == 4, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-mat_aijcompound_entry quaternion needs block size 4, the matrix has %" PetscInt_FMT, bs);
    PetscCheck(ac::detect_quaternion(s), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "-mat_aijcompound_entry quaternion: not every stored 4x4 block has the quaternion form L(q) (left multiplication, Hamilton product); use -mat_aijcompound_entry auto or block");
    *kind = ac::EntryKind::quaternion;
  }
  PetscCall(PetscInfo(A, "aijcompound: bs %" PetscInt_FMT ", entry kind %s\n", bs, ac::kind_name(*kind)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The compound CSR of A (any sequential type MatConvert takes to MATSEQAIJ; AIJ and AIJCUSPARSE read directly).
static PetscErrorCode MatAIJCompoundFromMat(Mat A, PetscInt bs, PetscInt option, ac::CompoundCsr *c)
{
  Mat           S = nullptr;
  PetscBool     direct;
  PgkMatCSR     csr;
  ac::EntryKind kind;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &direct, MATSEQAIJ, MATSEQAIJCUSPARSE, ""));
  if (!direct) PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &S));
  PetscCall(PgkMatGetCSR(S ? S : A, PGK_MEM_HOST, &csr));
  PetscCall(MatAIJCompoundChooseKind(A, csr.csr, bs, option, &kind));
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, *c = ac::from_scalar(csr.csr, kind, (int)bs));
  PetscCall(PgkMatRestoreCSR(S ? S : A, &csr));
  PetscCall(MatDestroy(&S));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatConvert(A, MATSEQAIJCOMPOUND or MATAIJCOMPOUND, ...) from any assembled sequential matrix.
static PetscErrorCode MatConvertFrom_SeqAIJCompound(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscInt    bs, option = ENTRY_AUTO;
  PetscMPIInt size;
  Mat         B;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Mat aijcompound: MPI not yet supported (%d ranks); use MATAIJ in parallel", size);
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCheck(bs >= 2 && bs <= 8, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "MatConvert to %s needs a block size 2..8 (MatSetBlockSize(), or BAIJ), the matrix has block size %" PetscInt_FMT, type, bs);
  PetscCheck(A->rmap->n % bs == 0 && A->cmap->n % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "MatConvert to %s: sizes %" PetscInt_FMT " x %" PetscInt_FMT " are not multiples of the block size %" PetscInt_FMT, type, A->rmap->n, A->cmap->n, bs);
  PetscOptionsBegin(PETSC_COMM_SELF, ((PetscObject)A)->prefix, "Mat aijcompound options", "Mat");
  PetscCall(PetscOptionsEList("-mat_aijcompound_entry", "entry kind: auto (quaternion for bs 4, complex for bs 2 where every block has the form, else block), block, complex, quaternion", "MATSEQAIJCOMPOUND", MatAIJCompoundEntries, 4,
                              MatAIJCompoundEntries[option], &option, NULL));
  PetscOptionsEnd();

  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &B));
  PetscCall(MatSetSizes(B, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizes(B, bs, bs));
  PetscCall(MatSetType(B, MATSEQAIJCOMPOUND));
  PetscCall(MatAIJCompoundFromMat(A, bs, option, &Data(B)->c));
  Data(B)->entry_option = option;
  PetscCall(PetscLayoutSetUp(B->rmap));
  PetscCall(PetscLayoutSetUp(B->cmap));
  B->preallocated = PETSC_TRUE;
  B->assembled    = PETSC_TRUE;
  if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(A, &B));
  else if (reuse == MAT_REUSE_MATRIX) PetscCall(MatHeaderReplace(*newmat, &B));
  else *newmat = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   MATSEQAIJCOMPOUND - "seqaijcompound": a sequential sparse matrix whose stored entries are compound
   (issue 10): real k x k blocks (k = 2..8), complex numbers stored as 2 scalars (the 2x2 real
   block [a -b; b a]) or quaternions stored as 4 scalars (the 4x4 left-multiplication block of the
   Hamilton product), in a compound CSR. `MATAIJCOMPOUND` ("aijcompound") is `MATSEQAIJCOMPOUND`
   on one rank; on more ranks it is an error (MPI not yet supported).

   Options Database Key:
.  -mat_aijcompound_entry <auto> - auto: quaternion for block size 4 and complex for block size 2 where every
                                   stored block has that form, else real blocks; block; complex; quaternion
                                   (an error when the form does not hold)

   Notes:
   Built by conversion: `MatConvert(A, MATAIJCOMPOUND, MAT_INITIAL_MATRIX, &C)` (or `MAT_INPLACE_MATRIX`)
   from an assembled `MATSEQAIJ`, `MATSEQBAIJ` or `MATSEQAIJCUSPARSE` (its host copy) whose block size
   (`MatSetBlockSize()`, `MatGetBlockSize()`) is 2..8. A block is stored where any of its scalars is.
   `MatConvert()` to `MATSEQAIJ` (or through it to any other type) gives the expanded matrix back.

   Operations, on the host through the serial reference of src/aijcompound/: `MatMult()`,
   `MatMultAdd()`, `MatMultTranspose()`, `MatMultTransposeAdd()` (an explicit compound transpose
   built at the first use and kept; new values refresh it), `MatGetDiagonal()`,
   `MatInvertBlockDiagonal()` (so `PCJACOBI`, `PCPBJACOBI` and `PCNONE` work), `MatScale()`,
   `MatShift()`, `MatDiagonalScale()` (complex and quaternion entries become real blocks when the
   scalings vary inside a block), `MatAXPY()` (same kind and pattern), `MatDuplicate()`,
   `MatGetInfo()`, `MatView()` (`-mat_view ::ascii_info`: entry kind, block size, block rows, stored
   blocks, layout; other formats view the expanded matrix). Anything else (factorizations, so
   `PCILU` and `PCLU`, `MatGetRow()`, `MatProduct`) is PETSc's "no support" error: convert to `MATSEQAIJ`.

   Known limitation: PETSc finds a factorization by type-name prefix; the default solver lookup gets
   this type's error, but an explicit `-pc_factor_mat_solver_type petsc` reaches `MATSEQAIJ`'s
   factorization on the wrong data (a crash): do not name a solver type for this matrix.

   Not yet: assembly with `MatSetValues()` (so `-mat_type aijcompound` through `MatSetFromOptions()`
   and `-dm_mat_type aijcompound` give an error naming `MatConvert()`), COO assembly, the device
   kernels and layouts, the tuner, MPI.

   Level: intermediate

.seealso: `MatConvert()`, `MATSEQAIJ`, `MATSEQBAIJ`, `PCPBJACOBI`
M*/
PETSC_EXTERN PetscErrorCode MatCreate_SeqAIJCompound(Mat A)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Mat seqaijcompound needs a communicator of one rank (%d ranks): Mat aijcompound: MPI not yet supported", size);
  A->data = new Mat_SeqAIJCompound();
  MatAIJCompoundSetOps(A);
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_seqaijcompound_seqaij_C", MatConvert_SeqAIJCompound_Any));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATSEQAIJCOMPOUND));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode MatCreate_MPIAIJCompound(Mat A)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Mat aijcompound: MPI not yet supported (mpiaijcompound); use MATAIJ in parallel, or one rank");
}

// PETSc picks a factorization by type name prefix, so without this "seqaijcompound" would get
// MATSEQAIJ's (on the wrong data): every factorization is a clear error instead.
static PetscErrorCode MatGetFactor_SeqAIJCompound(Mat A, MatFactorType ftype, Mat *F)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Mat seqaijcompound has no %s factorization (PCLU, PCILU, PCCHOLESKY, PCICC): use PCJACOBI, PCPBJACOBI or PCNONE, or MatConvert() to MATSEQAIJ", MatFactorTypes[ftype]);
}

PetscErrorCode PgkRegisterMatAIJCompound(void)
{
  PetscFunctionBegin;
  for (MatFactorType f : {MAT_FACTOR_LU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ILU, MAT_FACTOR_ICC, MAT_FACTOR_ILUDT, MAT_FACTOR_QR}) PetscCall(MatSolverTypeRegister(MATSOLVERPETSC, MATSEQAIJCOMPOUND, f, MatGetFactor_SeqAIJCompound));
  PetscCall(MatRegister(MATSEQAIJCOMPOUND, MatCreate_SeqAIJCompound));
  PetscCall(MatRegister(MATMPIAIJCOMPOUND, MatCreate_MPIAIJCompound));
  PetscCall(MatRegisterRootName(MATAIJCOMPOUND, MATSEQAIJCOMPOUND, MATMPIAIJCOMPOUND));
  PetscFunctionReturn(PETSC_SUCCESS);
}

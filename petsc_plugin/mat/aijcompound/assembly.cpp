// Mat aijcompound: assembly through MatSetValues(Blocked) (so -mat_type aijcompound with
// MatSetFromOptions works). Values go into an inner MATSEQAIJ with the same sizes and block size;
// MAT_FINAL_ASSEMBLY converts it to the compound CSR. The inner matrix is kept for values-only
// re-assembly; an operation that changes the compound values in place (MatScale, ...) drops it,
// and the next MatSetValues rebuilds it from the expanded compound values.
#include "petsc_plugin/mat/aijcompound/aijcompound.hpp"
#include "petsc_plugin/sys/csr_access.hpp"

#define Data MatAIJCompoundData

// The inner MATSEQAIJ, created at the first need: empty (MatSetUp's default preallocation) before
// the first assembly, else holding the expanded compound values.
static PetscErrorCode MatAIJCompoundGetInner(Mat A, Mat *inner)
{
  Mat_SeqAIJCompound *d = Data(A);

  PetscFunctionBegin;
  if (!d->inner) {
    PetscCall(PetscLayoutSetUp(A->rmap));
    PetscCall(PetscLayoutSetUp(A->cmap));
    if (d->c.nnzb() > 0) PetscCall(MatAIJCompoundExpand(A, &d->inner));
    else {
      PetscCall(MatCreate(PETSC_COMM_SELF, &d->inner));
      PetscCall(MatSetSizes(d->inner, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
      PetscCall(MatSetBlockSizesFromMats(d->inner, A, A));
      PetscCall(MatSetType(d->inner, MATSEQAIJ));
      PetscCall(MatSetUp(d->inner));
    }
  }
  *inner = d->inner;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetUp_SeqAIJCompound(Mat A)
{
  Mat inner;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundGetInner(A, &inner));
  A->preallocated = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatSeqAIJSetPreallocation() (and MatXAIJSetPreallocation()) preallocate the inner matrix.
static PetscErrorCode MatSeqAIJSetPreallocation_SeqAIJCompound(Mat A, PetscInt nz, const PetscInt nnz[])
{
  Mat inner;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundGetInner(A, &inner));
  PetscCall(MatSeqAIJSetPreallocation(inner, nz, nnz));
  A->preallocated = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetValues_SeqAIJCompound(Mat A, PetscInt m, const PetscInt im[], PetscInt n, const PetscInt in[], const PetscScalar v[], InsertMode mode)
{
  Mat inner;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundGetInner(A, &inner));
  PetscCall(MatSetValues(inner, m, im, n, in, v, mode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatZeroEntries_SeqAIJCompound(Mat A)
{
  Mat_SeqAIJCompound *d = Data(A);

  PetscFunctionBegin;
  std::fill(d->c.values.begin(), d->c.values.end(), 0.0);
  if (d->t) d->t_stale = true;
  A->offloadmask = PETSC_OFFLOAD_CPU; // a device copy re-uploads the zeros at its next use
  if (d->inner) PetscCall(MatZeroEntries(d->inner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAssemblyEnd_SeqAIJCompound(Mat A, MatAssemblyType type)
{
  Mat_SeqAIJCompound *d = Data(A);
  Mat                 inner;
  PetscInt            bs, option = d->entry_option;

  PetscFunctionBegin;
  if (d->coo && !d->inner) PetscFunctionReturn(PETSC_SUCCESS); // MatSetValuesCOO assembled already
  PetscCall(MatAIJCompoundGetInner(A, &inner));
  PetscCall(MatAssemblyBegin(inner, type));
  PetscCall(MatAssemblyEnd(inner, type));
  if (type == MAT_FLUSH_ASSEMBLY) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetBlockSize(A, &bs));
  if ((bs == 1 || A->cmap->bs != bs) && !d->c.nnzb()) { // block size 1, or rows and columns in blocks of different sizes: A becomes its MATSEQAIJ
    PetscCall(MatAIJCompoundBecomeAIJ(A, &d->inner));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatAIJCompoundGetEntryOption(A, &option));
  {
    ac::CompoundCsr c;
    PetscCall(MatAIJCompoundFromMat(inner, bs, option, &c));
    const bool same_pattern = c.kind == d->c.kind && c.bs == d->c.bs && c.rowptr == d->c.rowptr && c.colidx == d->c.colidx;
    d->c                    = std::move(c);
    if (same_pattern && d->t) d->t_stale = true; // values-only re-assembly: the transpose and the device layout re-pack
    else d->t.reset();
    if (!same_pattern) PetscCall(MatAIJCompoundDeviceReset(A));
    if (!same_pattern) d->coo.reset(); // MatSetValues changed the pattern: the COO maps no longer apply
    A->offloadmask = PETSC_OFFLOAD_CPU;
  }
  d->entry_option = option;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A matrix of this type assembled with block size 1 (what PETSc's DMDA does with its interpolation:
// DMCreateInterpolation takes the DM's matrix type, "aijcompound" begins with "aij", and the scalar
// interpolation is then wrapped by MatCreateMAIJ), or with row and column block sizes that differ
// (PCGAMG's prolongator, made with the operator's type: bs x (near-null-space size) blocks), has no
// square compound entries: it becomes the MATAIJ it was assembled into (same object; its prefix kept; a
// prolongator MATAIJCUSPARSE where A computes on the device on every rank), with an info message. Either type.
PetscErrorCode MatAIJCompoundBecomeAIJ(Mat A, Mat *inner)
{
  Mat         S = *inner;
  const char *prefix;

  PetscFunctionBegin;
  *inner = nullptr;
  if (A->rmap->bs != A->cmap->bs) { // PCGAMG's prolongator: on the device where A computes there (every rank)
    PetscBool device;
    PetscCall(PgkMatDeviceUsableOnEveryRank(A, &device));
    if (device) PetscCall(MatConvert(S, MATAIJCUSPARSE, MAT_INPLACE_MATRIX, &S));
  }
  PetscCall(PetscInfo(A, "assembled with block sizes %" PetscInt_FMT " x %" PetscInt_FMT ": no compound entries, the matrix becomes %s\n", A->rmap->bs, A->cmap->bs, ((PetscObject)S)->type_name));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)A, &prefix));
  PetscCall(MatSetOptionsPrefix(S, prefix));
  PetscCall(MatHeaderReplace(A, &S));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatAIJCompoundSetAssemblyOps(Mat A)
{
  A->ops->setup       = MatSetUp_SeqAIJCompound;
  A->ops->setvalues   = MatSetValues_SeqAIJCompound;
  A->ops->zeroentries = MatZeroEntries_SeqAIJCompound;
  A->ops->assemblyend = MatAssemblyEnd_SeqAIJCompound;
}

PetscErrorCode MatAIJCompoundComposeAssembly(Mat A)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSeqAIJSetPreallocation_C", MatSeqAIJSetPreallocation_SeqAIJCompound));
  PetscFunctionReturn(PETSC_SUCCESS);
}

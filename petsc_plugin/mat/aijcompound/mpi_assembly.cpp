// Mat aijcompound under MPI: assembly through MatSetValues (and MatSetValuesBlocked/Local, which
// PETSc turns into it) into an inner MATMPIAIJ, whose stash carries values of other ranks' rows;
// MAT_FINAL_ASSEMBLY converts it (MatMPIAIJCompoundBuild), as the sequential assembly.cpp does.
// The inner matrix exists on every rank or on none, because MATMPIAIJ's creation and assembly are
// collective and MatSetValues() is not: it is created by MatSetUp()/preallocation or by an assembly
// and dropped by the operations that change values in place (all collective). Values set while
// there is none (after MatScale() & co., or on a converted matrix) wait here and are replayed into
// the expanded matrix at the next assembly.
#include "petsc_plugin/mat/aijcompound/mpi.hpp"

#define Data MatMPIAIJCompoundData

// The MatSetOption()s that decide what MatSetValues() and the assembly do: passed on to the inner
// matrix and replayed on a new one.
static bool ForwardedOption(MatOption op)
{
  switch (op) {
  case MAT_ROW_ORIENTED:
  case MAT_NEW_NONZERO_LOCATIONS:
  case MAT_NEW_NONZERO_LOCATION_ERR:
  case MAT_NEW_NONZERO_ALLOCATION_ERR:
  case MAT_IGNORE_OFF_PROC_ENTRIES:
  case MAT_IGNORE_ZERO_ENTRIES:
  case MAT_SORTED_FULL: return true;
  default: return false;
  }
}

// After the inner matrix's preallocation (MATMPIAIJ passes the options on to its blocks, which
// exist only then).
static PetscErrorCode ApplyOptions(Mat A, Mat inner)
{
  PetscFunctionBegin;
  for (const auto &o : Data(A)->options) PetscCall(MatSetOption(inner, o.first, o.second));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatSetOption() keeps these two in the header without calling the type.
static PetscErrorCode SyncOffProcOptions(Mat A, Mat inner)
{
  PetscFunctionBegin;
  if (inner->nooffprocentries != A->nooffprocentries) PetscCall(MatSetOption(inner, MAT_NO_OFF_PROC_ENTRIES, A->nooffprocentries));
  if (inner->assembly_subset != A->assembly_subset) PetscCall(MatSetOption(inner, MAT_SUBSET_OFF_PROC_ENTRIES, A->assembly_subset));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetOption_MPIAIJCompound(Mat A, MatOption op, PetscBool flg)
{
  auto &opts  = Data(A)->options;
  bool  found = false;

  PetscFunctionBegin;
  if (!ForwardedOption(op)) PetscFunctionReturn(PETSC_SUCCESS); // symmetry flags & co.: kept in the header by MatSetOption()
  for (auto &o : opts)
    if (o.first == op) o.second = flg, found = true;
  if (!found) opts.emplace_back(op, flg);
  if (Data(A)->inner) PetscCall(MatSetOption(Data(A)->inner, op, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A new, empty inner MATMPIAIJ with A's layout (MatSetUp()'s default preallocation with setup).
static PetscErrorCode CreateInner(Mat A, PetscBool setup)
{
  Mat_MPIAIJCompound *d = Data(A);

  PetscFunctionBegin;
  PetscCall(MatDestroy(&d->inner));
  PetscCall(PetscLayoutSetUp(A->rmap));
  PetscCall(PetscLayoutSetUp(A->cmap));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &d->inner));
  PetscCall(MatSetSizes(d->inner, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(d->inner, A, A));
  PetscCall(MatSetType(d->inner, MATMPIAIJ));
  if (setup) {
    PetscCall(MatSetUp(d->inner));
    PetscCall(ApplyOptions(A, d->inner));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetUp_MPIAIJCompound(Mat A)
{
  PetscFunctionBegin;
  if (!Data(A)->inner) PetscCall(CreateInner(A, PETSC_TRUE));
  A->preallocated = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatMPIAIJSetPreallocation() (and MatXAIJSetPreallocation(), DMDA's DMCreateMatrix()) preallocate the
// inner matrix; like any preallocation it discards the values assembled so far.
static PetscErrorCode MatMPIAIJSetPreallocation_MPIAIJCompound(Mat A, PetscInt d_nz, const PetscInt d_nnz[], PetscInt o_nz, const PetscInt o_nnz[])
{
  Mat_MPIAIJCompound *d = Data(A);

  PetscFunctionBegin;
  d->pending.clear();
  if (!d->inner) PetscCall(CreateInner(A, PETSC_FALSE));
  PetscCall(MatMPIAIJSetPreallocation(d->inner, d_nz, d_nnz, o_nz, o_nnz));
  PetscCall(ApplyOptions(A, d->inner));
  A->preallocated = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetValues_MPIAIJCompound(Mat A, PetscInt m, const PetscInt im[], PetscInt n, const PetscInt in[], const PetscScalar v[], InsertMode mode)
{
  Mat_MPIAIJCompound         *d = Data(A);
  MatAIJCompoundPendingValues p;

  PetscFunctionBegin;
  if (d->inner) {
    PetscCall(MatSetValues(d->inner, m, im, n, in, v, mode));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // No inner matrix on any rank: creating one needs every rank, so the values wait for the assembly.
  p.rows.assign(im, im + m);
  p.cols.assign(in, in + n);
  if (v) p.v.assign(v, v + m * n);
  p.mode = mode;
  d->pending.push_back(std::move(p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatZeroEntries_MPIAIJCompound(Mat A)
{
  Mat_MPIAIJCompound *d = Data(A);

  PetscFunctionBegin;
  d->pending.clear();
  if (d->inner) PetscCall(MatZeroEntries(d->inner));
  if (d->Ad) {
    PetscCall(MatZeroEntries(d->Ad));
    PetscCall(MatZeroEntries(d->Ao));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAssemblyBegin_MPIAIJCompound(Mat A, MatAssemblyType type)
{
  Mat_MPIAIJCompound *d = Data(A);

  PetscFunctionBegin;
  if (!d->inner) {
    int needed = !d->pending.empty() || !d->Ad; // values to add, or never assembled

    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &needed, 1, MPI_INT, MPI_LOR, PetscObjectComm((PetscObject)A)));
    if (!needed) PetscFunctionReturn(PETSC_SUCCESS); // nothing set on any rank since the last assembly
    if (d->Ad) {
      PetscCall(MatMPIAIJCompoundExpand(A, &d->inner));
      PetscCall(ApplyOptions(A, d->inner));
    } else PetscCall(CreateInner(A, PETSC_TRUE));
  }
  for (const auto &p : d->pending) PetscCall(MatSetValues(d->inner, (PetscInt)p.rows.size(), p.rows.data(), (PetscInt)p.cols.size(), p.cols.data(), p.v.empty() ? NULL : p.v.data(), p.mode));
  d->pending.clear();
  PetscCall(SyncOffProcOptions(A, d->inner));
  PetscCall(MatAssemblyBegin(d->inner, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAssemblyEnd_MPIAIJCompound(Mat A, MatAssemblyType type)
{
  Mat_MPIAIJCompound *d      = Data(A);
  PetscInt            option = d->entry_option;

  PetscFunctionBegin;
  if (!d->inner) PetscFunctionReturn(PETSC_SUCCESS); // MatAssemblyBegin found nothing to do, on every rank
  PetscCall(MatAssemblyEnd(d->inner, type));
  if (type == MAT_FLUSH_ASSEMBLY) PetscFunctionReturn(PETSC_SUCCESS);
  if ((A->rmap->bs == 1 || A->cmap->bs != A->rmap->bs) && !d->Ad) { // block size 1 or unequal row and column blocks, never built: it becomes its MATMPIAIJ (assembly.cpp)
    PetscCall(MatAIJCompoundBecomeAIJ(A, &d->inner));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatAIJCompoundGetEntryOption(A, &option));
  PetscCall(MatMPIAIJCompoundBuild(A, d->inner, option));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatMPIAIJCompoundSetAssemblyOps(Mat A)
{
  A->ops->setup         = MatSetUp_MPIAIJCompound;
  A->ops->setvalues     = MatSetValues_MPIAIJCompound;
  A->ops->zeroentries   = MatZeroEntries_MPIAIJCompound;
  A->ops->assemblybegin = MatAssemblyBegin_MPIAIJCompound;
  A->ops->assemblyend   = MatAssemblyEnd_MPIAIJCompound;
  A->ops->setoption     = MatSetOption_MPIAIJCompound;
}

PetscErrorCode MatMPIAIJCompoundComposeAssembly(Mat A, PetscBool compose)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatMPIAIJSetPreallocation_C", compose ? MatMPIAIJSetPreallocation_MPIAIJCompound : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMPIAIJCompoundDestroyAssembly(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&Data(A)->inner));
  Data(A)->pending.clear();
  PetscFunctionReturn(PETSC_SUCCESS);
}

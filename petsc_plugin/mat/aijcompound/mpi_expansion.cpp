// Mat aijcompound under MPI: the expansion (every stored block as bs x bs scalars), as a MATMPIAIJ on
// split arrays (MatConvert, the operations PETSc does on the expansion) and as this rank's merged
// rows (the MatGetRow cache). Both read the blocks' MatAIJCompoundExpandArrays and share one map from
// the off-diagonal block's compacted columns to global columns.
#include "petsc_plugin/mat/aijcompound/mpi.hpp"

#include <new>

#define Data MatMPIAIJCompoundData

// Both blocks' expansions (MatAIJCompoundExpandArrays: one PetscMalloc3 each, rowptr first), the
// off-diagonal block's compacted columns (ghost block g's scalar s at g * bs + s) made global
// through garray: the one column map of the MPI expansion and of the row cache.
namespace {
struct ExpandedBlocks {
  PetscInt    *di = nullptr, *dj = nullptr, *oi = nullptr, *oj = nullptr;
  PetscScalar *da = nullptr, *oa = nullptr;
};
} // namespace

static PetscErrorCode ExpandBlocks(Mat A, ExpandedBlocks &e)
{
  Mat_MPIAIJCompound *d  = Data(A);
  const PetscInt      bs = A->rmap->bs;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundExpandArrays(d->Ad, &e.di, &e.dj, &e.da));
  PetscCall(MatAIJCompoundExpandArrays(d->Ao, &e.oi, &e.oj, &e.oa));
  for (PetscInt p = 0; p < e.oi[A->rmap->n]; ++p) e.oj[p] = d->garray[e.oj[p] / bs] * bs + e.oj[p] % bs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The local rows with global columns, ascending: each row's off-diagonal entries left of the
// diagonal block, the diagonal block's (local columns shifted by cstart), the rest of the
// off-diagonal ones (both blocks' rows are ascending, and garray is).
static void MergeRows(const ExpandedBlocks &e, PetscInt nrows, PetscInt cstart, std::vector<PetscInt> &i, std::vector<PetscInt> &j, std::vector<PetscScalar> &v)
{
  const PetscInt nnz = e.di[nrows] + e.oi[nrows];
  PetscInt       k   = 0;

  i.resize(nrows + 1), j.resize(nnz), v.resize(nnz);
  i[0] = 0;
  for (PetscInt r = 0; r < nrows; ++r) {
    PetscInt p = e.oi[r];
    for (; p < e.oi[r + 1] && e.oj[p] < cstart; ++p, ++k) j[k] = e.oj[p], v[k] = e.oa[p];
    for (PetscInt q = e.di[r]; q < e.di[r + 1]; ++q, ++k) j[k] = cstart + e.dj[q], v[k] = e.da[q];
    for (; p < e.oi[r + 1]; ++p, ++k) j[k] = e.oj[p], v[k] = e.oa[p];
    i[r + 1] = k;
  }
}

PetscErrorCode MatMPIAIJCompoundLocalRows(Mat A, std::vector<PetscInt> &i, std::vector<PetscInt> &j, std::vector<PetscScalar> &v)
{
  ExpandedBlocks e;
  bool           merged = true;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_AIJCompoundExpand, A, 0, 0, 0));
  PetscCall(ExpandBlocks(A, e));
  PetscCheck((PetscInt64)e.di[A->rmap->n] + e.oi[A->rmap->n] <= PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Mat mpicompoundaij: this rank's expanded rows hold more nonzeros than PetscInt holds: configure PETSc --with-64-bit-indices");
  try {
    MergeRows(e, A->rmap->n, A->cmap->rstart, i, j, v);
  } catch (const std::bad_alloc &) {
    merged = false; // (the arrays are freed first)
  }
  PetscCall(PetscFree3(e.oi, e.oj, e.oa));
  PetscCall(PetscFree3(e.di, e.dj, e.da));
  PetscCheck(merged, PETSC_COMM_SELF, PETSC_ERR_MEM, "Mat mpicompoundaij: out of memory for the cached expanded rows of MatGetRow()");
  PetscCall(PetscLogEventEnd(MAT_AIJCompoundExpand, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The expansion on split arrays, built without a MatSetValues pass: the diagonal block's expansion
// as it is (local columns) and the off-diagonal block's with global columns, each written straight
// into the arrays the MATMPIAIJ keeps and owned by it. Its assembly (the ghost scatter; no
// off-process values) answers no viewer option.
PetscErrorCode MatMPIAIJCompoundExpand(Mat A, Mat *B)
{
  ExpandedBlocks e;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_AIJCompoundExpand, A, 0, 0, 0));
  PetscCall(ExpandBlocks(A, e));
  PetscCall(PetscOptionsPushCreateViewerOff(PETSC_TRUE));
  PetscCall(MatCreateMPIAIJWithSplitArrays(PetscObjectComm((PetscObject)A), A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N, e.di, e.dj, e.da, e.oi, e.oj, e.oa, B));
  PetscCall(PetscOptionsPopCreateViewerOff());
  PetscCall(MatAIJCompoundOwnArrays(*B, "PetscGpuKitAIJCompoundExpansionDiagonal", e.di));
  PetscCall(MatAIJCompoundOwnArrays(*B, "PetscGpuKitAIJCompoundExpansionOffDiagonal", e.oi));
  PetscCall(MatSetBlockSizesFromMats(*B, A, A));
  PetscCall(MatAIJCompoundCopyPrefix(A, *B));
  PetscCall(PetscLogEventEnd(MAT_AIJCompoundExpand, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

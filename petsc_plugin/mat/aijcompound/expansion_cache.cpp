// Mat aijcompound: the operations that read the matrix row by row or sweep it, served by MATAIJ on a
// cached expansion: MatSOR (both types: PCSOR, PCEISENSTAT, PCMG's default smoother), and for the
// sequential type MatGetRow / MatRestoreRow (PCKACZMARZ, MatConvert_Basic and other generic code),
// MatGetValues and MatMultDiagonalBlock; MatIsSymmetric and MatIsHermitian (both). The MPI type's MatGetRow and MatGetValues (this rank's rows,
// as MATMPIAIJ's) read a cached copy of this rank's expanded rows instead, built without
// communication: PETSc calls them on one rank alone.
// The expansion is kept on the matrix and rebuilt when the matrix's object state has changed (every
// value change increases it: assembly, MatScale & co., the device operations), so repeated sweeps
// cost one expansion, not one per call. It holds the expanded scalar matrix (memory: about the
// compound values' bytes times the entries' expansion, k*k / esize) until the matrix is destroyed.
#include "petsc_plugin/mat/aijcompound/mpi.hpp"
#include "petsc_plugin/sys/csr_access.hpp"

#include <algorithm>
#include <vector>

// A cache of type T (with a member `state`) composed on A under `name`, created empty at the first
// call; *stale: A's object state moved since it was filled (the caller refills it, then calls
// StateCacheFilled). Both caches of this file follow this rule.
template <class T> static PetscErrorCode StateCache(Mat A, const char name[], T **c, PetscBool *stale)
{
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)A, name, (void **)c));
  if (!*c) {
    *c = new T();
    // (rank-local: the MPI type's MatGetRow / MatGetValues fill a cache on one rank alone)
    PetscCall(PgkObjectContainerComposeLocal((PetscObject)A, name, *c, [](void *ctx) -> PetscErrorCode {
      T *cache = *(T **)ctx;
      PetscCall(CacheRelease(cache)); // what the cache holds beside its own memory
      delete cache;
      return PETSC_SUCCESS;
    }));
  }
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  *stale = (*c)->state != state ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <class T> static PetscErrorCode StateCacheFilled(Mat A, T *c)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)A, &c->state)); // (filling may have synced values)
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char kCache[] = "PetscGpuKitAIJCompoundExpansionCache";

struct ExpansionCache {
  Mat              E     = nullptr;
  PetscObjectState state = -1;
};

static PetscErrorCode CacheRelease(ExpansionCache *c)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&c->E));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A's expansion as of A's current state (borrowed: a caller that keeps it takes a reference):
// MATAIJCUSPARSE where A computes on the device on every rank, so that the products of PCGAMG's
// hierarchy and its coarse levels stay there; else MATSEQAIJ or MATMPIAIJ. (MatSOR, MatGetRow and
// MatGetValues read its host arrays, which the conversion leaves current.) Collective for the MPI
// type when it has to be rebuilt, which only collective callers ask for (MatSOR, product.cpp's
// MatProduct and MatCreateGraph): the condition, A's state, is the same on every rank.
PetscErrorCode MatAIJCompoundCachedExpansion(Mat A, Mat *E)
{
  ExpansionCache *c;
  PetscBool       stale = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(StateCache(A, kCache, &c, &stale));
  if (stale || !c->E) {
    PetscCall(MatDestroy(&c->E));
    PetscCall(PetscInfo(A, "building the cached expansion (MatSOR, MatGetRow, MatGetValues, MatProduct, MatCreateGraph)\n"));
    PetscCall(PgkMatScalarOperator(A, NULL, &c->E)); // MATAIJCUSPARSE where A computes on the device
    PetscCall(StateCacheFilled(A, c));
  }
  *E = c->E;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSOR_AIJCompound(Mat A, Vec b, PetscReal omega, MatSORType flag, PetscReal shift, PetscInt its, PetscInt lits, Vec x)
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundCachedExpansion(A, &E));
  PetscCall(MatSOR(E, b, omega, flag, shift, its, lits, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetRow_AIJCompound(Mat A, PetscInt row, PetscInt *nz, PetscInt **idx, PetscScalar **v)
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundCachedExpansion(A, &E));
  PetscCall(MatGetRow(E, row, nz, (const PetscInt **)idx, (const PetscScalar **)v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatRestoreRow_AIJCompound(Mat A, PetscInt row, PetscInt *nz, PetscInt **idx, PetscScalar **v)
{
  ExpansionCache *c;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)A, kCache, (void **)&c));
  PetscCheck(c && c->E, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "MatRestoreRow on aijcompound without MatGetRow");
  PetscCall(MatRestoreRow(c->E, row, nz, (const PetscInt **)idx, (const PetscScalar **)v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetValues_AIJCompound(Mat A, PetscInt m, const PetscInt im[], PetscInt n, const PetscInt in[], PetscScalar v[])
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundCachedExpansion(A, &E));
  PetscCall(MatGetValues(E, m, im, n, in, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// PCEISENSTAT pairs MatSOR's SOR_EISENSTAT with this product: both must see the same (inode) block
// diagonal, the expansion's.
static PetscErrorCode MatMultDiagonalBlock_AIJCompound(Mat A, Vec x, Vec y)
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundCachedExpansion(A, &E));
  PetscCall(MatMultDiagonalBlock(E, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ---- the MPI type's rows: this rank's expanded rows with global columns, cached by state -------
static const char kLocalRows[] = "PetscGpuKitAIJCompoundLocalRows";

struct LocalRows {
  std::vector<PetscInt>    i, j;
  std::vector<PetscScalar> v;
  PetscObjectState         state = -1;
};

static PetscErrorCode CacheRelease(LocalRows *)
{
  return PETSC_SUCCESS; // (its vectors go with it)
}

static PetscErrorCode CachedLocalRows(Mat A, LocalRows **rows)
{
  LocalRows *c;
  PetscBool  stale = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(StateCache(A, kLocalRows, &c, &stale));
  if (stale) {
    PetscCall(MatMPIAIJCompoundLocalRows(A, c->i, c->j, c->v));
    PetscCall(StateCacheFilled(A, c));
  }
  *rows = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetRow_MPIAIJCompound(Mat A, PetscInt row, PetscInt *nz, PetscInt **idx, PetscScalar **v)
{
  LocalRows *c;
  PetscInt   r = row - A->rmap->rstart;

  PetscFunctionBegin;
  PetscCheck(r >= 0 && r < A->rmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MatGetRow on mpicompoundaij: only this rank's rows [%" PetscInt_FMT ", %" PetscInt_FMT "), got %" PetscInt_FMT, A->rmap->rstart, A->rmap->rend, row);
  PetscCall(CachedLocalRows(A, &c));
  if (nz) *nz = c->i[r + 1] - c->i[r];
  if (idx) *idx = c->j.data() + c->i[r];
  if (v) *v = c->v.data() + c->i[r];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatRestoreRow_MPIAIJCompound(Mat A, PetscInt row, PetscInt *nz, PetscInt **idx, PetscScalar **v)
{
  PetscFunctionBegin;
  (void)A, (void)row, (void)nz, (void)idx, (void)v; // the row points into the cache
  PetscFunctionReturn(PETSC_SUCCESS);
}

// This rank's rows only (as MATMPIAIJ); negative indices are skipped, entries not stored are 0.
static PetscErrorCode MatGetValues_MPIAIJCompound(Mat A, PetscInt m, const PetscInt im[], PetscInt n, const PetscInt in[], PetscScalar v[])
{
  LocalRows *c;

  PetscFunctionBegin;
  PetscCall(CachedLocalRows(A, &c));
  for (PetscInt a = 0; a < m; ++a) {
    const PetscInt r = im[a] - A->rmap->rstart;
    if (im[a] < 0) continue;
    PetscCheck(r >= 0 && r < A->rmap->n, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetValues on mpicompoundaij: only this rank's rows [%" PetscInt_FMT ", %" PetscInt_FMT "), got %" PetscInt_FMT, A->rmap->rstart, A->rmap->rend, im[a]);
    const PetscInt *first = c->j.data() + c->i[r], *last = c->j.data() + c->i[r + 1];
    for (PetscInt b = 0; b < n; ++b) {
      if (in[b] < 0) continue;
      const PetscInt *it = std::lower_bound(first, last, in[b]);
      v[a * n + b]       = it != last && *it == in[b] ? c->v[(size_t)(it - c->j.data())] : 0.0;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatIsSymmetric / MatIsHermitian: the expansion's answer (the same matrix)
template <PetscErrorCode (*IsProperty)(Mat, PetscReal, PetscBool *)> static PetscErrorCode MatIsProperty_AIJCompound(Mat A, PetscReal tol, PetscBool *flg)
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundCachedExpansion(A, &E));
  PetscCall(IsProperty(E, tol, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatAIJCompoundSetExpansionCacheOps(Mat A, PetscBool mpi)
{
  A->ops->issymmetric = MatIsProperty_AIJCompound<MatIsSymmetric>;
  A->ops->ishermitian = MatIsProperty_AIJCompound<MatIsHermitian>;
  A->ops->sor         = MatSOR_AIJCompound;
  A->ops->getrow      = mpi ? MatGetRow_MPIAIJCompound : MatGetRow_AIJCompound;
  A->ops->restorerow  = mpi ? MatRestoreRow_MPIAIJCompound : MatRestoreRow_AIJCompound;
  A->ops->getvalues   = mpi ? MatGetValues_MPIAIJCompound : MatGetValues_AIJCompound;
  if (!mpi) A->ops->multdiagonalblock = MatMultDiagonalBlock_AIJCompound;
}

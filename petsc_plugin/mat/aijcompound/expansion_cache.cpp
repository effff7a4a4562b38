// Mat aijcompound: the operations that read the matrix row by row or sweep it, served by MATAIJ on a
// cached expansion: MatSOR (both types: PCSOR, PCEISENSTAT, PCMG's default smoother), and for the
// sequential type MatGetRow / MatRestoreRow (PCKACZMARZ, MatConvert_Basic and other generic code) and
// MatGetValues. (The MPI type has no MatGetRow: PETSc calls it on one rank alone, and rebuilding the
// MPI expansion there would be a collective call on one rank.)
// The expansion is kept on the matrix and rebuilt when the matrix's object state has changed (every
// value change increases it: assembly, MatScale & co., the device operations), so repeated sweeps
// cost one expansion, not one per call. It holds the expanded scalar matrix (memory: about the
// compound values' bytes times the entries' expansion, k*k / esize) until the matrix is destroyed.
#include "petsc_plugin/mat/aijcompound/aijcompound.hpp"

static const char kCache[] = "PetscGpuKitAIJCompoundExpansionCache";

struct ExpansionCache {
  Mat              E     = nullptr;
  PetscObjectState state = -1;
};

static PetscErrorCode ExpansionCacheDestroy(void *ctx)
{
  ExpansionCache *c = *(ExpansionCache **)ctx;

  PetscFunctionBegin;
  PetscCall(MatDestroy(&c->E));
  delete c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A's expansion as of A's current state (MATSEQAIJ or MATMPIAIJ). Collective for the MPI type when
// it has to be rebuilt, which only MatSOR (itself collective) asks for: the condition, A's state,
// is the same on every rank.
static PetscErrorCode CachedExpansion(Mat A, Mat *E)
{
  ExpansionCache  *c;
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)A, kCache, (void **)&c));
  if (!c) {
    c = new ExpansionCache();
    PetscCall(PetscObjectContainerCompose((PetscObject)A, kCache, c, ExpansionCacheDestroy));
  }
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  if (!c->E || c->state != state) {
    PetscCall(MatDestroy(&c->E));
    PetscCall(PetscInfo(A, "building the cached expansion (MatSOR, MatGetRow, MatGetValues)\n"));
    PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &c->E));
    PetscCall(PetscObjectStateGet((PetscObject)A, &c->state)); // (MatConvert may have synced values)
  }
  *E = c->E;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSOR_AIJCompound(Mat A, Vec b, PetscReal omega, MatSORType flag, PetscReal shift, PetscInt its, PetscInt lits, Vec x)
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(CachedExpansion(A, &E));
  PetscCall(MatSOR(E, b, omega, flag, shift, its, lits, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetRow_AIJCompound(Mat A, PetscInt row, PetscInt *nz, PetscInt **idx, PetscScalar **v)
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(CachedExpansion(A, &E));
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
  PetscCall(CachedExpansion(A, &E));
  PetscCall(MatGetValues(E, m, im, n, in, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// PCEISENSTAT pairs MatSOR's SOR_EISENSTAT with this product: both must see the same (inode) block
// diagonal, the expansion's.
static PetscErrorCode MatMultDiagonalBlock_AIJCompound(Mat A, Vec x, Vec y)
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(CachedExpansion(A, &E));
  PetscCall(MatMultDiagonalBlock(E, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatAIJCompoundSetExpansionCacheOps(Mat A, PetscBool mpi)
{
  A->ops->sor = MatSOR_AIJCompound;
  if (mpi) return;
  A->ops->getrow            = MatGetRow_AIJCompound;
  A->ops->restorerow        = MatRestoreRow_AIJCompound;
  A->ops->getvalues         = MatGetValues_AIJCompound;
  A->ops->multdiagonalblock = MatMultDiagonalBlock_AIJCompound;
}

// Mat seqcompoundaij: factorizations (PCLU, PCILU, PCCHOLESKY, PCICC, so also GMRES's default ILU and
// PCBJACOBI's default sub-solver) and MatGetRowIJ (so MatGetOrdering, every ordering of PETSc and of
// petscgpukit). A factorization of a compound matrix is the factorization of its expanded scalar
// matrix: MATSEQAIJ's own (PETSc's MATSOLVERPETSC) factor matrix, whose symbolic and numeric steps
// are handed the expansion instead of the compound matrix (their kernels read MATSEQAIJ's arrays).
// The triangular solves are MATSEQAIJ's, on the host. MatGetRowIJ gives the expansion's structure.
#include "petsc_plugin/mat/aijcompound/aijcompound.hpp"

static const char kFactorWrap[] = "PetscGpuKitAIJCompoundFactor";
static const char kRowIJ[]      = "PetscGpuKitAIJCompoundRowIJ";

// What a factor matrix of a compound matrix keeps: MATSEQAIJ's steps it forwards to, and the
// expansion its symbolic step was given, for the numeric step that follows at the same object state
// of A (PCSetUp's first factorization expands once, not twice).
struct FactorWrap {
  PetscErrorCode (*lu_symbolic)(Mat, Mat, IS, IS, const MatFactorInfo *)  = nullptr;
  PetscErrorCode (*ilu_symbolic)(Mat, Mat, IS, IS, const MatFactorInfo *) = nullptr;
  PetscErrorCode (*chol_symbolic)(Mat, Mat, IS, const MatFactorInfo *)    = nullptr;
  PetscErrorCode (*icc_symbolic)(Mat, Mat, IS, const MatFactorInfo *)     = nullptr;
  PetscErrorCode (*lu_numeric)(Mat, Mat, const MatFactorInfo *)           = nullptr;
  PetscErrorCode (*chol_numeric)(Mat, Mat, const MatFactorInfo *)         = nullptr;
  Mat              symbolic_expansion                                     = nullptr;
  PetscObjectState symbolic_state                                         = 0;
};

static PetscErrorCode FactorWrapDestroy(void *ctx)
{
  FactorWrap *w = *(FactorWrap **)ctx;

  PetscFunctionBegin;
  PetscCall(MatDestroy(&w->symbolic_expansion));
  delete w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetWrap(Mat F, FactorWrap **w)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)F, kFactorWrap, (void **)w));
  PetscCheck(*w, PETSC_COMM_SELF, PETSC_ERR_PLIB, "factor matrix of a seqcompoundaij without its forwarding table");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A's expansion with A's error-on-failure flag (MatSetErrorIfFailure, which PCFactor sets on A), and
// without inodes: MATSEQAIJ's inode factorization takes the inodes of the matrix it factors and needs
// an ordering that keeps each inode's rows together, which PETSc's orderings of a MATSEQAIJ ensure
// (they order the inode graph) and the orderings of A, which order scalar rows, do not (qmd gave a
// wrong LU, rowlength and rabbitpp a failed one, before).
static PetscErrorCode Expansion(Mat A, Mat *E)
{
  PetscFunctionBegin;
  PetscCall(MatAIJCompoundExpandInodes(A, PETSC_FALSE, E));
  (*E)->erroriffailure = A->erroriffailure;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The symbolic step keeps its expansion for the numeric step (replacing an older one).
static PetscErrorCode KeepForNumeric(FactorWrap *w, Mat A, Mat *E)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&w->symbolic_expansion));
  PetscCall(PetscObjectStateGet((PetscObject)A, &w->symbolic_state));
  w->symbolic_expansion = *E;
  *E                    = nullptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The numeric step's expansion: the symbolic step's where A has not changed since (taken over and
// freed after the step), else a new one (a re-factorization after new values).
static PetscErrorCode ExpansionForNumeric(FactorWrap *w, Mat A, Mat *E)
{
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  if (w->symbolic_expansion && state == w->symbolic_state) {
    *E                    = w->symbolic_expansion;
    w->symbolic_expansion = nullptr;
    (*E)->erroriffailure  = A->erroriffailure;
  } else {
    PetscCall(MatDestroy(&w->symbolic_expansion));
    PetscCall(Expansion(A, E));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// What MATSEQAIJ's MatGetFactor reads of its matrix (sizes, block sizes, symmetry flags;
// MatGetFactor_seqaij_petsc), without the expansion's values: PCFactor asks for a factor
// matrix several times a set-up (4 on ksp ex2's ILU), and an expansion each time cost more than
// the factorization itself.
static PetscErrorCode SizeStandIn(Mat A, Mat *E)
{
  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_SELF, E));
  PetscCall(MatSetSizes(*E, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(*E, A, A));
  PetscCall(MatSetType(*E, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocation(*E, 0, NULL));
  (*E)->symmetric = A->symmetric;
  (*E)->hermitian = A->hermitian;
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <int kind> static PetscErrorCode Numeric(Mat F, Mat A, const MatFactorInfo *info);

// After MATSEQAIJ's symbolic step has set its numeric step (which depends on the structure: inodes
// or not), the numeric step is wrapped too.
static PetscErrorCode WrapNumeric(Mat F, FactorWrap *w)
{
  PetscFunctionBegin;
  if (F->ops->lufactornumeric && F->ops->lufactornumeric != Numeric<0>) {
    w->lu_numeric           = F->ops->lufactornumeric;
    F->ops->lufactornumeric = Numeric<0>;
  }
  if (F->ops->choleskyfactornumeric && F->ops->choleskyfactornumeric != Numeric<1>) {
    w->chol_numeric               = F->ops->choleskyfactornumeric;
    F->ops->choleskyfactornumeric = Numeric<1>;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The numeric steps (0: LU and ILU, 1: Cholesky and ICC): MATSEQAIJ's on A's current expansion.
template <int kind> static PetscErrorCode Numeric(Mat F, Mat A, const MatFactorInfo *info)
{
  FactorWrap *w;
  Mat         E;

  PetscFunctionBegin;
  PetscCall(GetWrap(F, &w));
  PetscCall(ExpansionForNumeric(w, A, &E));
  PetscCall((kind ? w->chol_numeric : w->lu_numeric)(F, E, info));
  PetscCall(MatDestroy(&E));
  PetscCall(WrapNumeric(F, w)); // (a numeric step may re-set itself)
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The four symbolic steps: MATSEQAIJ's on the expansion, then its numeric step wrapped.
template <int kind> static PetscErrorCode LUSymbolic(Mat F, Mat A, IS row, IS col, const MatFactorInfo *info)
{
  FactorWrap *w;
  Mat         E;

  PetscFunctionBegin;
  PetscCall(GetWrap(F, &w));
  PetscCall(Expansion(A, &E));
  PetscCall((kind ? w->ilu_symbolic : w->lu_symbolic)(F, E, row, col, info));
  PetscCall(KeepForNumeric(w, A, &E));
  PetscCall(WrapNumeric(F, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <int kind> static PetscErrorCode CholeskySymbolic(Mat F, Mat A, IS perm, const MatFactorInfo *info)
{
  FactorWrap *w;
  Mat         E;

  PetscFunctionBegin;
  PetscCall(GetWrap(F, &w));
  PetscCall(Expansion(A, &E));
  PetscCall((kind ? w->icc_symbolic : w->chol_symbolic)(F, E, perm, info));
  PetscCall(KeepForNumeric(w, A, &E));
  PetscCall(WrapNumeric(F, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatGetFactor(A, MATSOLVERPETSC, ftype): MATSEQAIJ's factor matrix of A's sizes, its steps wrapped.
PetscErrorCode MatGetFactor_SeqAIJCompound_Petsc(Mat A, MatFactorType ftype, Mat *F)
{
  Mat         E;
  FactorWrap *w;

  PetscFunctionBegin;
  PetscCall(SizeStandIn(A, &E));
  PetscCall(MatGetFactor(E, MATSOLVERPETSC, ftype, F));
  PetscCall(MatDestroy(&E));
  PetscCheck(*F, PETSC_COMM_SELF, PETSC_ERR_SUP, "Mat seqcompoundaij: MATSEQAIJ has no %s factorization of its own", MatFactorTypes[ftype]);
  w                = new FactorWrap();
  w->lu_symbolic   = (*F)->ops->lufactorsymbolic;
  w->ilu_symbolic  = (*F)->ops->ilufactorsymbolic;
  w->chol_symbolic = (*F)->ops->choleskyfactorsymbolic;
  w->icc_symbolic  = (*F)->ops->iccfactorsymbolic;
  PetscCall(PetscObjectContainerCompose((PetscObject)*F, kFactorWrap, w, FactorWrapDestroy));
  if (w->lu_symbolic) (*F)->ops->lufactorsymbolic = LUSymbolic<0>;
  if (w->ilu_symbolic) (*F)->ops->ilufactorsymbolic = LUSymbolic<1>;
  if (w->chol_symbolic) (*F)->ops->choleskyfactorsymbolic = CholeskySymbolic<0>;
  if (w->icc_symbolic) (*F)->ops->iccfactorsymbolic = CholeskySymbolic<1>;
  PetscCall(PetscInfo(A, "%s factorization of the expanded matrix (MATSEQAIJ's, on the host)\n", MatFactorTypes[ftype]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatGetRowIJ: the expansion's (scalar) structure, never inode-compressed (an ordering of A must
// have A's size; PETSc re-expands inode orderings only for MATSEQAIJ itself). The expansion lives
// on A until MatRestoreRowIJ.
static PetscErrorCode MatGetRowIJ_SeqAIJCompound(Mat A, PetscInt shift, PetscBool symmetric, PetscBool inodecompressed, PetscInt *n, const PetscInt *ia[], const PetscInt *ja[], PetscBool *done)
{
  Mat E;

  PetscFunctionBegin;
  (void)inodecompressed;
  if (n) *n = A->rmap->n;
  if (!ia) PetscFunctionReturn(PETSC_SUCCESS); // the size alone (MATSEQAIJ's inode answer would be compressed)
  PetscCall(PetscObjectQuery((PetscObject)A, kRowIJ, (PetscObject *)&E));
  PetscCheck(!E, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "MatGetRowIJ on seqcompoundaij twice without MatRestoreRowIJ");
  PetscCall(MatAIJCompoundExpand(A, &E));
  PetscCall(PetscObjectCompose((PetscObject)A, kRowIJ, (PetscObject)E));
  PetscCall(MatDestroy(&E)); // A holds it
  PetscCall(PetscObjectQuery((PetscObject)A, kRowIJ, (PetscObject *)&E));
  PetscCall(MatGetRowIJ(E, shift, symmetric, PETSC_FALSE, n, ia, ja, done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatRestoreRowIJ_SeqAIJCompound(Mat A, PetscInt shift, PetscBool symmetric, PetscBool inodecompressed, PetscInt *n, const PetscInt *ia[], const PetscInt *ja[], PetscBool *done)
{
  Mat E;

  PetscFunctionBegin;
  (void)inodecompressed;
  if (!ia) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectQuery((PetscObject)A, kRowIJ, (PetscObject *)&E));
  PetscCheck(E, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "MatRestoreRowIJ on seqcompoundaij without MatGetRowIJ");
  PetscCall(MatRestoreRowIJ(E, shift, symmetric, PETSC_FALSE, n, ia, ja, done));
  PetscCall(PetscObjectCompose((PetscObject)A, kRowIJ, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatAIJCompoundSetFactorOps(Mat A)
{
  A->ops->getrowij     = MatGetRowIJ_SeqAIJCompound;
  A->ops->restorerowij = MatRestoreRowIJ_SeqAIJCompound;
}

// Mat aijcompound (sequential and MPI): MatCreateSubMatrix, what PCFIELDSPLIT and codes that drop
// Dirichlet rows and columns (PETSc's ksp ex49) call, and MatIncreaseOverlap + MatCreateSubMatrices,
// what PCASM calls. Computed by MATAIJ on the expansion (one expansion per call: these are set-up
// operations); a submatrix is of this type again where its block sizes allow, else MATAIJ; PCASM's
// subdomain matrices are MATSEQAIJ, so every sub-solver (LU, ILU, ...) works on them. And MatTranspose.
#include "petsc_plugin/mat/aijcompound/aijcompound.hpp"

// The submatrix is of A's type when its row and column block sizes (from the index sets, as MATAIJ
// sets them) are equal and 2..8 with local sizes their multiples on every rank; otherwise (rows of
// part of a block kept, an index set of block size 1) it is the MATAIJ (MATMPIAIJ) submatrix.
// MAT_REUSE_MATRIX replaces the contents of *B, keeping the object the caller holds.
static PetscErrorCode MatCreateSubMatrix_AIJCompound(Mat A, IS isrow, IS iscol, MatReuse reuse, Mat *B)
{
  Mat      E, S, C;
  PetscInt rbs, cbs, m, n;
  int      compound;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &E));
  PetscCall(MatCreateSubMatrix(E, isrow, iscol, MAT_INITIAL_MATRIX, &S));
  PetscCall(MatDestroy(&E));
  PetscCall(MatGetBlockSizes(S, &rbs, &cbs));
  PetscCall(MatGetLocalSize(S, &m, &n));
  compound = rbs == cbs && rbs >= 2 && rbs <= 8 && m % rbs == 0 && n % rbs == 0;
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &compound, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)A)));
  PetscCall(PetscInfo(A, "submatrix %s (block sizes %" PetscInt_FMT ", %" PetscInt_FMT ")\n", compound ? "of the compound type" : "left as AIJ", rbs, cbs));
  PetscCall(MatAIJCompoundCopyPrefix(A, S)); // the conversion's -mat_aijcompound_entry, and the result's options
  if (compound) {
    PetscCall(MatConvert(S, MATAIJCOMPOUND, MAT_INITIAL_MATRIX, &C));
    PetscCall(MatDestroy(&S));
    S = C;
  }
  if (reuse == MAT_REUSE_MATRIX) PetscCall(MatHeaderReplace(*B, &S));
  else *B = S;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatIncreaseOverlap_AIJCompound(Mat A, PetscInt n, IS is[], PetscInt ov)
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &E));
  PetscCall(MatIncreaseOverlap(E, n, is, ov));
  PetscCall(MatDestroy(&E));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MATSEQAIJ submatrices of the expansion. MAT_REUSE_MATRIX copies new values into the caller's
// matrices (same index sets, so the same patterns), which keep their identity and contexts.
static PetscErrorCode MatCreateSubMatrices_AIJCompound(Mat A, PetscInt n, const IS irow[], const IS icol[], MatReuse scall, Mat *submat[])
{
  Mat  E;
  Mat *fresh;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &E));
  if (scall == MAT_INITIAL_MATRIX) PetscCall(MatCreateSubMatrices(E, n, irow, icol, MAT_INITIAL_MATRIX, submat));
  else {
    PetscCall(MatCreateSubMatrices(E, n, irow, icol, MAT_INITIAL_MATRIX, &fresh));
    for (PetscInt i = 0; i < n; ++i) PetscCall(MatCopy(fresh[i], (*submat)[i], SAME_NONZERO_PATTERN));
    PetscCall(MatDestroySubMatrices(n, &fresh));
  }
  PetscCall(MatDestroy(&E));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatTranspose: MATAIJ's transpose of the expansion, converted to this type again (A's entry option:
// the transpose of a complex or quaternion entry is its conjugate, of the same form, so the kind is
// kept). MAT_REUSE_MATRIX copies the values into the caller's matrix (same pattern), which keeps the
// precursor PETSc composed on it; MAT_INPLACE_MATRIX replaces A.
static PetscErrorCode MatTranspose_AIJCompound(Mat A, MatReuse reuse, Mat *B)
{
  Mat E, Et, C;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &E));
  PetscCall(MatTranspose(E, MAT_INITIAL_MATRIX, &Et));
  PetscCall(MatDestroy(&E));
  PetscCall(MatAIJCompoundCopyPrefix(A, Et));
  PetscCall(MatConvert(Et, MATAIJCOMPOUND, MAT_INITIAL_MATRIX, &C));
  PetscCall(MatDestroy(&Et));
  if (reuse == MAT_INITIAL_MATRIX) *B = C;
  else if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(C, *B, SAME_NONZERO_PATTERN));
    PetscCall(MatDestroy(&C));
  } else PetscCall(MatHeaderReplace(A, &C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatAIJCompoundSetSubMatrixOps(Mat A)
{
  A->ops->transpose         = MatTranspose_AIJCompound;
  A->ops->createsubmatrix   = MatCreateSubMatrix_AIJCompound;
  A->ops->increaseoverlap   = MatIncreaseOverlap_AIJCompound;
  A->ops->createsubmatrices = MatCreateSubMatrices_AIJCompound;
}

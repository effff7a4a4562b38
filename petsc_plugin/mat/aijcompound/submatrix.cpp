// Mat aijcompound (sequential and MPI): MatCreateSubMatrix, what PCFIELDSPLIT and codes that drop
// Dirichlet rows and columns (PETSc's ksp ex49) call. Computed by MATAIJ on the expansion; the
// result is of this type again where its block sizes allow, else the AIJ submatrix.
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

void MatAIJCompoundSetSubMatrixOps(Mat A)
{
  A->ops->createsubmatrix = MatCreateSubMatrix_AIJCompound;
}

// Mat aijcompound (sequential and MPI): the Jacobian by colored finite differences
// (MatFDColoringCreate/SetUp/Apply, what SNES does by default on a DM without a Jacobian routine).
// PETSc's coloring kernels are private to MATAIJ, so the work is delegated through the public
// interface: a second MatFDColoring on an AIJ workspace with the pattern the coloring was made for
// computes the Jacobian there, and MatCopy() moves its values into the compound matrix (row by row
// through MatSetValues and a final assembly: the values-only re-assembly, which keeps the device layout).
#include "petsc_plugin/mat/aijcompound/mpi.hpp"

static const char kInnerColoring[] = "PetscGpuKitAIJCompoundFDColoring";
static const char kWorkspace[]     = "PetscGpuKitAIJCompoundFDWorkspace";

// The AIJ pattern a coloring of J is for: the matrix J was assembled into through MatSetValues (a DM's
// pattern, exact), else J's expansion (whole blocks: the coloring must then hold for whole blocks,
// as DMDA's default block fills do). A new matrix, values zero.
static PetscErrorCode MatAIJCompoundFDWorkspace(Mat J, Mat *W)
{
  PetscBool mpi;
  Mat       inner;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)J, MATMPIAIJCOMPOUND, &mpi));
  inner = mpi ? MatMPIAIJCompoundData(J)->inner : MatAIJCompoundData(J)->inner;
  if (inner && inner->assembled) PetscCall(MatDuplicate(inner, MAT_DO_NOT_COPY_VALUES, W));
  else {
    PetscCall(PetscInfo(J, "no assembled MatSetValues matrix: the coloring is taken for the expanded (whole-block) pattern\n"));
    PetscCall(MatConvert(J, MATAIJ, MAT_INITIAL_MATRIX, W));
    PetscCall(MatZeroEntries(*W));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAIJCompoundFDGet(MatFDColoring c, Mat *W, MatFDColoring *c2)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)c, kWorkspace, (PetscObject *)W));
  PetscCall(PetscObjectQuery((PetscObject)c, kInnerColoring, (PetscObject *)c2));
  PetscCheck(*W && *c2, PetscObjectComm((PetscObject)c), PETSC_ERR_ARG_WRONGSTATE, "MatFDColoring of an aijcompound matrix without its workspace");
  // What the user or SNES set on c since (function, parameters, differencing type) holds for c2.
  PetscCall(MatFDColoringSetFunction(*c2, c->f, c->fctx));
  PetscCall(MatFDColoringSetParameters(*c2, c->error_rel, c->umin));
  PetscCall(MatFDColoringSetType(*c2, c->htype));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatFDColoringCreate_AIJCompound(Mat J, ISColoring iscoloring, MatFDColoring c)
{
  Mat           W;
  MatFDColoring c2;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundFDWorkspace(J, &W));
  PetscCall(MatFDColoringCreate(W, iscoloring, &c2));
  PetscCall(PetscObjectCompose((PetscObject)c, kWorkspace, (PetscObject)W));
  PetscCall(PetscObjectCompose((PetscObject)c, kInnerColoring, (PetscObject)c2));
  PetscCall(MatFDColoringDestroy(&c2));
  PetscCall(MatDestroy(&W));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatFDColoringSetUp_AIJCompound(Mat J, ISColoring iscoloring, MatFDColoring c)
{
  Mat           W;
  MatFDColoring c2;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundFDGet(c, &W, &c2));
  PetscCall(MatFDColoringSetUp(W, iscoloring, c2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatFDColoringApply_AIJCompound(Mat J, MatFDColoring c, Vec x, void *sctx)
{
  Mat           W;
  MatFDColoring c2;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundFDGet(c, &W, &c2));
  PetscCall(MatFDColoringApply(W, c2, x, sctx));
  PetscCall(MatCopy(W, J, SAME_NONZERO_PATTERN)); // MATAIJ's copy into another type: MatSetValues, assembly
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MatAIJCompoundSetFDColoringOps(Mat A)
{
  A->ops->fdcoloringcreate = MatFDColoringCreate_AIJCompound;
  A->ops->fdcoloringsetup  = MatFDColoringSetUp_AIJCompound;
  A->ops->fdcoloringapply  = MatFDColoringApply_AIJCompound;
}

static const char help[] = "MatGetOrdering with the project's orderings on BAIJ and SBAIJ matrices: as PETSc's own orderings\n"
                           "do, they order the block rows (of each rank's diagonal block), so the index set has one entry a\n"
                           "block row; it must equal the ordering of an AIJ matrix that holds the block pattern (SBAIJ: both\n"
                           "triangles, as its MatGetRowIJ() with symmetric gives them). Before, they ordered the point rows,\n"
                           "which PETSc's BAIJ ILU read as block rows: a zero pivot, or a hang.\n"
                           "  -type <ordering>   batchrcm, rabbitpp, rabbit or rcm (default batchrcm)\n"
                           "  -bs <k>            block size (default 2)\n"
                           "  -nb <k>            block rows (default 240)\n";

#include <petscgpukit.h>

#include <cstring>
#include <vector>

#include "src/common/rng.hpp"

// The block pattern: a band (I, I+1), (I, I+11), and a few far couplings, one direction only for
// BAIJ (the ordering then works on its symmetrization), diagonal always. Global block indices.
static void BlockPattern(PetscInt nb, PetscInt I, std::vector<PetscInt> &cols)
{
  pgk::SplitMix64 rng(1000 + (std::uint64_t)I);
  cols.assign(1, I);
  for (PetscInt J : {I + 1, I + 11})
    if (J < nb) cols.push_back(J);
  if (I % 7 == 3) cols.push_back((PetscInt)rng.bounded((std::uint64_t)nb));
}

// type BAIJ or SBAIJ (block size bs); the AIJ twin holds one entry per block of the pattern,
// with both (I, J) and (J, I) for SBAIJ, and has the same block rows on every rank.
static PetscErrorCode Build(MatType type, PetscInt nb, PetscInt bs, Mat *B, Mat *twin)
{
  const PetscBool       sym = std::strcmp(type, MATSBAIJ) ? PETSC_FALSE : PETSC_TRUE;
  PetscInt              lo, hi;
  std::vector<PetscInt> cols;

  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_WORLD, B));
  PetscCall(MatSetSizes(*B, PETSC_DECIDE, PETSC_DECIDE, nb * bs, nb * bs));
  PetscCall(MatSetType(*B, type));
  PetscCall(MatSetBlockSize(*B, bs));
  PetscCall(MatSetUp(*B));
  PetscCall(MatSetOption(*B, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(*B, &lo, &hi));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, (hi - lo) / bs, (hi - lo) / bs, nb, nb, 8, NULL, 8, NULL, twin));
  PetscCall(MatSetOption(*twin, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  std::vector<PetscScalar> block((std::size_t)(bs * bs), 1.0);
  for (PetscInt I = lo / bs; I < hi / bs; ++I) {
    BlockPattern(nb, I, cols);
    for (const PetscInt J : cols) {
      const PetscInt r = sym && J < I ? J : I, c = sym && J < I ? I : J; // SBAIJ: the upper triangle
      PetscCall(MatSetValuesBlocked(*B, 1, &r, 1, &c, block.data(), INSERT_VALUES));
      PetscCall(MatSetValue(*twin, r, c, 1.0, INSERT_VALUES));
      if (sym) PetscCall(MatSetValue(*twin, c, r, 1.0, INSERT_VALUES));
    }
  }
  for (Mat M : {*B, *twin}) {
    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Order(Mat A, MatOrderingType type, std::vector<PetscInt> &perm)
{
  IS              r, c;
  PetscInt        n;
  const PetscInt *idx;

  PetscFunctionBegin;
  PetscCall(MatGetOrdering(A, type, &r, &c));
  PetscCall(ISGetLocalSize(r, &n));
  PetscCall(ISGetIndices(r, &idx));
  perm.assign(idx, idx + n);
  PetscCall(ISRestoreIndices(r, &idx));
  PetscCall(ISDestroy(&r));
  PetscCall(ISDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char     type[64] = "batchrcm";
  PetscInt bs = 2, nb = 240;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "test_block_orderings", NULL);
  PetscCall(PetscOptionsString("-type", "ordering", NULL, type, type, sizeof type, NULL));
  PetscCall(PetscOptionsInt("-bs", "block size", NULL, bs, &bs, NULL));
  PetscCall(PetscOptionsInt("-nb", "block rows", NULL, nb, &nb, NULL));
  PetscOptionsEnd();
  for (MatType mtype : {MATBAIJ, MATSBAIJ}) {
    Mat                   B, twin, Bd;
    std::vector<PetscInt> got, want;
    PetscInt              m;

    PetscCall(Build(mtype, nb, bs, &B, &twin));
    PetscCall(Order(B, type, got));
    PetscCall(Order(twin, type, want));
    PetscCall(MatGetLocalSize(twin, &m, NULL));
    // Every entry a local block row once.
    std::vector<char> seen((std::size_t)m, 0);
    for (const PetscInt v : got) {
      PetscCheck(v >= 0 && v < m && !seen[(std::size_t)v], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s bs %" PetscInt_FMT ": %s gave no permutation of the %" PetscInt_FMT " local block rows", mtype, bs, type, m);
      seen[(std::size_t)v] = 1;
    }
    PetscCheck((PetscInt)got.size() == m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s bs %" PetscInt_FMT ": %s gave %zu entries for %" PetscInt_FMT " local block rows", mtype, bs, type, got.size(), m);
    PetscCheck(got == want, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s bs %" PetscInt_FMT ": %s differs from the ordering of the AIJ matrix of its block pattern", mtype, bs, type);
    MatType btype;
    PetscCall(MatGetDiagonalBlock(B, &Bd));
    PetscCall(MatGetType(Bd, &btype));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s (%s block), bs %" PetscInt_FMT ": %s ordered %" PetscInt_FMT " block rows, equal to the AIJ block pattern's ordering\n", mtype, btype, bs, type, m));
    PetscCall(MatDestroy(&B));
    PetscCall(MatDestroy(&twin));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "Loads a matrix (Matrix Market or PETSc binary) or generates one, prints its\n"
                           "size, nonzeros and norms, and checks a PETSc binary write/read round trip.\n"
                           "  -f <file>            matrix to load (*.mtx or PETSc binary)\n"
                           "  -gen <spec>          generator specification instead of -f\n"
                           "  -expect_rows <n>     -expect_nnz <n>   checks\n"
                           "  -roundtrip <file>    write to this PETSc binary file, load it back, compare\n";

#include <petscgpukit.h>

int main(int argc, char **argv)
{
  char      file[PETSC_MAX_PATH_LEN] = "", spec[256] = "", out[PETSC_MAX_PATH_LEN] = "";
  PetscInt  expect_rows = -1, expect_nnz = -1, M, N;
  PetscBool has_file, has_spec, has_out;
  Mat       A;
  MatInfo   info;
  PetscReal fro;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "test_matrix_io", NULL);
  PetscCall(PetscOptionsString("-f", "matrix file", NULL, file, file, sizeof file, &has_file));
  PetscCall(PetscOptionsString("-gen", "generator spec", NULL, spec, spec, sizeof spec, &has_spec));
  PetscCall(PetscOptionsInt("-expect_rows", "expected rows", NULL, expect_rows, &expect_rows, NULL));
  PetscCall(PetscOptionsInt("-expect_nnz", "expected nonzeros", NULL, expect_nnz, &expect_nnz, NULL));
  PetscCall(PetscOptionsString("-roundtrip", "PETSc binary file for a round trip", NULL, out, out, sizeof out, &has_out));
  PetscOptionsEnd();
  PetscCheck(has_file != has_spec, PETSC_COMM_WORLD, PETSC_ERR_USER, "give exactly one of -f and -gen");
  if (has_file) PetscCall(PetscGpuKitMatLoad(PETSC_COMM_WORLD, file, NULL, &A));
  else PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, NULL, &A));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  PetscCall(MatNorm(A, NORM_FROBENIUS, &fro));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rows %" PetscInt_FMT " cols %" PetscInt_FMT " nnz %.0f frobenius %.6e\n", M, N, info.nz_used, (double)fro));
  if (expect_rows >= 0) PetscCheck(M == expect_rows, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "expected %" PetscInt_FMT " rows", expect_rows);
  if (expect_nnz >= 0) PetscCheck((PetscInt)info.nz_used == expect_nnz, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "expected %" PetscInt_FMT " nonzeros, got %.0f", expect_nnz, info.nz_used);
  if (M == N) {
    PetscBool sym;
    PetscCall(MatIsSymmetric(A, 0.0, &sym));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "symmetric %s\n", sym ? "yes" : "no"));
  }
  if (has_out) {
    PetscViewer viewer;
    Mat         B;
    PetscBool   equal;
    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, out, FILE_MODE_WRITE, &viewer));
    PetscCall(MatView(A, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
    PetscCall(PetscGpuKitMatLoad(PETSC_COMM_WORLD, out, NULL, &B));
    PetscCall(MatEqual(A, B, &equal));
    PetscCheck(equal, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "binary round trip changed the matrix");
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "binary round trip: equal\n"));
    PetscCall(MatDestroy(&B));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "Converts a Matrix Market file or a generator specification to PETSc binary,\n"
                           "which MatLoad() then reads in parallel:\n"
                           "  pgk-convert -f matrix.mtx -o matrix.petsc\n"
                           "  pgk-convert -gen lap3d7:n=200 -o lap200.petsc\n"
                           "  pgk-convert -list      (generator kinds and parameters)\n";

#include <petscgpukit.h>

int main(int argc, char **argv)
{
  char        in[PETSC_MAX_PATH_LEN] = "", spec[256] = "", out[PETSC_MAX_PATH_LEN] = "";
  PetscBool   has_in, has_spec, has_out, list = PETSC_FALSE;
  Mat         A;
  PetscViewer viewer;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "pgk-convert", NULL);
  PetscCall(PetscOptionsString("-f", "input file (*.mtx or PETSc binary)", NULL, in, in, sizeof in, &has_in));
  PetscCall(PetscOptionsString("-gen", "generator specification", NULL, spec, spec, sizeof spec, &has_spec));
  PetscCall(PetscOptionsString("-o", "output PETSc binary file", NULL, out, out, sizeof out, &has_out));
  PetscCall(PetscOptionsBool("-list", "list generator kinds", NULL, list, &list, NULL));
  PetscOptionsEnd();
  if (list) {
    PetscCall(PetscGpuKitGeneratorList(PETSC_VIEWER_STDOUT_WORLD));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCheck(has_in != has_spec && has_out, PETSC_COMM_WORLD, PETSC_ERR_USER, "usage: pgk-convert (-f <in> | -gen <spec>) -o <out>");
  if (has_in) PetscCall(PetscGpuKitMatLoad(PETSC_COMM_WORLD, in, NULL, &A));
  else PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, NULL, &A));
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, out, FILE_MODE_WRITE, &viewer));
  PetscCall(MatView(A, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

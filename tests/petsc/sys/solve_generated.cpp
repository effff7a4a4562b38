static const char help[] = "Solves A x = b for a generated matrix with whatever KSP and PC the options name, as a plain\n"
                           "PETSc client would (x random, b = A x); with -ksp_converged_reason its output is what\n"
                           "tests/support/compare_iterations.sh compares between two configurations.\n"
                           "  -gen <spec>   generator specification (default convdiff2d:n=64,peclet=100)\n";

#include <petscgpukit.h>
#include <petscksp.h>

int main(int argc, char **argv)
{
  char        spec[256] = "convdiff2d:n=64,peclet=100";
  Mat         A;
  Vec         x, b, xtrue;
  KSP         ksp;
  PetscRandom rnd;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", spec, sizeof spec, NULL));
  PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, NULL, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xtrue));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(xtrue, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatMult(A, xtrue, b));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xtrue));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

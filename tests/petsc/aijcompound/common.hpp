// What the aijcompound test programs share: deterministic vector values and a KSP solve from the
// options that reports its iterations.
#pragma once

#include <petscksp.h>

#include <cctype>
#include <cstring>

// v_i = ((i + seed) * 7919 mod 101) / 101 - 0.5 (local index: the same values on every layout).
static inline PetscErrorCode FillVec(Vec v, PetscInt seed)
{
  PetscInt     n;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetArrayWrite(v, &a));
  for (PetscInt i = 0; i < n; ++i) a[i] = (PetscScalar)(((i + seed) * 7919) % 101) / 101.0 - 0.5;
  PetscCall(VecRestoreArrayWrite(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// b = M x for a known x, then KSPSolve from x = 0 with -ksp_* / -pc_*; errors unless converged.
static inline PetscErrorCode Solve(Mat M, const char *name, PetscInt *its)
{
  KSP                ksp;
  Vec                x, b;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(M, &x, &b));
  PetscCall(FillVec(x, 5));
  PetscCall(MatMult(M, x, b));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, M, M));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSP on %s: %s after %" PetscInt_FMT " iterations\n", name, KSPConvergedReasons[reason], *its));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "KSP on %s did not converge", name);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// C (aijcompound) converted back to `type` must equal A exactly: prints ||B - A||_F, then checks 0.
static inline PetscErrorCode CheckConvertBack(Mat A, Mat C, MatType type)
{
  Mat       B;
  PetscReal norm;
  char      what[64];

  PetscFunctionBegin;
  // The conversions' own assemblies answer -mat_view (the user's matrix is viewed by the test itself);
  // PETSc's MPISELL viewer reads uninitialised memory (mpisell.c, under valgrind).
  PetscCall(PetscOptionsPushCreateViewerOff(PETSC_TRUE));
  PetscCall(MatConvert(C, type, MAT_INITIAL_MATRIX, &B));
  if (!std::strstr(type, "aij")) PetscCall(MatConvert(B, MATAIJ, MAT_INPLACE_MATRIX, &B)); // (PETSc's MatAXPY with another pattern: not on MATSELL)
  PetscCall(PetscOptionsPopCreateViewerOff());
  PetscCall(MatAXPY(B, -1.0, A, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(B, NORM_FROBENIUS, &norm));
  // (the type's root name in capitals: seqaij and aij print AIJ)
  const char prefix[] = "MatConvert back to ";
  PetscCall(PetscSNPrintf(what, sizeof what, "%s%s", prefix, type + (std::strncmp(type, "seq", 3) ? 0 : 3)));
  for (char *c = what + sizeof prefix - 1; *c; ++c) *c = (char)std::toupper((unsigned char)*c);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-26s ||B - A||_F = %.2e\n", what, (double)norm));
  PetscCheck(norm == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatConvert back to %s is not the original", type);
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

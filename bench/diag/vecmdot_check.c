/* Does PETSc's VecMDot give the right answer, the same one every call, for every number of vectors?
   GMRES(m) orthogonalises with VecMDot over 1..m vectors; SNES ex19 on CUDA vectors at GMRES(300)
   broke down at its first restart and differed run to run (bench/results/ex19_device_gmres_probe_h100.txt).
   For each nv in -nv_list it calls VecMDot(x, nv, y) -reps times on vectors of length -n (type from
   -vec_type, e.g. cuda) and prints: calls whose result differs bit for bit from the first call, and
   calls with an entry off the per-vector VecDot by more than 1e-8 relatively (a wrong answer, not
   rounding: the sums have n terms of size ~1).
     bench_vecmdot_check -vec_type cuda -n 9604 -reps 2000 -nv_list 30,33,64,127,128,256,257,300
   (at most 1024 counts in -nv_list: PETSc drops the rest without a word). */
#include <petscvec.h>

static PetscErrorCode CheckOneCount(Vec x, PetscInt nv, PetscInt reps, PetscRandom rnd)
{
  Vec         *y;
  PetscScalar *dots, *first, *z;
  PetscInt     changed = 0, wrong = 0;
  PetscReal    worst = 0;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicateVecs(x, nv, &y));
  for (PetscInt j = 0; j < nv; ++j) PetscCall(VecSetRandom(y[j], rnd));
  PetscCall(PetscMalloc3(nv, &dots, nv, &first, nv, &z));
  for (PetscInt j = 0; j < nv; ++j) PetscCall(VecDot(x, y[j], &dots[j]));
  for (PetscInt r = 0; r < reps; ++r) {
    PetscBool differs = PETSC_FALSE, off = PETSC_FALSE;

    PetscCall(VecMDot(x, nv, y, z));
    if (r == 0) PetscCall(PetscArraycpy(first, z, nv));
    for (PetscInt j = 0; j < nv; ++j) {
      const PetscReal err = PetscAbsScalar(z[j] - dots[j]) / PetscMax(PetscAbsScalar(dots[j]), 1.0);

      if (z[j] != first[j]) differs = PETSC_TRUE;
      if (err > 1e-8) off = PETSC_TRUE;
      worst = PetscMax(worst, err);
    }
    changed += differs;
    wrong += off;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "nv %4" PetscInt_FMT ": %6" PetscInt_FMT " calls, %6" PetscInt_FMT " differ from the first, %6" PetscInt_FMT " wrong, worst relative error %.3e\n", nv, reps, changed, wrong, (double)worst));
  PetscCall(PetscFree3(dots, first, z));
  PetscCall(VecDestroyVecs(nv, &y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Vec         x;
  PetscRandom rnd;
  PetscInt    n = 9604, reps = 1000, counts[1024], ncounts = 1024; /* PETSc reads at most ncounts entries of -nv_list, silently */
  VecType     type;
  PetscBool   listed;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-nv_list", counts, &ncounts, &listed));
  if (!listed) {
    const PetscInt fallback[] = {8, 30, 32, 33, 64, 127, 128, 200, 256, 257, 300};

    ncounts = (PetscInt)PETSC_STATIC_ARRAY_LENGTH(fallback);
    for (PetscInt i = 0; i < ncounts; ++i) counts[i] = fallback[i];
  }
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(VecCreate(PETSC_COMM_WORLD, &x));
  PetscCall(VecSetSizes(x, PETSC_DECIDE, n));
  PetscCall(VecSetFromOptions(x));
  PetscCall(VecGetType(x, &type));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "VecMDot check: type %s, n %" PetscInt_FMT "\n", type, n));
  for (PetscInt i = 0; i < ncounts; ++i) PetscCall(CheckOneCount(x, counts[i], reps, rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

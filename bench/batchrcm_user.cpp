static const char help[] = "MatGetOrdering as a user calls it: a plain PETSc program (linked to PETSc only; petscgpukit comes\n"
                           "with -dll_append) assembles the 3D 7-point Laplacian on an n^3 grid with MatSetValues, no symmetry\n"
                           "flag set (as most applications leave it), and times MatGetOrdering for each ordering type.\n"
                           "The same binary, given the libraries of two commits, compares them on equal terms.\n"
                           "Options: -n <100>, -runs <10> (timed, after one untimed warm-up), -types <rcm,batchrcm>,\n"
                           "  -flag_structurally_symmetric (set MAT_STRUCTURALLY_SYMMETRIC first), -nonsymmetric (odd rows drop\n"
                           "  their coupling to the plane below), and the orderings' own\n"
                           "  options (-mat_ordering_batchrcm_backend, _threads, _view).\n";

#include <petscmat.h>
#include <petsctime.h>

#include <algorithm>
#include <vector>

// nonsymmetric: odd rows drop their coupling to the plane below, so the pattern is not symmetric
// and the ordering runs on pattern(A + A^T).
static PetscErrorCode AssembleLaplacian3d(PetscInt n, PetscBool nonsymmetric, Mat *A)
{
  const PetscInt N = n * n * n;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, 7, NULL, A));
  for (PetscInt k = 0; k < n; ++k)
    for (PetscInt j = 0; j < n; ++j)
      for (PetscInt i = 0; i < n; ++i) {
        const PetscInt row = (k * n + j) * n + i;
        PetscInt       cols[7], m = 0;
        PetscScalar    vals[7];
        if (k > 0 && !(nonsymmetric && row % 2)) cols[m] = row - n * n, vals[m++] = -1;
        if (j > 0) cols[m] = row - n, vals[m++] = -1;
        if (i > 0) cols[m] = row - 1, vals[m++] = -1;
        cols[m] = row, vals[m++] = 6;
        if (i < n - 1) cols[m] = row + 1, vals[m++] = -1;
        if (j < n - 1) cols[m] = row + n, vals[m++] = -1;
        if (k < n - 1) cols[m] = row + n * n, vals[m++] = -1;
        PetscCall(MatSetValues(*A, 1, &row, m, cols, vals, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Median, min and max of `runs` timed calls after one warm-up, and a hash of the row
// permutation (equal hashes: the same ordering from both libraries).
static PetscErrorCode TimeOrdering(Mat A, const char *type, PetscInt runs)
{
  std::vector<double> t;
  unsigned long long  hash = 1469598103934665603ull;

  PetscFunctionBegin;
  for (PetscInt r = -1; r < runs; ++r) {
    IS              row, col;
    PetscLogDouble  t0, t1;
    const PetscInt *idx;
    PetscInt        len;
    PetscCall(PetscTime(&t0));
    PetscCall(MatGetOrdering(A, type, &row, &col));
    PetscCall(PetscTime(&t1));
    if (r >= 0) t.push_back(t1 - t0);
    if (r == runs - 1) {
      PetscCall(ISGetLocalSize(row, &len));
      PetscCall(ISGetIndices(row, &idx));
      for (PetscInt i = 0; i < len; ++i) hash = (hash ^ (unsigned long long)idx[i]) * 1099511628211ull;
      PetscCall(ISRestoreIndices(row, &idx));
    }
    PetscCall(ISDestroy(&row));
    PetscCall(ISDestroy(&col));
  }
  std::sort(t.begin(), t.end());
  const double median = t.empty() ? 0 : t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "MatGetOrdering %-10s median %.4f s  min %.4f s  max %.4f s  (%" PetscInt_FMT " runs)  permutation hash %016llx\n", type, median, t.empty() ? 0 : t.front(), t.empty() ? 0 : t.back(), runs, hash));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat       A;
  PetscInt  n = 100, runs = 10, ntypes = 8;
  char     *types[8];
  PetscBool flag = PETSC_FALSE, nonsym = PETSC_FALSE, set;
  MatInfo   info;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_batchrcm_user", NULL);
  PetscCall(PetscOptionsInt("-n", "grid points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-runs", "timed runs per ordering", NULL, runs, &runs, NULL));
  PetscCall(PetscOptionsStringArray("-types", "ordering types", NULL, types, &ntypes, &set));
  PetscCall(PetscOptionsBool("-nonsymmetric", "odd rows drop their coupling to the plane below", NULL, nonsym, &nonsym, NULL));
  PetscCall(PetscOptionsBool("-flag_structurally_symmetric", "set MAT_STRUCTURALLY_SYMMETRIC", NULL, flag, &flag, NULL));
  PetscOptionsEnd();
  if (!set) {
    ntypes = 2;
    PetscCall(PetscStrallocpy(MATORDERINGRCM, &types[0]));
    PetscCall(PetscStrallocpy("batchrcm", &types[1]));
  }
  PetscCall(AssembleLaplacian3d(n, nonsym, &A));
  if (flag) PetscCall(MatSetOption(A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "lap3d7 n=%" PetscInt_FMT ": %" PetscInt_FMT " rows, %.0f nonzeros%s, structural symmetry flag %s\n", n, n * n * n, (double)info.nz_used, nonsym ? " (nonsymmetric pattern)" : "", flag ? "set" : "unset"));
  for (PetscInt k = 0; k < ntypes; ++k) {
    PetscCall(TimeOrdering(A, types[k], runs));
    PetscCall(PetscFree(types[k]));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

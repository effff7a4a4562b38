static const char help[] = "Mat aijcompound on the device: every operation with device vectors against the AIJ original,\n"
                           "the transfers of the steady state, the tuner and its cache, COO assembly with device values:\n"
                           "  -gen <spec>          generator specification (default elast3d:n=6)\n"
                           "  -corrupt_cache       write garbage into the -mat_aijcompound_tune_cache file first\n"
                           "  -fresh_cache         remove the -mat_aijcompound_tune_cache file first\n"
                           "  -coo                 also assemble by MatSetPreallocationCOO / MatSetValuesCOO (device values)\n"
                           "  -solve               KSP from the options (-ksp_type, -pc_type) on both: the same iteration count\n";

#include <petscdevice_cuda.h>
#include <petscgpukit.h>
#include <petscksp.h>

#include "tests/petsc/aijcompound/common.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

static const PetscReal kTol = 1e-13;

// ||u - v|| <= kTol ||u|| for vectors of any types (read on the host).
static PetscErrorCode Compare(const char *what, Vec u, Vec v)
{
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscReal          nu = 0, nd = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(v, &b));
  for (PetscInt i = 0; i < n; ++i) nu += PetscRealPart(a[i] * a[i]), nd += PetscRealPart((a[i] - b[i]) * (a[i] - b[i]));
  PetscCall(VecRestoreArrayRead(v, &b));
  PetscCall(VecRestoreArrayRead(u, &a));
  nu = PetscSqrtReal(nu), nd = PetscSqrtReal(nd);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-28s relative difference %.2e\n", what, (double)(nu > 0 ? nd / nu : nd)));
  PetscCheck(nd <= kTol * nu, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s differs from the original's", what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Pair {
  Vec x, z, y; // A's (host) and C's (device) copies of the same values
};

static PetscErrorCode MakePair(Mat M, Pair *p)
{
  PetscFunctionBegin;
  PetscCall(MatCreateVecs(M, &p->x, &p->y));
  PetscCall(VecDuplicate(p->y, &p->z));
  PetscCall(FillVec(p->x, 1));
  PetscCall(FillVec(p->z, 2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DestroyPair(Pair *p)
{
  PetscFunctionBegin;
  for (Vec *v : {&p->x, &p->z, &p->y}) PetscCall(VecDestroy(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The four products of C (device vectors) against A (host vectors).
static PetscErrorCode CheckProducts(const char *tag, Mat A, Mat C)
{
  Pair a, c;
  char what[80];

  PetscFunctionBegin;
  PetscCall(MakePair(A, &a));
  PetscCall(MakePair(C, &c));
  PetscCall(MatMult(A, a.x, a.y));
  PetscCall(MatMult(C, c.x, c.y));
  PetscCall(PetscSNPrintf(what, sizeof what, "%sMatMult", tag));
  PetscCall(Compare(what, a.y, c.y));
  PetscCall(MatMultAdd(A, a.x, a.z, a.y));
  PetscCall(MatMultAdd(C, c.x, c.z, c.y));
  PetscCall(PetscSNPrintf(what, sizeof what, "%sMatMultAdd", tag));
  PetscCall(Compare(what, a.y, c.y));
  PetscCall(MatMultAdd(A, a.x, a.y, a.y));
  PetscCall(MatMultAdd(C, c.x, c.y, c.y));
  PetscCall(PetscSNPrintf(what, sizeof what, "%sMatMultAdd (z = y)", tag));
  PetscCall(Compare(what, a.y, c.y));
  PetscCall(MatMultTranspose(A, a.x, a.y));
  PetscCall(MatMultTranspose(C, c.x, c.y));
  PetscCall(PetscSNPrintf(what, sizeof what, "%sMatMultTranspose", tag));
  PetscCall(Compare(what, a.y, c.y));
  PetscCall(MatMultTransposeAdd(A, a.x, a.z, a.y));
  PetscCall(MatMultTransposeAdd(C, c.x, c.z, c.y));
  PetscCall(PetscSNPrintf(what, sizeof what, "%sMatMultTransposeAdd", tag));
  PetscCall(Compare(what, a.y, c.y));
  PetscCall(DestroyPair(&a));
  PetscCall(DestroyPair(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Once the layout is chosen and the transpose built, products on device vectors move nothing.
static PetscErrorCode CheckSteadyTransfers(Mat C)
{
  Pair           c;
  PetscLogDouble ctog, gtoc;
  VecType        vt;

  PetscFunctionBegin;
  PetscCall(MakePair(C, &c));
  PetscCall(VecGetType(c.x, &vt));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "vectors of C: %s\n", vt));
  // Each product once first: the vectors were filled on the host, so their first use uploads them.
  PetscCall(MatMult(C, c.x, c.y));
  PetscCall(MatMultAdd(C, c.x, c.z, c.y));
  PetscCall(MatMultTranspose(C, c.x, c.y));
  ctog = petsc_ctog_ct, gtoc = petsc_gtoc_ct;
  for (int k = 0; k < 5; ++k) {
    PetscCall(MatMult(C, c.x, c.y));
    PetscCall(MatMultAdd(C, c.x, c.z, c.y));
    PetscCall(MatMultTranspose(C, c.x, c.y));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "steady-state transfers: ctog=%.0f gtoc=%.0f\n", petsc_ctog_ct - ctog, petsc_gtoc_ct - gtoc));
  PetscCheck(petsc_ctog_ct == ctog && petsc_gtoc_ct == gtoc, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "products on device vectors copied data between host and device");
  PetscCall(DestroyPair(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckDiagonalsAndUpdates(Mat A, Mat C)
{
  Vec                da, dc, la, ra, lc, rc;
  const PetscScalar *i1, *i2;
  PetscInt           bs, n;
  PetscReal          diff = 0, norm = 0;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, NULL, &da));
  PetscCall(MatCreateVecs(C, NULL, &dc));
  PetscCall(MatGetDiagonal(A, da));
  PetscCall(MatGetDiagonal(C, dc));
  PetscCall(Compare("MatGetDiagonal", da, dc));
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(MatGetLocalSize(A, &n, NULL));
  PetscCall(MatInvertBlockDiagonal(A, &i1));
  PetscCall(MatInvertBlockDiagonal(C, &i2));
  for (PetscInt k = 0; k < n * bs; ++k) diff = PetscMax(diff, PetscAbsScalar(i1[k] - i2[k])), norm = PetscMax(norm, PetscAbsScalar(i1[k]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-28s relative difference %.2e\n", "MatInvertBlockDiagonal", (double)(diff / norm)));
  PetscCheck(diff <= kTol * norm, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatInvertBlockDiagonal differs");
  PetscCall(MatCreateVecs(A, &ra, &la));
  PetscCall(MatCreateVecs(C, &rc, &lc));
  for (Vec v : {la, lc, ra, rc}) {
    PetscCall(FillVec(v, v == la || v == lc ? 3 : 4));
    PetscCall(VecShift(v, 2.0));
  }
  PetscCall(MatScale(A, 2.5));
  PetscCall(MatShift(A, 1.5));
  PetscCall(MatDiagonalScale(A, la, ra));
  PetscCall(MatScale(C, 2.5));
  PetscCall(MatShift(C, 1.5));
  PetscCall(MatDiagonalScale(C, lc, rc));
  PetscCall(CheckProducts("scaled: ", A, C));
  PetscCall(CheckConvertBack(A, C, MATSEQAIJ)); // the device operations' values, exactly AIJ's
  for (Vec *v : {&da, &dc, &la, &ra, &lc, &rc}) PetscCall(VecDestroy(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The tuner: an explicit MatAIJCompoundTune searches (or reads the cache), a second matrix of the
// same shape class takes the cached winner without a search.
static PetscErrorCode CheckTuning(Mat A, Mat C)
{
  const char *variant, *source;
  PetscReal   gbs;
  Mat         D;
  Vec         x, y;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundTune(C));
  PetscCall(MatAIJCompoundGetTuning(C, &variant, &source, &gbs));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "first matrix: %s (%s)%s\n", variant, source, gbs > 0 ? ", GB/s measured" : ""));
  PetscCall(MatConvert(A, MATAIJCOMPOUND, MAT_INITIAL_MATRIX, &D));
  PetscCall(MatSetOptionsPrefix(D, NULL)); // the command line's -mat_aijcompound_* (not orig_'s)
  PetscCall(MatCreateVecs(D, &x, &y));
  PetscCall(FillVec(x, 1));
  PetscCall(MatMult(D, x, y));
  PetscCall(MatAIJCompoundGetTuning(D, &variant, &source, &gbs));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "second matrix: %s (%s)\n", variant, source));
  PetscCall(MatViewFromOptions(D, NULL, "-second_view"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A's entries through MatSetPreallocationCOO (every entry twice, each time half its value, and
// one ignored entry) and MatSetValuesCOO with device values; then new values, no transfers.
static PetscErrorCode CheckCOO(Mat A)
{
  const PetscInt    *ai, *aj;
  const PetscScalar *av;
  PetscInt           n, bs, nnz;
  PetscBool          done;
  Mat                C, H;
  Vec                vals;
  PetscScalar       *h;
  const PetscScalar *d;
  PetscLogDouble     ctog, gtoc;

  PetscFunctionBegin;
  // The coordinates from a host SEQAIJ copy of A (A may be a device type).
  PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &H));
  PetscCall(MatGetRowIJ(H, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRowIJ failed on the SEQAIJ copy");
  PetscCall(MatSeqAIJGetArrayRead(H, &av));
  PetscCall(MatGetBlockSize(A, &bs));
  nnz = ai[n];
  std::vector<PetscInt> ci(2 * nnz + 1), cj(2 * nnz + 1);
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, 2 * nnz + 1, &vals));
  PetscCall(VecGetArrayWrite(vals, &h));
  for (PetscInt r = 0; r < n; ++r)
    for (PetscInt k = ai[r]; k < ai[r + 1]; ++k) {
      ci[k] = ci[nnz + k] = r;
      cj[k] = cj[nnz + k] = aj[k];
      h[k] = h[nnz + k] = av[k] / 2;
    }
  ci[2 * nnz] = -1, cj[2 * nnz] = 0, h[2 * nnz] = 1e300; // ignored (negative row)
  PetscCall(VecRestoreArrayWrite(vals, &h));
  PetscCall(MatSeqAIJRestoreArrayRead(H, &av));
  {
    PetscInt nrestore; // MatRestoreRowIJ zeroes the count it is given: n is still needed below
    PetscCall(MatRestoreRowIJ(H, 0, PETSC_FALSE, PETSC_FALSE, &nrestore, &ai, &aj, &done));
  }
  PetscCall(MatDestroy(&H));
  PetscCall(MatCreate(PETSC_COMM_SELF, &C));
  PetscCall(MatSetSizes(C, n, n, n, n));
  PetscCall(MatSetBlockSize(C, bs));
  PetscCall(MatSetType(C, MATAIJCOMPOUND));
  {
    PetscInt m, mc;
    MatType  ct;
    PetscCall(MatGetLocalSize(C, &m, &mc));
    PetscCall(MatGetType(C, &ct));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "COO: %" PetscInt_FMT " rows of A, C %s with %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " entries\n", n, ct, m, mc, 2 * nnz + 1));
  }
  PetscCall(MatSetPreallocationCOO(C, 2 * nnz + 1, ci.data(), cj.data()));
  PetscCall(VecCUDAGetArrayRead(vals, &d));
  PetscCall(MatSetValuesCOO(C, d, INSERT_VALUES));
  PetscCall(CheckProducts("COO: ", A, C));
  ctog = petsc_ctog_ct, gtoc = petsc_gtoc_ct;
  PetscCall(MatSetValuesCOO(C, d, ADD_VALUES)); // 2 C
  PetscCall(MatSetValuesCOO(C, d, ADD_VALUES)); // 3 C
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "COO re-assembly transfers: ctog=%.0f gtoc=%.0f\n", petsc_ctog_ct - ctog, petsc_gtoc_ct - gtoc));
  PetscCall(VecCUDARestoreArrayRead(vals, &d));
  PetscCall(MatScale(A, 3.0));
  PetscCall(CheckProducts("COO re-assembled: ", A, C));
  PetscCall(MatScale(A, 1.0 / 3.0));
  { // host values into the device matrix: uploaded, every coordinate's value (the ignored last one too)
    const PetscScalar *hv;
    PetscCall(VecGetArrayRead(vals, &hv));
    PetscCall(MatSetValuesCOO(C, hv, INSERT_VALUES));
    PetscCall(VecRestoreArrayRead(vals, &hv));
  }
  PetscCall(CheckProducts("COO host values: ", A, C));
  PetscCall(MatViewFromOptions(C, NULL, "-coo_view"));
  PetscCall(MatDestroy(&C));
  PetscCall(VecDestroy(&vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char        spec[256] = "elast3d:n=6", cache[PETSC_MAX_PATH_LEN] = "";
  PetscBool   corrupt = PETSC_FALSE, coo = PETSC_FALSE, solve = PETSC_FALSE, fresh = PETSC_FALSE, symmetric = PETSC_FALSE, unsymmetrize = PETSC_FALSE;
  const char *variant, *source;
  Mat         A, C;
  PetscInt    its_a, its_c;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", spec, sizeof spec, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-corrupt_cache", &corrupt, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-coo", &coo, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-solve", &solve, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fresh_cache", &fresh, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-set_symmetric", &symmetric, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-unsymmetrize", &unsymmetrize, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_aijcompound_tune_cache", cache, sizeof cache, NULL));
  if (fresh && cache[0]) std::remove(cache);
  if (corrupt && cache[0]) {
    FILE *f = std::fopen(cache, "w");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", cache);
    std::fputs("# petscgpukit aijcompound tuning cache v1\nNVIDIA 132 block 3 9 20 5 ELL SoA static 256 8 1 nan-and-more words\n", f);
    std::fclose(f);
  }
  PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, "orig_", &A));
  if (unsymmetrize) { // one stored scalar of row 0 changed (column bs: the next block, stored by every block generator here)
    PetscInt bs;
    PetscCall(MatGetBlockSize(A, &bs));
    PetscCall(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_FALSE));
    PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_FALSE));
    PetscCall(MatSetValue(A, 0, bs, 0.5, ADD_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(MatConvert(A, MATAIJCOMPOUND, MAT_INITIAL_MATRIX, &C));
  // A converted matrix takes its source's prefix (orig_); the options this test gives are unprefixed.
  PetscCall(MatSetOptionsPrefix(C, NULL));
  if (symmetric) PetscCall(MatSetOption(C, MAT_SYMMETRIC, PETSC_TRUE)); // what makes SYM a candidate by default
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "converted %s\n", spec));
  PetscCall(CheckProducts("", A, C));
  PetscCall(CheckSteadyTransfers(C));
  PetscCall(MatViewFromOptions(C, NULL, "-mat_view"));
  PetscCall(CheckTuning(A, C));
  if (solve) {
    PetscCall(Solve(A, "aij", &its_a));
    PetscCall(Solve(C, "aijcompound", &its_c));
    PetscCheck(its_a == its_c, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ: %" PetscInt_FMT " on aij, %" PetscInt_FMT " on aijcompound", its_a, its_c);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "same iteration count\n"));
  }
  PetscCall(CheckDiagonalsAndUpdates(A, C));
  // MatDiagonalScale with l != r left C unsymmetric: a SYM product must have moved to CSR
  PetscCall(MatAIJCompoundGetTuning(C, &variant, &source, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after the updates: %s (%s)\n", variant, source));
  if (coo) PetscCall(CheckCOO(A));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&C));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "Converts a matrix to MATAIJCOMPOUND and checks it against the original:\n"
                           "  -gen <spec>             generator specification (default elast3d:n=5), or\n"
                           "  -build complex|quaternion  a matrix with that 2x2 / 4x4 block structure, built here\n"
                           "  -perturb                break the structure of one block of -build's matrix (block row 5: rank 0's)\n"
                           "  -empty_last_rank        -build's matrices with no rows on the last rank\n"
                           "  -from aij|baij          convert from the AIJ original or a MATSEQBAIJ copy of it\n"
                           "  -inplace                MatConvert(..., MAT_INPLACE_MATRIX) on a copy\n"
                           "  -convert_type <aijcompound>  the type MatConvert is asked for (mpicompoundaij: the MPI type on any rank count)\n"
                           "  -assembled              instead of converting, generate the matrix again through MatSetFromOptions\n"
                           "                          (-mat_type aijcompound: assembled by MatSetValues; -build: block row I set by\n"
                           "                          rank I %% size, so most values are other ranks'); the original uses prefix orig_\n"
                           "  -check                  every operation against the original (relative 1e-13)\n"
                           "  -reassemble <true>      with -check: MatScale, then new values by MatSetValues, assembled again\n"
                           "  -solve                  KSP (-ksp_*, -pc_*) on the original and on the converted matrix:\n"
                           "                          the same iteration count\n"
                           "  -solve_converted_only   -solve on the converted matrix only (for a PC the original's type lacks)\n"
                           "  -factor_steps lu|ilu|cholesky|icc  the factorization's steps called one by one on both (one rank):\n"
                           "                          symbolic, new values, numeric, solve; new values, numeric, solve (relative 1e-13)\n"
                           "  -bind_check             where the converted matrix computes, as made, after MatBindToCPU(C, PETSC_TRUE)\n"
                           "                          (and a re-assembly) and after MatBindToCPU(C, PETSC_FALSE); MatMult against the original\n"
                           "  -mat_view ::ascii_info  views the converted matrix\n";

#include <petscgpukit.h>
#include <petscksp.h>

#include "tests/petsc/aijcompound/common.hpp"

#include <cmath>
#include <cstring>
#include <vector>

static const PetscReal kTol = 1e-13;

// Entry (block row I, block column J) of the built matrices: complex (a, b) or quaternion (w, x, y, z).
static void BuiltEntry(PetscInt I, PetscInt J, PetscInt esize, PetscScalar *q)
{
  for (PetscInt c = 0; c < esize; ++c) q[c] = (PetscScalar)(((I * 31 + J * 17 + c * 7) % 13) - 6) / 8.0;
  if (I == J) q[0] = 20.0;
}

// The real block of an entry, row-major (MatSetValues' default order).
static void ExpandEntry(PetscInt bs, const PetscScalar *q, PetscScalar *blk)
{
  if (bs == 2) {
    const PetscScalar v[4] = {q[0], -q[1], q[1], q[0]};
    for (int i = 0; i < 4; ++i) blk[i] = v[i];
    return;
  }
  const PetscScalar w = q[0], x = q[1], y = q[2], z = q[3];
  const PetscScalar v[16] = {w, -x, -y, -z, x, w, -z, y, y, z, w, -x, z, -y, x, w};
  for (int i = 0; i < 16; ++i) blk[i] = v[i];
}

// Block rows of this rank among nb: PETSc's split, or with empty_last none on the last rank.
static PetscErrorCode LocalBlockRows(PetscInt nb, PetscBool empty_last, PetscInt *mb)
{
  PetscMPIInt rank, size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  *mb = PETSC_DECIDE;
  if (!empty_last || size == 1) PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, mb, &nb));
  else *mb = rank == size - 1 ? 0 : nb / (size - 1) + (rank < nb % (size - 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A MATAIJ (-[prefix]mat_type) with block size 2 (complex) or 4 (quaternion) whose blocks have that
// form: block rows I with blocks at I-1, I, I+1 and (7 I + 3) mod nb. Each rank sets its own block
// rows, or with offproc block row I is set by rank I % size.
static PetscErrorCode BuildStructured(const char *which, PetscBool perturb, const char *prefix, PetscBool offproc, PetscBool empty_last, Mat *A)
{
  const PetscInt        bs = !std::strcmp(which, "complex") ? 2 : 4, nb = 40;
  PetscScalar           q[4], blk[16];
  PetscInt              mb, rstart, rend;
  PetscMPIInt           rank, size;
  std::vector<PetscInt> nnz;

  PetscFunctionBegin;
  PetscCheck(!std::strcmp(which, "complex") || !std::strcmp(which, "quaternion"), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-build complex|quaternion");
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(LocalBlockRows(nb, empty_last, &mb));
  nnz.assign((size_t)mb + 1, 4); // blocks per block row, at most 4 in each part
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, mb * bs, mb * bs, nb * bs, nb * bs));
  PetscCall(MatSetBlockSize(*A, bs));
  if (prefix) PetscCall(MatSetOptionsPrefix(*A, prefix));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatXAIJSetPreallocation(*A, bs, nnz.data(), nnz.data(), NULL, NULL));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt I = 0; I < nb; ++I) {
    const PetscInt cols[4] = {I - 1, I, I + 1, (7 * I + 3) % nb};
    if (offproc ? I % size != rank : I * bs < rstart || I * bs >= rend) continue;
    for (PetscInt J : cols) {
      PetscInt r[4], c[4];
      if (J < 0 || J >= nb) continue;
      BuiltEntry(I, J, bs, q);
      ExpandEntry(bs, q, blk);
      if (perturb && I == 5 && J == 5) blk[1] += 1.0; // no longer [a -b; b a] / L(q)
      for (PetscInt k = 0; k < bs; ++k) r[k] = I * bs + k, c[k] = J * bs + k;
      PetscCall(MatSetValues(*A, bs, r, bs, c, blk, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ||u - v|| and ||u||.
static PetscErrorCode Difference(Vec u, Vec v, PetscReal *nd, PetscReal *nu)
{
  Vec d;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(u, &d));
  PetscCall(VecWAXPY(d, -1.0, u, v));
  PetscCall(VecNorm(u, NORM_2, nu));
  PetscCall(VecNorm(d, NORM_2, nd));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Fails unless ||u - v|| <= kTol ||u||.
static PetscErrorCode Compare(const char *what, Vec u, Vec v)
{
  PetscReal nu, nd;

  PetscFunctionBegin;
  PetscCall(Difference(u, v, &nd, &nu));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-26s relative difference %.2e\n", what, (double)(nu > 0 ? nd / nu : nd)));
  PetscCheck(nd <= kTol * nu, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s differs from the original's", what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatMult, MatMultAdd (z != y and z == y), MatMultTranspose(Add) of A and C agree.
static PetscErrorCode CheckProducts(const char *tag, Mat A, Mat C)
{
  Vec  x, z, y1, y2;
  char what[64];

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &y1));
  PetscCall(VecDuplicate(y1, &y2));
  PetscCall(VecDuplicate(y1, &z));
  PetscCall(FillVec(x, 1));
  PetscCall(FillVec(z, 2));
  PetscCall(MatMult(A, x, y1));
  PetscCall(MatMult(C, x, y2));
  PetscCall(PetscSNPrintf(what, sizeof what, "%sMatMult", tag));
  PetscCall(Compare(what, y1, y2));
  PetscCall(MatMultAdd(A, x, z, y1));
  PetscCall(MatMultAdd(C, x, z, y2));
  PetscCall(PetscSNPrintf(what, sizeof what, "%sMatMultAdd", tag));
  PetscCall(Compare(what, y1, y2));
  PetscCall(MatMultAdd(A, x, y1, y1));
  PetscCall(MatMultAdd(C, x, y2, y2));
  PetscCall(PetscSNPrintf(what, sizeof what, "%sMatMultAdd (z = y)", tag));
  PetscCall(Compare(what, y1, y2));
  PetscCall(MatMultTranspose(A, x, y1));
  PetscCall(MatMultTranspose(C, x, y2));
  PetscCall(PetscSNPrintf(what, sizeof what, "%sMatMultTranspose", tag));
  PetscCall(Compare(what, y1, y2));
  // The reference is the original's MatMultTranspose plus z, not its MatMultTransposeAdd: from an
  // MPIAIJCUSPARSE original on 2 ranks (PETSc 3.26.1, H100) the two MatMultTransposeAdd results
  // differed by 0.51 relative while every other product agreed. The compound product must match
  // the reference; how far the original's own MatMultTransposeAdd is from it is printed (info).
  PetscCall(MatMultTranspose(A, x, y1));
  PetscCall(VecAXPY(y1, 1.0, z));
  PetscCall(MatMultTransposeAdd(C, x, z, y2));
  PetscCall(PetscSNPrintf(what, sizeof what, "%sMatMultTransposeAdd", tag));
  PetscCall(Compare(what, y1, y2));
  PetscCall(MatMultTransposeAdd(A, x, z, y2));
  {
    PetscReal nd, ny;
    PetscCall(Difference(y1, y2, &nd, &ny));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "info: the original's own MatMultTransposeAdd vs its MatMultTranspose + z: relative %.2e\n", (double)(ny > 0 ? nd / ny : nd)));
  }
  for (Vec *v : {&x, &z, &y1, &y2}) PetscCall(VecDestroy(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckDiagonals(Mat A, Mat C)
{
  Vec                d1, d2;
  const PetscScalar *i1, *i2;
  PetscInt           bs, n;
  PetscReal          dn[2] = {0, 0}; // max difference, max entry over all ranks

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, NULL, &d1));
  PetscCall(VecDuplicate(d1, &d2));
  PetscCall(MatGetDiagonal(A, d1));
  PetscCall(MatGetDiagonal(C, d2));
  PetscCall(Compare("MatGetDiagonal", d1, d2));
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(MatGetLocalSize(A, &n, NULL));
  PetscCall(MatInvertBlockDiagonal(A, &i1));
  PetscCall(MatInvertBlockDiagonal(C, &i2));
  for (PetscInt k = 0; k < n * bs; ++k) dn[0] = PetscMax(dn[0], PetscAbsScalar(i1[k] - i2[k])), dn[1] = PetscMax(dn[1], PetscAbsScalar(i1[k]));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, dn, 2, MPIU_REAL, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-26s relative difference %.2e\n", "MatInvertBlockDiagonal", (double)(dn[0] / dn[1])));
  PetscCheck(dn[0] <= kTol * dn[1], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatInvertBlockDiagonal differs from the original's");
  PetscCall(VecDestroy(&d1));
  PetscCall(VecDestroy(&d2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Scale, shift, diagonal scaling (vectors varying inside blocks) on both, then the products again
// (the cached transpose must follow), then conversion back, MatDuplicate and MatAXPY.
static PetscErrorCode CheckUpdates(Mat A, Mat C)
{
  Vec       l, r;
  Mat       B, D;
  PetscReal norm;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &r, &l));
  PetscCall(FillVec(l, 3));
  PetscCall(FillVec(r, 4));
  PetscCall(VecShift(l, 2.0));
  PetscCall(VecShift(r, 2.0));
  for (Mat M : {A, C}) {
    PetscCall(MatScale(M, 2.5));
    PetscCall(MatShift(M, 1.5));
    PetscCall(MatDiagonalScale(M, l, r));
  }
  PetscCall(CheckProducts("scaled: ", A, C));
  PetscCall(CheckConvertBack(A, C, MATAIJ));
  for (MatType t : {MATBAIJ, MATDENSE, MATSELL}) PetscCall(CheckConvertBack(A, C, t)); // (through the expansion, converted in place by PETSc)
  PetscCall(MatDuplicate(C, MAT_COPY_VALUES, &D));
  PetscCall(CheckProducts("duplicate: ", A, D));
  PetscCall(MatAXPY(D, -1.0, C, SAME_NONZERO_PATTERN));
  PetscCall(MatConvert(D, MATAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatNorm(B, NORM_FROBENIUS, &norm));
  PetscCheck(norm == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatAXPY(D, -1, C) is not zero");
  // without SAME_NONZERO_PATTERN (the MPI type goes through MATMPIAIJ): D = 0 + 2 C = 2 A exactly
  PetscCall(MatAXPY(D, 2.0, C, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatDestroy(&B));
  PetscCall(MatConvert(D, MATAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatAXPY(B, -2.0, A, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(B, NORM_FROBENIUS, &norm));
  PetscCheck(norm == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatAXPY(D, 2, C, DIFFERENT_NONZERO_PATTERN) is not 2 A");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatDuplicate, MatAXPY: ok\n"));
  for (Mat *M : {&B, &D}) PetscCall(MatDestroy(M));
  PetscCall(VecDestroy(&l));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// New values by MatSetValues after an in-place change (MatScale): the values-only re-assembly.
static PetscErrorCode CheckReassembly(Mat A, Mat C)
{
  PetscFunctionBegin;
  for (Mat M : {A, C}) {
    PetscCall(MatScale(M, 2.0));
    PetscCall(MatSetValue(M, 0, 0, 1.0, ADD_VALUES));
    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatSetValue(M, 1, 1, -0.5, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(CheckProducts("reassembled: ", A, C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// "yes", "no" or "mixed": flag over the ranks of comm.
static PetscErrorCode OnEveryRank(MPI_Comm comm, PetscBool flag, const char **word)
{
  int all = flag ? 1 : 0, any = all;

  PetscFunctionBegin;
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, comm));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_LOR, comm));
  *word = all ? "yes" : any ? "mixed" : "no";
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Where C computes (-bind_check): C's binding and its diagonal block's, the type of MatCreateVecs'
// vectors, and whether MatMult leaves its result current on the device only; the product is
// checked against A's.
static PetscErrorCode ReportWhere(const char *when, Mat A, Mat C)
{
  MPI_Comm         comm = PetscObjectComm((PetscObject)C);
  Mat              Cd;
  PetscBool        bound, block_bound;
  Vec              x, y, ya;
  VecType          vt;
  PetscOffloadMask mask;
  const char      *w[3];
  char             what[64];

  PetscFunctionBegin;
  PetscCall(MatBoundToCPU(C, &bound));
  PetscCall(MatGetDiagonalBlock(C, &Cd));
  PetscCall(MatBoundToCPU(Cd, &block_bound));
  PetscCall(MatCreateVecs(C, &x, &y));
  PetscCall(VecDuplicate(y, &ya));
  PetscCall(FillVec(x, 1));
  PetscCall(MatMult(C, x, y));
  PetscCall(VecGetOffloadMask(y, &mask));
  PetscCall(VecGetType(y, &vt));
  PetscCall(OnEveryRank(comm, bound, &w[0]));
  PetscCall(OnEveryRank(comm, block_bound, &w[1]));
  PetscCall(OnEveryRank(comm, mask == PETSC_OFFLOAD_GPU ? PETSC_TRUE : PETSC_FALSE, &w[2]));
  PetscCall(PetscPrintf(comm, "%s: bound to the CPU %s, diagonal block %s, vectors %s, MatMult result on the device only %s\n", when, w[0], w[1], vt, w[2]));
  PetscCall(MatMult(A, x, ya));
  PetscCall(PetscSNPrintf(what, sizeof what, "MatMult (%s)", when));
  PetscCall(Compare(what, ya, y));
  for (Vec *v : {&x, &y, &ya}) PetscCall(VecDestroy(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatBindToCPU on C: as made, bound (and rebuilt while bound: the binding outlives the new blocks),
// unbound again.
static PetscErrorCode CheckBinding(Mat A, Mat C)
{
  PetscFunctionBegin;
  PetscCall(ReportWhere("as made", A, C));
  PetscCall(MatBindToCPU(C, PETSC_TRUE));
  PetscCall(ReportWhere("bound", A, C));
  PetscCall(CheckReassembly(A, C));
  PetscCall(ReportWhere("bound, reassembled", A, C));
  PetscCall(MatBindToCPU(C, PETSC_FALSE));
  PetscCall(ReportWhere("unbound", A, C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The factorization's steps as a user calls them, with the values changed between the symbolic and
// the numeric step and again before a re-factorization: C's solutions must be A's, so the numeric
// step must factor the current values (the symbolic step's expansion is reused only at its state).
static PetscErrorCode CheckFactorSteps(Mat A, Mat C, const char *which)
{
  const MatFactorType ftype = !std::strcmp(which, "ilu") ? MAT_FACTOR_ILU : !std::strcmp(which, "cholesky") ? MAT_FACTOR_CHOLESKY : !std::strcmp(which, "icc") ? MAT_FACTOR_ICC : MAT_FACTOR_LU;
  const PetscBool     lu    = ftype == MAT_FACTOR_LU || ftype == MAT_FACTOR_ILU ? PETSC_TRUE : PETSC_FALSE;
  Mat                 F[2];
  Vec                 b, x[2];
  IS                  row, col;
  MatFactorInfo       info;
  const Mat           M[2] = {A, C};

  PetscFunctionBegin;
  PetscCall(MatFactorInfoInitialize(&info));
  info.fill = 1.0; // (the expected fill ratio; ILU and ICC refuse less)
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &row, &col));
  PetscCall(MatCreateVecs(A, &x[0], &b));
  PetscCall(VecDuplicate(x[0], &x[1]));
  PetscCall(FillVec(b, 3));
  for (int k = 0; k < 2; ++k) {
    PetscCall(MatGetFactor(M[k], MATSOLVERPETSC, ftype, &F[k]));
    if (ftype == MAT_FACTOR_LU) PetscCall(MatLUFactorSymbolic(F[k], M[k], row, col, &info));
    else if (ftype == MAT_FACTOR_ILU) PetscCall(MatILUFactorSymbolic(F[k], M[k], row, col, &info));
    else if (ftype == MAT_FACTOR_CHOLESKY) PetscCall(MatCholeskyFactorSymbolic(F[k], M[k], row, &info));
    else PetscCall(MatICCFactorSymbolic(F[k], M[k], row, &info));
  }
  for (int round = 0; round < 2; ++round) {
    for (int k = 0; k < 2; ++k) {
      PetscCall(MatScale(M[k], round ? 0.25 : 2.0)); // (a stale factor would give x times 2 or 4)
      PetscCall(MatShift(M[k], 1.0));
      if (lu) PetscCall(MatLUFactorNumeric(F[k], M[k], &info));
      else PetscCall(MatCholeskyFactorNumeric(F[k], M[k], &info));
      PetscCall(MatSolve(F[k], b, x[k]));
    }
    PetscCall(Compare(round ? "re-factored MatSolve" : "MatSolve", x[0], x[1]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s steps with new values before each numeric step: the original's solutions\n", which));
  for (int k = 0; k < 2; ++k) {
    PetscCall(MatDestroy(&F[k]));
    PetscCall(VecDestroy(&x[k]));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// C = the original converted (from AIJ, or from a BAIJ copy; in place on a copy with -inplace).
static PetscErrorCode Convert(Mat A, const char *from, PetscBool inplace, Mat *C)
{
  Mat  S;
  char to[32] = MATAIJCOMPOUND;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-convert_type", to, sizeof to, NULL));
  if (!std::strcmp(from, "baij")) PetscCall(MatConvert(A, MATBAIJ, MAT_INITIAL_MATRIX, &S));
  else PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &S));
  if (inplace) {
    PetscCall(MatConvert(S, to, MAT_INPLACE_MATRIX, &S));
    *C = S;
  } else {
    PetscCall(MatConvert(S, to, MAT_INITIAL_MATRIX, C));
    PetscCall(MatDestroy(&S));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      spec[256] = "elast3d:n=5", build[32] = "", from[16] = "aij", factor_steps[16] = "";
  PetscBool check = PETSC_FALSE, solve = PETSC_FALSE, perturb = PETSC_FALSE, inplace = PETSC_FALSE, assembled = PETSC_FALSE, reassemble = PETSC_TRUE, has_build, empty_last = PETSC_FALSE, converted_only = PETSC_FALSE, bind_check = PETSC_FALSE;
  Mat       A, C;
  PetscInt  its_a, its_c;
  MatType   type;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", spec, sizeof spec, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-build", build, sizeof build, &has_build));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-from", from, sizeof from, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check", &check, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-solve", &solve, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-perturb", &perturb, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-inplace", &inplace, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-assembled", &assembled, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-reassemble", &reassemble, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-empty_last_rank", &empty_last, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-solve_converted_only", &converted_only, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bind_check", &bind_check, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-factor_steps", factor_steps, sizeof factor_steps, NULL));
  PetscCheck(has_build || !empty_last, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-empty_last_rank needs -build");
  if (has_build) PetscCall(BuildStructured(build, perturb, "orig_", PETSC_FALSE, empty_last, &A));
  else PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, "orig_", &A));
  if (assembled && has_build) PetscCall(BuildStructured(build, perturb, NULL, PETSC_TRUE, empty_last, &C));
  else if (assembled) PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, NULL, &C));
  else PetscCall(Convert(A, from, inplace, &C));
  PetscCall(MatGetType(C, &type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s to %s\n", assembled ? "assembled" : "converted", has_build ? build : spec, type));
  PetscCall(MatViewFromOptions(C, NULL, "-mat_view"));
  if (solve && converted_only) PetscCall(Solve(C, type, &its_c));
  else if (solve) {
    PetscCall(Solve(A, "aij", &its_a));
    PetscCall(Solve(C, type, &its_c));
    PetscCheck(its_a == its_c, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ: %" PetscInt_FMT " on aij, %" PetscInt_FMT " on %s", its_a, its_c, type);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "same iteration count\n"));
  }
  if (factor_steps[0]) PetscCall(CheckFactorSteps(A, C, factor_steps));
  if (bind_check) PetscCall(CheckBinding(A, C));
  if (check) {
    PetscCall(CheckProducts("", A, C));
    PetscCall(CheckDiagonals(A, C));
    PetscCall(CheckUpdates(A, C));
    if (reassemble) PetscCall(CheckReassembly(A, C));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&C));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "Solves A x = A x_e with KSP carpcg (options -ksp_carpcg_*) and checks it:\n"
                           "  -gen <spec>             generator specification (default fem2d:n=20)\n"
                           "  -case ok|nan|nan_rhs|zero_rows|inconsistent|singular|empty|one|nonsquare\n"
                           "  -reference              also solve with the src/carpcg reference (same scheme, relaxation,\n"
                           "                          blocks = ranks x -ksp_carpcg_blocks, single-reduction CG) and compare\n"
                           "  -reference_blocks <n>   the reference's blocks per rank where -ksp_carpcg_blocks is 0 (auto)\n"
                           "  -its_tol <0>            allowed difference of the iteration counts to the reference\n"
                           "  -x_tol <1e-8>           allowed relative difference of the solutions to the reference\n"
                           "  -expect_converged       fail unless carpcg converged\n"
                           "  -expect_diverged        fail unless carpcg stopped with a KSP_DIVERGED_* reason\n"
                           "  -other <ksp type>       also solve with that KSP and PC jacobi (-other_ksp_*, -other_pc_*)\n"
                           "  -expect_other_fails     fail unless that solve did not converge\n"
                           "  -rescale                then solve again with 2 A and 2 b (new values, the same set-up path): row\n"
                           "                          projections are invariant under exact row scaling, so the solve must repeat\n"
                           "  -swap_check             then solve again with -ksp_carpcg_swap_sums 0 (the device's general exchange):\n"
                           "                          the same iterations and the same bits\n"
                           "  -overlap_check          then solve again with -ksp_carpcg_overlap_sweeps 0 (every block swept before\n"
                           "                          each exchange): the same iterations and the same bits\n"
                           "  -fuse_check             then solve again with -ksp_carpcg_fused_updates 0 (the CG's updates one kernel\n"
                           "                          each): the same iterations and the same bits\n"
                           "  -expect_device_transfers  set up first, then fail unless the solve copies nothing to the device and\n"
                           "                          brings back only the dots' scalars (one record of at most 3 per dot call)\n";

#include <petscgpukit.h>
#include <petscksp.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "src/carpcg/cg.hpp"
#include "src/carpcg/blocks.hpp"
#include "src/matgen/generators.hpp"

// x_e(i) = ((7919 i) mod 101) / 101 - 1/2 by global index: the same on any number of ranks.
static PetscErrorCode ExactSolution(Vec x)
{
  PetscInt     lo, hi;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArrayWrite(x, &a));
  for (PetscInt i = lo; i < hi; ++i) a[i - lo] = (PetscScalar)((i * 7919) % 101) / 101.0 - 0.5;
  PetscCall(VecRestoreArrayWrite(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Matrices of the special cases.
static PetscErrorCode BuildCase(const char *which, const char *spec, Mat *A)
{
  PetscFunctionBegin;
  if (!std::strcmp(which, "empty") || !std::strcmp(which, "one") || !std::strcmp(which, "nonsquare") || !std::strcmp(which, "singular")) {
    const PetscInt n = !std::strcmp(which, "empty") ? 0 : !std::strcmp(which, "one") ? 1 : 6;
    PetscInt       lo, hi;
    PetscCall(MatCreate(PETSC_COMM_WORLD, A));
    PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, n, !std::strcmp(which, "nonsquare") ? n + 2 : n));
    PetscCall(MatSetFromOptions(*A));
    PetscCall(MatSetUp(*A));
    PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
    for (PetscInt i = lo; i < hi; ++i) {
      // singular: rows 0 and 1 are the same equation (the right-hand side makes it inconsistent)
      const PetscInt row = !std::strcmp(which, "singular") && i == 1 ? 0 : i;
      PetscCall(MatSetValue(*A, i, row, 4.0, INSERT_VALUES));
      if (row + 1 < n) PetscCall(MatSetValue(*A, i, row + 1, -1.0, INSERT_VALUES));
    }
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, NULL, A));
  if (!std::strcmp(which, "nan")) {
    PetscInt lo;
    PetscCall(MatGetOwnershipRange(*A, &lo, NULL));
    if (lo == 0) PetscCall(MatSetValue(*A, 0, 0, std::numeric_limits<PetscReal>::quiet_NaN(), INSERT_VALUES));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  }
  if (!std::strcmp(which, "zero_rows") || !std::strcmp(which, "inconsistent")) {
    PetscInt N, lo, hi;
    PetscCall(MatGetSize(*A, &N, NULL));
    PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
    std::vector<PetscInt> rows;
    for (PetscInt i = lo; i < hi; ++i)
      if (i % 17 == 5) rows.push_back(i);
    PetscCall(MatZeroRows(*A, (PetscInt)rows.size(), rows.data(), 0.0, NULL, NULL)); // entries kept, all 0
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The reference solve on the whole matrix (every rank), in the KSP's settings.
static PetscErrorCode ReferenceSolve(const char *spec, Mat A, KSP ksp, std::vector<double> *xref, PetscInt *its)
{
  char            scheme[32] = "carp";
  PetscReal       lambda     = PETSC_DETERMINE, rtol;
  PetscInt        blocks = 1, interval = 10, maxit;
  PetscBool       weighted = PETSC_TRUE;
  PetscMPIInt     size;
  const PetscInt *ranges;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ksp_carpcg_scheme", scheme, sizeof scheme, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-ksp_carpcg_relax", &lambda, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ksp_carpcg_blocks", &blocks, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reference_blocks", &blocks, NULL)); // what auto blocks (0) should give
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ksp_carpcg_true_residual_interval", &interval, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-ksp_carpcg_weighted_dot", &weighted, NULL));
  PetscCall(KSPGetTolerances(ksp, &rtol, NULL, NULL, &maxit));
  PetscCheck(interval == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-reference compares with -ksp_carpcg_true_residual_interval 1 (the reference checks the true residual on schedule only)");
  const pgk::Csr               a = pgk::gen::generate(pgk::gen::parse_spec(spec));
  pgk::carpcg::OperatorOptions o;
  o.scheme       = pgk::carpcg::parse_scheme(scheme);
  o.lambda       = lambda == PETSC_DETERMINE ? pgk::carpcg::default_relaxation(o.scheme) : lambda;
  o.weighted_dot = weighted ? true : false;
  // carp: the KSP's blocks, `blocks` contiguous ones in each rank's rows.
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(MatGetOwnershipRanges(A, &ranges));
  for (PetscMPIInt r = 0; r < size; ++r) {
    const std::vector<pgk::Index> local = pgk::carpcg::contiguous_blocks(ranges[r + 1] - ranges[r], blocks);
    for (const pgk::Index k : local) o.block_of_row.push_back(r * blocks + k);
  }
  auto                op = pgk::carpcg::make_double_sweep(pgk::view_of(a), o);
  std::vector<double> xe(a.nrows), b(a.nrows, 0.0);
  for (PetscInt i = 0; i < a.nrows; ++i) xe[i] = (double)((i * 7919) % 101) / 101.0 - 0.5;
  for (PetscInt i = 0; i < a.nrows; ++i)
    for (PetscInt k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) b[i] += a.values[k] * xe[a.colidx[k]];
  pgk::carpcg::SolveOptions so;
  so.rtol    = rtol;
  so.max_it  = (int)maxit;
  so.variant = pgk::carpcg::CgVariant::SingleReduction;
  xref->assign(a.nrows, 0.0);
  const pgk::carpcg::SolveStats st = pgk::carpcg::solve(*op, b.data(), xref->data(), so);
  *its                             = st.iterations;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reference %s: %d iterations (%s)\n", scheme, st.iterations, pgk::carpcg::stop_name(st.stop)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CompareWithReference(const char *spec, Mat A, KSP ksp, Vec x)
{
  std::vector<double> xref;
  PetscInt            its, ref_its, lo, hi, its_tol = 0;
  PetscReal           x_tol = 1e-8, loc[2] = {0, 0}, glob[2];
  const PetscScalar  *xa;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-its_tol", &its_tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-x_tol", &x_tol, NULL));
  PetscCall(ReferenceSolve(spec, A, ksp, &xref, &ref_its));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArrayRead(x, &xa));
  for (PetscInt i = lo; i < hi; ++i) loc[0] += PetscSqr(xa[i - lo] - xref[i]);
  for (const double v : xref) loc[1] += v * v; // the whole reference is on every rank
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCallMPI(MPIU_Allreduce(loc, glob, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  const PetscReal rel = PetscSqrtReal(glob[0] / PetscMax(loc[1], 1e-300));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "against the reference: iterations %" PetscInt_FMT " vs %" PetscInt_FMT ", relative difference of the solutions %.2e\n", its, ref_its, (double)rel));
  PetscCheck(PetscAbsInt(its - ref_its) <= its_tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ by more than %" PetscInt_FMT, its_tol);
  PetscCheck(rel <= x_tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "solutions differ by %g > %g", (double)rel, (double)x_tol);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reference check passed\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Another KSP with PC jacobi on the same system (GMRES(30) by default): its outcome.
static PetscErrorCode OtherSolve(const char *type, Mat A, Vec b, PetscBool expect_fail)
{
  KSP                ksp;
  PC                 pc;
  Vec                x;
  KSPConvergedReason reason;
  PetscInt           its;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, "other_"));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s+jacobi: %s after %" PetscInt_FMT " iterations\n", type, KSPConvergedReasons[reason], its));
  PetscCheck(!expect_fail || reason < 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "expected %s+jacobi to fail", type);
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A second solve with 2 A and 2 b: scaling by 2 is exact, so every projection, the iterates and
// the count repeat bit for bit; a set-up that kept the old values would return 2 x instead.
static PetscErrorCode SolveRescaled(KSP ksp, Mat A, Vec b, Vec x)
{
  Vec       x2;
  PetscInt  its, its2;
  PetscReal diff;

  PetscFunctionBegin;
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(MatScale(A, 2.0));
  PetscCall(VecScale(b, 2.0));
  PetscCall(VecDuplicate(x, &x2));
  PetscCall(KSPSolve(ksp, b, x2));
  PetscCall(KSPGetIterationNumber(ksp, &its2));
  PetscCall(VecAXPY(x2, -1.0, x));
  PetscCall(VecNorm(x2, NORM_INFINITY, &diff));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rescaled solve: %" PetscInt_FMT " iterations (first %" PetscInt_FMT "), max difference %g\n", its2, its, (double)diff));
  PetscCheck(its == its2 && diff == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the rescaled solve differs");
  PetscCall(VecDestroy(&x2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A second solve with `option` set to 0 (-swap_check: -ksp_carpcg_swap_sums, the reverse ADD and
// forward INSERT instead of the swap of the first half's sums; -overlap_check:
// -ksp_carpcg_overlap_sweeps, every block swept before each exchange instead of the interior blocks
// during it; -fuse_check: -ksp_carpcg_fused_updates, the CG's vector updates and s = r - t one
// kernel each). All are the same operations on the same values, so the iterates must be the same bits.
static PetscErrorCode SolveAgainWithout(KSP ksp, Vec b, Vec x, const char *option, const char *what)
{
  Vec       x2;
  PetscInt  its, its2;
  PetscReal diff;

  PetscFunctionBegin;
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(PetscOptionsSetValue(NULL, option, "0"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPView(ksp, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(VecDuplicate(x, &x2));
  PetscCall(KSPSolve(ksp, b, x2));
  PetscCall(KSPGetIterationNumber(ksp, &its2));
  PetscCall(VecAXPY(x2, -1.0, x));
  PetscCall(VecNorm(x2, NORM_INFINITY, &diff));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve without the %s: %" PetscInt_FMT " iterations (with it %" PetscInt_FMT "), max difference %g\n", what, its2, its, (double)diff));
  PetscCheck(its == its2 && diff == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the solve without the %s differs", what);
  PetscCall(PetscOptionsClearValue(NULL, option));
  PetscCall(VecDestroy(&x2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// KSPSolve after KSPSetUp, counting PETSc's host<->device copies (the plugin's logged copies
// included): the device backend moves no vector; its dots bring back their scalars once per call
// (KSPCarpcgStart and every iteration), so gtoc = its + 1 records of at most 3 doubles.
static PetscErrorCode SolveCountingTransfers(KSP ksp, Vec b, Vec x)
{
  PetscInt its;

  PetscFunctionBegin;
  PetscCall(KSPSetUp(ksp));
  const PetscLogDouble ctog0 = petsc_ctog_ct, gtoc0 = petsc_gtoc_ct, gtoc_bytes0 = petsc_gtoc_sz;
  PetscCall(KSPSolve(ksp, b, x));
  const PetscLogDouble ctog = petsc_ctog_ct - ctog0, gtoc = petsc_gtoc_ct - gtoc0, gtoc_bytes = petsc_gtoc_sz - gtoc_bytes0;
  PetscCall(KSPGetIterationNumber(ksp, &its));
  const PetscLogDouble records = its + 1, max_bytes = records * 3 * sizeof(PetscScalar);
  PetscCheck(ctog == 0 && gtoc == records && gtoc_bytes <= max_bytes, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] transfers during the solve: ctog=%g gtoc=%g (%g bytes), expected ctog=0 gtoc=%g (at most %g bytes)", PetscGlobalRank, ctog, gtoc, gtoc_bytes,
             records, max_bytes);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "transfers during the solve: ctog=%g gtoc=%g as listed (%g bytes: the dots' scalars of %" PetscInt_FMT " iterations)\n", ctog, gtoc, gtoc_bytes, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      spec[256] = "fem2d:n=20", which[32] = "ok", other[32] = "";
  PetscBool reference = PETSC_FALSE, rescale = PETSC_FALSE, expect_conv = PETSC_FALSE, expect_div = PETSC_FALSE, expect_other_fails = PETSC_FALSE, has_other, count_transfers = PETSC_FALSE, swap_check = PETSC_FALSE, overlap_check = PETSC_FALSE,
            fuse_check = PETSC_FALSE;
  Mat                A;
  Vec                x, b, xe;
  KSP                ksp;
  KSPConvergedReason reason;
  PetscInt           its, N;
  PetscReal          err, xnorm, res, bnorm;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", spec, sizeof spec, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof which, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-other", other, sizeof other, &has_other));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-reference", &reference, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-rescale", &rescale, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_converged", &expect_conv, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_diverged", &expect_div, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_other_fails", &expect_other_fails, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_device_transfers", &count_transfers, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-swap_check", &swap_check, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-overlap_check", &overlap_check, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fuse_check", &fuse_check, NULL));
  PetscCall(BuildCase(which, spec, &A));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xe));
  PetscCall(ExactSolution(xe));
  PetscCall(MatMult(A, xe, b));
  if (!std::strcmp(which, "nan_rhs")) PetscCall(VecSetValue(b, N - 1, std::numeric_limits<PetscReal>::infinity(), INSERT_VALUES));
  // Inconsistent right-hand sides: row 5 is a zero row (inconsistent), row 1 repeats row 0 (singular).
  if (!std::strcmp(which, "inconsistent")) PetscCall(VecSetValue(b, 5, 1.0, INSERT_VALUES));
  if (!std::strcmp(which, "singular")) PetscCall(VecSetValue(b, 1, 17.0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCARPCG));
  PetscCall(KSPSetFromOptions(ksp));
  if (count_transfers) PetscCall(SolveCountingTransfers(ksp, b, x));
  else PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(VecAXPY(xe, -1.0, x));
  PetscCall(VecNorm(xe, NORM_2, &err));
  PetscCall(VecNorm(x, NORM_2, &xnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(MatMult(A, x, xe));
  PetscCall(VecAYPX(xe, -1.0, b));
  PetscCall(VecNorm(xe, NORM_2, &res));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "carpcg on %s (%s, N = %" PetscInt_FMT "): %s after %" PetscInt_FMT " iterations, true relative residual %.2e, relative error %.2e\n", spec, which, N, KSPConvergedReasons[reason], its,
                        (double)(bnorm > 0 ? res / bnorm : res), (double)(xnorm > 0 ? err / xnorm : err)));
  PetscCheck(!expect_conv || reason > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "carpcg did not converge");
  PetscCheck(!expect_div || reason < 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "carpcg did not stop with a divergence reason");
  if (reference) PetscCall(CompareWithReference(spec, A, ksp, x));
  if (rescale) PetscCall(SolveRescaled(ksp, A, b, x));
  if (swap_check) PetscCall(SolveAgainWithout(ksp, b, x, "-ksp_carpcg_swap_sums", "swap"));
  if (overlap_check) PetscCall(SolveAgainWithout(ksp, b, x, "-ksp_carpcg_overlap_sweeps", "overlap"));
  if (fuse_check) PetscCall(SolveAgainWithout(ksp, b, x, "-ksp_carpcg_fused_updates", "fused updates"));
  if (has_other) PetscCall(OtherSolve(other, A, b, expect_other_fails));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xe));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

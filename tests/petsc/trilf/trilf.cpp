static const char help[] = "Checks PC trilf against the host reference (src/trilf_pc.hpp) on each rank's diagonal block:\n"
                           "apply and transpose apply to 1e-12, identical forest figures, exactly the listed\n"
                           "transfers during set-up and apply (device matrix with device or host vectors), forest\n"
                           "reuse on SAME_NONZERO_PATTERN, bad input, and a KSP solve next to PCJACOBI.\n"
                           "  -gen <spec>            generator specification (default aniso2d:n=40,variant=2)\n"
                           "  -f <file>              Matrix Market or PETSc binary file instead\n"
                           "  -case ok|nan|nan_update|nonsquare|zero_diag|unassembled|empty_rows\n"
                           "  -solve <ksp type>      also solve A x = b with trilf and with jacobi, print both counts\n"
                           "  -expect_fewer          fail unless trilf needs fewer iterations than jacobi\n"
                           "  -compare_scalar        with -solve and -pc_trilf_block_size 2: also solve with the scalar\n"
                           "                         variant, print both counts, fail if the block variant needs more\n"
                           "  -vec_type <type>       type of the vectors applied to (default: host)\n"
                           "  -pc_trilf_*            passed to the PC and to the reference alike\n";

#include <petscgpukit.h>
#include <petscksp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "petsc_plugin/sys/csr_access.hpp"
#include "src/trilf/pc.hpp"

// Special matrices for the bad-input cases: a tridiagonal-plus-far-coupling 2D-like operator.
static PetscErrorCode BuildSpecial(const char *which, Mat *A)
{
  const PetscInt n = 200, N = std::strcmp(which, "nonsquare") == 0 ? n + 3 : n;
  PetscInt       rstart, rend;

  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, n, N));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSetUp(*A));
  if (std::strcmp(which, "unassembled") == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; ++i) {
    if (std::strcmp(which, "empty_rows") == 0 && i % 7 == 3) continue; // rows with nothing at all
    const PetscBool zero = std::strcmp(which, "zero_diag") == 0 && i % 5 == 0 ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(MatSetValue(*A, i, i, zero ? 0.0 : 4.0, INSERT_VALUES));
    if (i + 1 < N) PetscCall(MatSetValue(*A, i, i + 1, -1.5, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(*A, i, i - 1, -1.0, INSERT_VALUES));
    if (i + 10 < N) PetscCall(MatSetValue(*A, i, i + 10, -0.3, INSERT_VALUES));
    if (i >= 10) PetscCall(MatSetValue(*A, i, i - 10, -0.3, INSERT_VALUES));
  }
  if (std::strcmp(which, "nan") == 0 && rstart == 0) PetscCall(MatSetValue(*A, 0, 1, std::numeric_limits<PetscReal>::quiet_NaN(), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The reference options from the same option names the PC reads.
static PetscErrorCode ReferenceOptions(pgk::trilf::Options *o)
{
  PetscInt  bs = 1, rounds = o->factor.rounds, period = o->factor.charge_period, offset = o->factor.charge_offset, seed = 0;
  PetscReal prob = o->factor.charge_prob, tol = o->pivot.rel_tol;
  char      weight[32] = "abs", pairing[32] = "forest";

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_trilf_block_size", &bs, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_trilf_block_pairing", pairing, sizeof pairing, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_trilf_iterations", &rounds, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_trilf_charge_period", &period, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_trilf_charge_offset", &offset, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_trilf_seed", &seed, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-pc_trilf_charge_prob", &prob, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-pc_trilf_pivot_tol", &tol, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_trilf_weight", weight, sizeof weight, NULL));
  o->block                = bs == 2;
  o->pairing              = pgk::trilf::parse_pair_rule(pairing);
  o->factor.rounds        = (int)rounds;
  o->factor.charge_period = (int)period;
  o->factor.charge_offset = (int)offset;
  o->factor.charge_prob   = prob;
  o->factor.seed          = (std::uint64_t)seed;
  o->factor.weight        = pgk::trilf::parse_weight(weight);
  o->pivot.rel_tol        = tol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// max |a - b| / max |b| over this rank's entries, reduced over the ranks.
static PetscErrorCode RelativeDifference(Vec got, const std::vector<PetscScalar> &ref, PetscReal *rel)
{
  const PetscScalar *g;
  PetscInt           n;
  PetscReal          loc[2] = {0, 0}, glob[2];

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(got, &n));
  PetscCall(VecGetArrayRead(got, &g));
  for (PetscInt i = 0; i < n; ++i) {
    PetscCheck(std::isfinite(PetscRealPart(g[i])), PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC trilf produced a non-finite entry at local row %" PetscInt_FMT, i);
    loc[0] = PetscMax(loc[0], PetscAbsScalar(g[i] - ref[i]));
    loc[1] = PetscMax(loc[1], PetscAbsScalar(ref[i]));
  }
  PetscCall(VecRestoreArrayRead(got, &g));
  PetscCallMPI(MPIU_Allreduce(loc, glob, 2, MPIU_REAL, MPI_MAX, PetscObjectComm((PetscObject)got)));
  *rel = glob[1] > 0 ? glob[0] / glob[1] : glob[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Rounds k < rounds_run that were uncharged: each ends with one flag read (factor.cu).
static PetscLogDouble UnchargedRounds(const pgk::trilf::FactorOptions &f, int rounds_run)
{
  PetscLogDouble u = 0;
  for (int k = 0; k < rounds_run; ++k) u += pgk::trilf::is_charged_round(f, k) ? 0 : 1;
  return u;
}

// Whether every stored (i, j) of the local block has a stored (j, i): the weight pass then
// works on A's own pattern (kernels/trilf/weights.cu, build_weight_graph's `missing`).
static bool PatternSymmetric(const pgk::CsrView &a)
{
  for (PetscInt i = 0; i < a.nrows; ++i)
    for (PetscInt e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      const PetscInt j = a.colidx[e];
      if (j >= a.nrows || !std::binary_search(a.colidx + a.rowptr[j], a.colidx + a.rowptr[j + 1], i)) return false;
    }
  return true;
}

// The transfers of one PCSetUp on the device, each one logged copy (kernels/common/transfer.hpp),
// all of them scalars or small structs (counts, flags, sums), for n > 0 local rows:
//   PC trilf's own CSR check (PgkMatCSRRequire -> kernels/common/csr_check.cu): 1 (the counts), only
//     before a block variant's values-only update (a full device set-up checks A in its weight pass).
//   Full set-up (a new forest), weights (kernels/trilf/weights.cu, build_weight_graph): 2 (nnz =
//     rowptr[n], the pass counters) + 4 when the pattern is not symmetric (symmetrize_pattern's
//     added count and nnz, the symmetrized nnz, the overflow flag). Then
//     scalar (kernels/trilf/pc.cu, TrilfDevice::setup):
//       parallel_factor (factor.cu): 2 (subwarp_for's nnz, the slot count) + 1 per uncharged
//         round run (its proposal flag);
//       break_cycles (paths.cu): 2 (splitter count, cycles broken);
//       order_paths (paths.cu): 3 (splitter count, path stats, cycle flag);
//       assemble_tridiagonal (tridiag.cu): 1 (coverage sums); factor_tridiagonal: 1 (counts);
//     block (block_pc.cu, BlockPipeline::setup):
//       pairing: parallel_factor: 2 + its uncharged rounds, and for the forest pairing
//       break_cycles 2 and order_paths 3 (pair_along_paths reads nothing); number_coarse
//       (block_coarse.cu): 2 (last rank and partner); contract_graph: 2 (coarse length, coarse
//       nnz; 1 when A has no entries); parallel_factor of the coarse graph: 2 + its uncharged
//       rounds; break_cycles: 2; order_paths: 3; assemble (block_assemble.cu): 2 (coverage
//       sums, non-finite flag); factor (block_factor.cu): 1 back, and 1 CpuToGpu (the counters'
//       initial values).
//   Same forest, new values (update_values): scalar: check_matrix_device's CSR check 1, the
//     factor counts 1; block: assemble's non-finite flag 1, factor 1 back and 1 CpuToGpu.
// n = 0 moves nothing. The applies move nothing: with device vectors z is computed in place,
// and host vectors are not counted here (see ApplyTransfers).
static PetscErrorCode ExpectedSetupTransfers(Mat A, PetscBool new_forest, PetscLogDouble *ctog, PetscLogDouble *gtoc)
{
  pgk::trilf::Options opt;
  PgkMatCSR           c;

  PetscFunctionBegin;
  PetscCall(ReferenceOptions(&opt));
  PetscCall(PgkMatGetCSR(A, PGK_MEM_HOST, &c));
  std::unique_ptr<pgk::trilf::Preconditioner> ref;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ref = std::make_unique<pgk::trilf::Preconditioner>(c.csr, opt));
  const PetscInt n = c.csr.nrows, nnz = c.csr.nnz_host();
  const bool     symmetric = PatternSymmetric(c.csr);
  PetscCall(PgkMatRestoreCSR(A, &c));
  const pgk::trilf::SetupInfo &ri = ref->info();
  *ctog                           = opt.block && n > 0 ? 1 : 0;
  if (n == 0) *gtoc = 0;
  else if (!new_forest) *gtoc = opt.block ? 3 : 2; // scalar: the values' check, the factor's counts
  else if (!opt.block) *gtoc = 2 + (symmetric ? 0 : 4) + 2 + UnchargedRounds(opt.factor, ri.forest.rounds_run) + 2 + 3 + 1 + 1;
  else {
    const PetscLogDouble forest_pairing = opt.pairing == pgk::trilf::PairRule::Forest ? 2 + 3 : 0;
    *gtoc                               = 2 + (symmetric ? 0 : 4) + 2 + UnchargedRounds(opt.factor, ri.block.pairing_rounds) + forest_pairing + 2 + (nnz > 0 ? 2 : 1) + 2 + UnchargedRounds(opt.factor, ri.block.coarse.rounds_run) + 2 + 3 + 2 + 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A device set-up applied to host vectors stages them (petsc_plugin/pc/trilf.cpp,
// TrilfApplyDevice): 1 CpuToGpu of r and 1 GpuToCpu of z per apply; device vectors: nothing.
static PetscBool IsDeviceVec(Vec v)
{
  PetscBool cuda = PETSC_FALSE;
  PetscCallAbort(PETSC_COMM_SELF, PetscObjectTypeCompareAny((PetscObject)v, &cuda, VECSEQCUDA, VECMPICUDA, ""));
  return cuda;
}

// Checks the transfers counted (ctog, gtoc) against the listed ones; every rank its own.
static PetscErrorCode CheckTransfers(const char *what, PetscLogDouble ctog, PetscLogDouble gtoc, PetscLogDouble ctog_expected, PetscLogDouble gtoc_expected)
{
  PetscFunctionBegin;
  PetscCheck(ctog == ctog_expected && gtoc == gtoc_expected, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] transfers during %s: ctog=%g gtoc=%g, expected ctog=%g gtoc=%g", PetscGlobalRank, what, ctog, gtoc, ctog_expected, gtoc_expected);
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] transfers during %s: ctog=%g gtoc=%g as listed\n", PetscGlobalRank, what, ctog, gtoc));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CompareWithReference(PC pc, Mat A, Vec r, Vec z, const char *stage)
{
  pgk::trilf::Options opt;
  PgkMatCSR           c;
  PCTrilfInfo         info;
  PetscReal           rel, relt;

  PetscFunctionBegin;
  PetscCall(ReferenceOptions(&opt));
  PetscCall(PgkMatGetCSR(A, PGK_MEM_HOST, &c));
  std::unique_ptr<pgk::trilf::Preconditioner> ref;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ref = std::make_unique<pgk::trilf::Preconditioner>(c.csr, opt));
  PetscCall(PgkMatRestoreCSR(A, &c));
  const PetscInt           n = ref->size();
  const PetscScalar       *ra;
  std::vector<PetscScalar> rh(n), zr(n), zt(n);
  PetscCall(VecGetArrayRead(r, &ra));
  std::copy(ra, ra + n, rh.begin());
  PetscCall(VecRestoreArrayRead(r, &ra));
  ref->apply(rh.data(), zr.data());
  ref->apply_transpose(rh.data(), zt.data());

  PetscCall(PCApply(pc, r, z));
  PetscCall(RelativeDifference(z, zr, &rel));
  PetscCall(PCApplyTranspose(pc, r, z));
  PetscCall(RelativeDifference(z, zt, &relt));
  PetscCall(PCTrilfGetInfo(pc, &info));
  const pgk::trilf::SetupInfo   &ri = ref->info();
  const pgk::trilf::ForestStats &fs = opt.block ? ri.block.coarse : ri.forest;
  PetscCheck(info.npaths == ri.npaths && info.longest == ri.longest && info.cycles_broken == fs.cycles_broken && info.factor_edges == fs.factor_edges && info.splits == ri.splits && info.replaced == ri.replaced && info.pairs == ri.block.pairs,
             PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "[%d] %s: forest figures differ from the reference: paths %" PetscInt_FMT "/%lld longest %" PetscInt_FMT "/%lld cycles %" PetscInt_FMT "/%lld edges %" PetscInt_FMT "/%lld splits %" PetscInt_FMT "/%lld replaced %" PetscInt_FMT "/%lld",
             PetscGlobalRank, stage, info.npaths, (long long)ri.npaths, info.longest, (long long)ri.longest, info.cycles_broken, (long long)fs.cycles_broken, info.factor_edges, (long long)fs.factor_edges, info.splits, (long long)ri.splits,
             info.replaced, (long long)ri.replaced);
  // Coverage is a ratio of sums over all entries: the device sums in another order, so the
  // last bits differ (host sequential summation alone is accurate to ~1e-12 here).
  PetscCheck(std::fabs(info.c_id - ri.c_id) <= 1e-9 * ri.c_id && std::fabs(info.c_pi - ri.c_pi) <= 1e-9 * ri.c_pi, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] %s: coverage differs: c_id %.17g/%.17g c_pi %.17g/%.17g", PetscGlobalRank, stage, info.c_id,
             ri.c_id, info.c_pi, ri.c_pi);
  PetscCheck(rel <= 1e-12 && relt <= 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: apply differs from the reference: %.3e (transpose %.3e)", stage, rel, relt);
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD,
                                    "[%d] %s on the %s: %" PetscInt_FMT " rows, %" PetscInt_FMT " paths, longest %" PetscInt_FMT ", cycles broken %" PetscInt_FMT ", splits %" PetscInt_FMT ", replaced %" PetscInt_FMT
                                    ", c_id %.4f, c_pi %.4f, forests %" PetscInt_FMT " of %" PetscInt_FMT " setups\n",
                                    PetscGlobalRank, stage, info.on_device ? "device" : "host", info.rows, info.npaths, info.longest, info.cycles_broken, info.splits, info.replaced, info.c_id, info.c_pi, info.forests, info.setups));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: apply equals the reference (max rel. diff %.2e, transpose %.2e)\n", stage, rel, relt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatMult with vectors of the matrix's own type: a device matrix's values go to the device.
static PetscErrorCode TouchMatrix(Mat A)
{
  Vec u, v;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &u, &v));
  PetscCall(VecSet(u, 1.0));
  PetscCall(MatMult(A, u, v));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The set-up just done (a new forest or not, on the device or not) and `applies` applies to r.
// forests_before: PCTrilfInfo::forests before the set-up (one more after it: a new forest).
static PetscErrorCode CheckSetupTransfers(PC pc, Mat A, Vec r, PetscInt applies, PetscInt forests_before, const char *what, PetscLogDouble ctog0, PetscLogDouble gtoc0)
{
  const PetscLogDouble counted_ctog = petsc_ctog_ct - ctog0, counted_gtoc = petsc_gtoc_ct - gtoc0; // before the reference reads A
  PCTrilfInfo          info;
  PetscLogDouble       ctog = 0, gtoc = 0;

  PetscFunctionBegin;
  PetscCall(PCTrilfGetInfo(pc, &info));
  PetscCall(ExpectedSetupTransfers(A, info.forests > forests_before ? PETSC_TRUE : PETSC_FALSE, &ctog, &gtoc)); // on the host too: the recount runs everywhere
  if (!info.on_device) ctog = gtoc = 0;
  else if (!IsDeviceVec(r) && info.rows > 0) {
    ctog += applies;
    gtoc += applies;
  }
  PetscCall(CheckTransfers(what, counted_ctog, counted_gtoc, ctog, gtoc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The same solve with the scalar variant (block size 1, new forest): the block variant may need
// no more iterations (issue 15). The PC is switched back to the block variant afterwards.
static PetscErrorCode CompareWithScalar(KSP ksp, PC pc, Vec b, Vec x, const char *ksptype, PetscInt its_block)
{
  PetscInt            its_scalar;
  KSPConvergedReason  reason;
  pgk::trilf::Options opt;

  PetscFunctionBegin;
  PetscCall(ReferenceOptions(&opt));
  PetscCheck(opt.block, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-compare_scalar needs -pc_trilf_block_size 2");
  PetscCall(PCTrilfSetBlockSize(pc, 1));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its_scalar));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s with scalar trilf did not converge: %s", ksptype, KSPConvergedReasons[reason]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s iterations: trilf block %" PetscInt_FMT ", trilf scalar %" PetscInt_FMT "\n", ksptype, its_block, its_scalar));
  PetscCheck(its_block <= its_scalar, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the block variant needed more iterations than the scalar one");
  PetscCall(PCTrilfSetBlockSize(pc, 2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat       A;
  Vec       r, z, b, x;
  KSP       ksp;
  PC        pc;
  char      spec[256] = "aniso2d:n=40,variant=2", file[PETSC_MAX_PATH_LEN] = "", which[32] = "ok", ksptype[32] = "";
  PetscBool has_file, expect_fewer = PETSC_FALSE, compare_scalar = PETSC_FALSE;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", spec, sizeof spec, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof file, &has_file));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof which, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-solve", ksptype, sizeof ksptype, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_fewer", &expect_fewer, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-compare_scalar", &compare_scalar, NULL));
  if (std::strcmp(which, "ok")) PetscCall(BuildSpecial(which, &A));
  else if (has_file) PetscCall(PetscGpuKitMatLoad(PETSC_COMM_WORLD, file, NULL, &A));
  else PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, NULL, &A));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCTRILF));
  PetscCall(KSPSetFromOptions(ksp));
  {
    // Vectors of -vec_type (host by default), so that a device matrix may meet host vectors.
    PetscInt m, nloc;
    PetscCall(MatGetLocalSize(A, &m, &nloc));
    PetscCall(VecCreate(PETSC_COMM_WORLD, &r));
    PetscCall(VecSetSizes(r, nloc, PETSC_DECIDE));
    PetscCall(VecSetFromOptions(r));
    PetscCall(VecCreate(PETSC_COMM_WORLD, &z));
    PetscCall(VecSetSizes(z, m, PETSC_DECIDE));
    PetscCall(VecSetFromOptions(z));
  }
  PetscCall(VecDuplicate(r, &b));
  PetscCall(VecDuplicate(r, &x));
  {
    PetscRandom rnd;
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
    PetscCall(VecSetRandom(r, rnd));
    PetscCall(PetscRandomDestroy(&rnd));
  }
  PetscCall(VecCopy(r, b)); // both now current where the vector type computes
  PetscCall(VecSet(z, 0.0));
  // A device matrix assembled on the host is uploaded by its first use, here, and device
  // vectors with it (not for the bad-input cases, whose error must come from the PC); host
  // vectors cannot meet a device matrix in MatMult: the matrix is touched with its own.
  const PetscBool valid = std::strcmp(which, "nonsquare") && std::strcmp(which, "unassembled") ? PETSC_TRUE : PETSC_FALSE;
  if (valid && IsDeviceVec(r)) PetscCall(MatMult(A, r, b));
  else if (valid) PetscCall(TouchMatrix(A));

  // Set-up and applies with PETSc's transfer counters watched: exactly the listed scalars of a
  // device set-up (ExpectedSetupTransfers), nothing for the applies with device vectors, r up
  // and z down per apply with host vectors; nothing at all on the host.
  PCTrilfInfo    before;
  PetscLogDouble ctog0 = petsc_ctog_ct, gtoc0 = petsc_gtoc_ct;
  PetscCall(PCSetUp(pc));
  for (int k = 0; k < 3; ++k) {
    PetscCall(PCApply(pc, r, z));
    PetscCall(PCApplyTranspose(pc, r, z));
  }
  PetscCall(CheckSetupTransfers(pc, A, r, 6, 0, "set-up and 6 applies", ctog0, gtoc0));
  PetscCall(CompareWithReference(pc, A, r, z, "first setup"));

  // New values, same pattern: the forest is kept, the values refactored.
  PetscCall(MatScale(A, 3.0));
  PetscCall(MatShift(A, 0.25));
  if (valid) PetscCall(TouchMatrix(A)); // the new values to the device, outside the count
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(PCTrilfGetInfo(pc, &before));
  ctog0 = petsc_ctog_ct, gtoc0 = petsc_gtoc_ct;
  PetscCall(PCSetUp(pc));
  PetscCall(CheckSetupTransfers(pc, A, r, 0, before.forests, "the same-pattern set-up", ctog0, gtoc0));
  PetscCall(CompareWithReference(pc, A, r, z, "same pattern"));
  if (!std::strcmp(which, "nan_update")) { // a NaN in new values of the same pattern: the re-set-up refuses it
    PetscInt rstart;
    PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
    if (rstart == 0) PetscCall(MatSetValue(A, 0, 1, std::numeric_limits<PetscReal>::quiet_NaN(), INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(PCSetUp(pc));
    SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the re-set-up accepted a NaN");
  }

  if (ksptype[0]) {
    PetscInt           its_trilf, its_jacobi;
    KSPConvergedReason reason;
    PetscCall(KSPSetType(ksp, ksptype));
    PetscCall(MatMult(A, r, b)); // exact solution r
    PetscCall(VecSet(x, 0.0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetIterationNumber(ksp, &its_trilf));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s with trilf did not converge: %s", ksptype, KSPConvergedReasons[reason]);
    if (compare_scalar) PetscCall(CompareWithScalar(ksp, pc, b, x, ksptype, its_trilf));
    PetscCall(PCSetType(pc, PCJACOBI));
    PetscCall(VecSet(x, 0.0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetIterationNumber(ksp, &its_jacobi));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s iterations: trilf %" PetscInt_FMT ", jacobi %" PetscInt_FMT "\n", ksptype, its_trilf, its_jacobi));
    PetscCheck(!expect_fewer || its_trilf < its_jacobi, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "trilf did not need fewer iterations than jacobi");
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "test_trilf: all checks passed\n"));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

// PC trilf: the linear-forest tridiagonal preconditioner of Klein & Strzodka (ICPP'22). PCSetUp
// finds the heaviest disjoint paths of the matrix graph, orders them to be tridiagonal and factors
// that T; PCApply is z = Q T^-1 Q^T r. A MATSEQAIJCUSPARSE operator (or MPI diagonal block) runs
// on the device (kernels/trilf/pc_gpu.hpp, results equal to src/trilf/pc.hpp's, used for every
// other AIJ operator); host vectors are staged through kernels/common/transfer.hpp's logged copies.
// In parallel every rank works on its diagonal block (block Jacobi, no communication).
#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <petsc/private/matimpl.h>
#include <petsc/private/pcimpl.h>
#include <petscksp.h>

#include <memory>

#include "petsc_plugin/pc/trilf.hpp"
#include "petsc_plugin/sys/csr_access.hpp"
#include "petsc_plugin/sys/device.hpp"
#include "src/trilf/pc.hpp"

PetscLogEvent PGK_EVENT_TrilfForest, PGK_EVENT_TrilfNumeric, PGK_EVENT_TrilfApply;

static const char *const PCTrilfWeights[] = {"abs", "scaled", "PCTrilfWeight", "PC_TRILF_WEIGHT_", NULL};
typedef enum { TRILF_SOLVER_SCAN, TRILF_SOLVER_GTSV2 } TrilfSolverType;
static const char *const TrilfSolverTypes[] = {"scan", "gtsv2", "TrilfSolverType", "TRILF_SOLVER_", NULL};
static const char *const TrilfPairings[]    = {"forest", "matching"}; // in the order of pgk::trilf::PairRule

struct PC_Trilf {
  pgk::trilf::Options                         opt; // paper defaults (M = 5, m = 5, k_m = 0, p = 0.5)
  PCTrilfWeight                               weight   = PC_TRILF_WEIGHT_ABS;
  PetscBool                                   reuse    = PETSC_TRUE; // keep the forest on SAME_NONZERO_PATTERN
  TrilfSolverType                             solver   = TRILF_SOLVER_SCAN;
  PetscBool                                   device   = PETSC_FALSE; // where the last setup ran
  PetscBool                                   compound = PETSC_FALSE; // set up from a compound matrix's scalar expansion
  PetscInt                                    n        = 0;
  PetscInt                                    setups = 0, forests = 0;
  PetscObjectState                            nonzerostate = -1;
  std::unique_ptr<pgk::trilf::Preconditioner> host;
  std::unique_ptr<pgk::cuda::TrilfDevice>     dev;
  Vec                                         stage_r = nullptr, stage_z = nullptr; // device copies of host vectors (apply)
};

static const pgk::trilf::SetupInfo &TrilfInfo(const PC_Trilf *t)
{
  return t->device ? t->dev->info() : t->host->info();
}

static const pgk::trilf::PhaseTimes &TrilfTimes(const PC_Trilf *t)
{
  return t->device ? t->dev->times() : t->host->times();
}

static PetscBool TrilfReady(const PC_Trilf *t)
{
  if (t->device) return t->dev && t->dev->ready() ? PETSC_TRUE : PETSC_FALSE;
  return t->host ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode PCSetUp_Trilf(PC pc)
{
  PC_Trilf *t = (PC_Trilf *)pc->data;
  Mat       P = pc->pmat, A; // A: P, or the scalar expansion of a compound P (freed at the end)
  PgkMatCSR c;
  PetscBool device;
  MPI_Comm  self = PETSC_COMM_SELF;

  PetscFunctionBegin;
  PetscCall(PgkCheckSquareAssembled(P, "PC trilf"));
  PetscCall(PgkMatScalarOperator(P, &t->compound, &A));
  PetscCall(PgkMatUseDevice(A, &device));
  t->opt.factor.weight     = t->weight == PC_TRILF_WEIGHT_SCALED ? pgk::trilf::Weight::Scaled : pgk::trilf::Weight::Abs;
  t->opt.factor.max_degree = 2;
  PgkCallCxx(self, PETSC_ERR_LIB, pgk::trilf::validate(t->opt.factor));
  PetscCheck(t->solver == TRILF_SOLVER_SCAN || (device && !t->opt.block), self, PETSC_ERR_SUP, "PC trilf: -pc_trilf_solver %s needs the scalar variant on a device (MATAIJCUSPARSE) operator", TrilfSolverTypes[t->solver]);

  // The forest survives a value change only: same pattern (PETSc's flag and the operator's own
  // nonzero state agree; P's, since an expansion is a new matrix each time), same place, reuse allowed.
  const PetscBool keep = t->reuse && pc->setupcalled && pc->flag == SAME_NONZERO_PATTERN && P->nonzerostate == t->nonzerostate && device == t->device && TrilfReady(t) ? PETSC_TRUE : PETSC_FALSE;

  PetscCall(PgkMatGetCSR(A, device ? PGK_MEM_DEVICE : PGK_MEM_HOST, &c));
  // A scalar values-only update checks the values itself (naming the first NaN/Inf), and so does the
  // weight pass of a device set-up (a second pass over A was 5% of a 4.2M-row set-up).
  const PetscBool checked = device ? (PetscBool) !(keep && t->opt.block) : (PetscBool)(keep && !t->opt.block);
  if (!checked) PetscCall(PgkMatCSRRequire(A, &c, PGK_REQUIRE_FINITE, "PC trilf"));
  PetscCall(PetscLogEventBegin(keep ? PGK_EVENT_TrilfNumeric : PGK_EVENT_TrilfForest, pc, A, 0, 0));
  if (device) {
    void *stream;
    PetscCall(PgkGetDeviceStream(&stream));
    if (!t->dev) PgkCallCxx(self, PETSC_ERR_GPU, t->dev = std::make_unique<pgk::cuda::TrilfDevice>());
    const pgk::cuda::TrilfSolver solver = t->solver == TRILF_SOLVER_GTSV2 ? pgk::cuda::TrilfSolver::Gtsv2 : pgk::cuda::TrilfSolver::Scan;
    if (solver != t->dev->solver()) PgkCallCxx(self, PETSC_ERR_GPU, t->dev->set_solver(solver, stream));
    if (keep) PgkCallCxx(self, PETSC_ERR_GPU, t->dev->update_values(c.csr, stream));
    else PgkCallCxx(self, PETSC_ERR_GPU, t->dev->setup(c.csr, t->opt, stream));
    t->host.reset();
  } else {
    if (keep) PgkCallCxx(self, PETSC_ERR_LIB, t->host->update_values(c.csr));
    else PgkCallCxx(self, PETSC_ERR_LIB, t->host = std::make_unique<pgk::trilf::Preconditioner>(c.csr, t->opt));
    t->dev.reset();
  }
  PetscCall(PetscLogEventEnd(keep ? PGK_EVENT_TrilfNumeric : PGK_EVENT_TrilfForest, pc, A, 0, 0));
  t->n = c.csr.nrows;
  PetscCall(PgkMatRestoreCSR(A, &c));
  PetscCall(MatDestroy(&A)); // the factor keeps what the applies need
  t->device       = device;
  t->nonzerostate = P->nonzerostate;
  t->setups++;
  if (!keep) t->forests++;
  PetscCall(PetscInfo(pc, "trilf %s on the %s: %" PetscInt_FMT " paths, longest %" PetscInt_FMT ", c_id %.3f, c_pi %.3f, setup %.3f ms\n", keep ? "refactored" : "built", device ? "device" : "host", (PetscInt)TrilfInfo(t).npaths,
                      (PetscInt)TrilfInfo(t).longest, TrilfInfo(t).c_id, TrilfInfo(t).c_pi, keep ? TrilfTimes(t).assemble + TrilfTimes(t).lu : TrilfTimes(t).total()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A device copy of a host vector for a device set-up: a VECSEQCUDA of the PC's local size,
// created at the first apply that needs it (again when the size changed).
static PetscErrorCode TrilfStage(PC_Trilf *t, Vec *stage, PetscScalar **d)
{
  PetscMemType mt;
  PetscInt     len = -1;

  PetscFunctionBegin;
  if (*stage) PetscCall(VecGetLocalSize(*stage, &len));
  if (len != t->n) {
    PetscCall(VecDestroy(stage));
    PetscCall(VecCreate(PETSC_COMM_SELF, stage));
    PetscCall(VecSetSizes(*stage, t->n, t->n));
    PetscCall(VecSetType(*stage, VECSEQCUDA));
  }
  PetscCall(VecGetArrayWriteAndMemType(*stage, d, &mt));
  PetscCheck(!PetscMemTypeHost(mt), PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC trilf: the staging vector has no device array");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The device apply, wherever x and y live: a vector with a current device array is used in
// place (nothing moves); a host vector goes through a staging vector and the logged copies of
// kernels/common/transfer.hpp: x up (1 CpuToGpu of n scalars), y down (1 GpuToCpu).
static PetscErrorCode TrilfApplyDevice(PC_Trilf *t, Vec x, Vec y, PetscBool transpose)
{
  const PetscScalar *xa;
  PetscScalar       *ya, *rd = nullptr, *zd = nullptr;
  PetscMemType       xmt, ymt;
  void              *stream;
  const std::size_t  bytes = sizeof(PetscScalar) * (std::size_t)t->n;

  PetscFunctionBegin;
  if (t->n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(VecGetArrayReadAndMemType(x, &xa, &xmt));
  PetscCall(VecGetArrayWriteAndMemType(y, &ya, &ymt));
  if (PetscMemTypeHost(xmt)) {
    PetscCall(TrilfStage(t, &t->stage_r, &rd));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::copy_to_device(rd, xa, bytes, stream));
  }
  if (PetscMemTypeHost(ymt)) PetscCall(TrilfStage(t, &t->stage_z, &zd));
  const double *r = rd ? rd : xa;
  double       *z = zd ? zd : ya;
  if (transpose) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, t->dev->apply_transpose(r, z, stream));
  else PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, t->dev->apply(r, z, stream));
  if (zd) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::copy_to_host(ya, zd, bytes, stream)); // waits for the apply
  if (rd) PetscCall(VecRestoreArrayWriteAndMemType(t->stage_r, &rd));
  if (zd) PetscCall(VecRestoreArrayWriteAndMemType(t->stage_z, &zd));
  PetscCall(VecRestoreArrayWriteAndMemType(y, &ya));
  PetscCall(VecRestoreArrayReadAndMemType(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// y = M^-1 x or M^-T x where the set-up ran.
static PetscErrorCode PCApplyTrilf(PC pc, Vec x, Vec y, PetscBool transpose)
{
  PC_Trilf *t = (PC_Trilf *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PGK_EVENT_TrilfApply, pc, x, y, 0));
  if (t->device) PetscCall(TrilfApplyDevice(t, x, y, transpose));
  else {
    const PetscScalar *xa;
    PetscScalar       *ya;
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArrayWrite(y, &ya));
    if (transpose) t->host->apply_transpose(xa, ya);
    else t->host->apply(xa, ya);
    PetscCall(VecRestoreArrayWrite(y, &ya));
    PetscCall(VecRestoreArrayRead(x, &xa));
  }
  PetscCall(PetscLogFlops(t->opt.block ? 14.0 * t->n : 5.0 * t->n));
  PetscCall(PetscLogEventEnd(PGK_EVENT_TrilfApply, pc, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_Trilf(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCApplyTrilf(pc, x, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplyTranspose_Trilf(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCApplyTrilf(pc, x, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_Trilf(PC pc)
{
  PC_Trilf *t = (PC_Trilf *)pc->data;

  PetscFunctionBegin;
  t->host.reset();
  t->dev.reset();
  PetscCall(VecDestroy(&t->stage_r));
  PetscCall(VecDestroy(&t->stage_z));
  t->nonzerostate = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_Trilf(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_Trilf(pc));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCTrilfSetBlockSize_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCTrilfSetWeight_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCTrilfGetInfo_C", NULL));
  delete (PC_Trilf *)pc->data;
  pc->data = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_Trilf(PC pc, PetscOptionItems PetscOptionsObject)
{
  PC_Trilf                  *t  = (PC_Trilf *)pc->data;
  pgk::trilf::FactorOptions &f  = t->opt.factor;
  PetscInt                   bs = t->opt.block ? 2 : 1, pairing = (PetscInt)t->opt.pairing, rounds = f.rounds, period = f.charge_period, offset = f.charge_offset, seed = (PetscInt)f.seed;
  PetscReal                  prob = f.charge_prob, tol = t->opt.pivot.rel_tol;
  PetscBool                  set;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Linear-forest tridiagonal preconditioner (trilf) options");
  PetscCall(PetscOptionsInt("-pc_trilf_block_size", "1: tridiagonal (AlgTriScalPrecond); 2: pairs, then a 2x2 block tridiagonal (AlgTriBlockPrecond)", "PCTrilfSetBlockSize", bs, &bs, &set));
  if (set) PetscCall(PCTrilfSetBlockSize(pc, bs));
  PetscCall(PetscOptionsEList("-pc_trilf_block_pairing", "Block variant's pairs: along the forest's paths, or the paper's [0,1]-factor (cuts strong lines)", "PCTRILF", TrilfPairings, 2, TrilfPairings[pairing], &pairing, NULL));
  PetscCall(PetscOptionsEnum("-pc_trilf_weight", "Edge weight: abs |a_ij| (the paper's) or scaled |a_ij|/sqrt(|a_ii a_jj|); A'+A'^T for nonsymmetric A", "PCTrilfSetWeight", PCTrilfWeights, (PetscEnum)t->weight, (PetscEnum *)&t->weight, NULL));
  PetscCall(PetscOptionsInt("-pc_trilf_iterations", "M: proposal rounds of the factor (paper: 5)", "PCTRILF", rounds, &rounds, NULL));
  PetscCall(PetscOptionsInt("-pc_trilf_charge_period", "m: every m-th round is uncharged (paper: 5; 1 = never charged)", "PCTRILF", period, &period, NULL));
  PetscCall(PetscOptionsInt("-pc_trilf_charge_offset", "k_m: round k is uncharged iff k mod m == k_m (paper: 0)", "PCTRILF", offset, &offset, NULL));
  PetscCall(PetscOptionsReal("-pc_trilf_charge_prob", "p: probability of the '+' charge (paper: 0.5)", "PCTRILF", prob, &prob, NULL));
  PetscCall(PetscOptionsInt("-pc_trilf_seed", "Seed of the charge hash (0: the reference setting)", "PCTRILF", seed, &seed, NULL));
  PetscCall(PetscOptionsReal("-pc_trilf_pivot_tol", "A pivot |d| <= tol * (1-norm of its row of T) is tiny: the path is split there, or the pivot replaced", "PCTRILF", tol, &tol, NULL));
  PetscCall(PetscOptionsEnum("-pc_trilf_solver", "Tridiagonal solve of the apply: scan (factor once in set-up, substitute by affine scans) or cuSPARSE gtsv2 (refactors every apply; device, scalar)", "PCTRILF", TrilfSolverTypes, (PetscEnum)t->solver,
                             (PetscEnum *)&t->solver, NULL));
  PetscCall(PetscOptionsBool("-pc_trilf_reuse_forest", "On SAME_NONZERO_PATTERN keep the forest and refactor the values only", "PCTRILF", t->reuse, &t->reuse, NULL));
  PetscOptionsHeadEnd();
  PetscCheck(rounds >= 0 && period >= 1 && offset >= 0 && offset < period, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "PC trilf: need iterations >= 0, charge_period >= 1 and 0 <= charge_offset < charge_period; got %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT, rounds, period, offset);
  PetscCheck(prob >= 0 && prob <= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC trilf: -pc_trilf_charge_prob must be in [0, 1], got %g", (double)prob);
  PetscCheck(tol >= 0 && seed >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC trilf: -pc_trilf_pivot_tol and -pc_trilf_seed must be >= 0");
  if (pairing != (PetscInt)t->opt.pairing || rounds != f.rounds || period != f.charge_period || offset != f.charge_offset || prob != f.charge_prob || (std::uint64_t)seed != f.seed || tol != t->opt.pivot.rel_tol) pc->setupcalled = PETSC_FALSE;
  t->opt.pairing       = (pgk::trilf::PairRule)pairing;
  f.rounds             = (int)rounds;
  f.charge_period      = (int)period;
  f.charge_offset      = (int)offset;
  f.charge_prob        = prob;
  f.seed               = (std::uint64_t)seed;
  t->opt.pivot.rel_tol = tol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_Trilf(PC pc, PetscViewer viewer)
{
  PC_Trilf                        *t = (PC_Trilf *)pc->data;
  PetscBool                        iascii;
  PetscMPIInt                      size;
  MPI_Comm                         comm = PetscObjectComm((PetscObject)pc);
  const pgk::trilf::FactorOptions &f    = t->opt.factor;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%s, weights %s, reuse forest %s, solver %s\n", t->opt.block ? "2x2 block tridiagonal (pairs, then paths of pairs)" : "tridiagonal on a linear forest", PCTrilfWeights[t->weight], t->reuse ? "yes" : "no",
                                   TrilfSolverTypes[t->solver]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "factor rounds M=%d, charge period m=%d, offset k_m=%d, p=%g, seed %llu; pivot tolerance %g\n", f.rounds, f.charge_period, f.charge_offset, f.charge_prob, (unsigned long long)f.seed, t->opt.pivot.rel_tol));
  const PetscBool ready = TrilfReady(t);
  PetscInt        anyready, ready_i = ready ? 1 : 0;
  PetscCallMPI(MPIU_Allreduce(&ready_i, &anyready, 1, MPIU_INT, MPI_MIN, comm));
  if (!anyready) PetscFunctionReturn(PETSC_SUCCESS);

  // Per rank figures, summed / ranged over the ranks (each rank holds one diagonal block).
  const pgk::trilf::SetupInfo   &in      = TrilfInfo(t);
  const pgk::trilf::PhaseTimes  &tm      = TrilfTimes(t);
  const pgk::trilf::ForestStats &fs      = t->opt.block ? in.block.coarse : in.forest;
  PetscInt                       isum[7] = {(PetscInt)in.npaths, (PetscInt)fs.factor_edges, (PetscInt)fs.cycles_broken, (PetscInt)in.splits, (PetscInt)in.replaced, (PetscInt)in.block.pairs, (PetscInt)in.block.ghosts}, gsum[7];
  PetscInt                       imax[2] = {(PetscInt)in.longest, (PetscInt)fs.rounds_run}, gmax[2];
  PetscReal                      cov[4]  = {-in.c_id, in.c_id, -in.c_pi, in.c_pi}, gcov[4];
  PetscReal                      tms[7]  = {tm.weights, tm.factor, tm.cycles, tm.paths, tm.assemble, tm.lu, tm.total()}, gtms[7];
  PetscCallMPI(MPIU_Allreduce(isum, gsum, 7, MPIU_INT, MPI_SUM, comm));
  PetscCallMPI(MPIU_Allreduce(imax, gmax, 2, MPIU_INT, MPI_MAX, comm));
  PetscCallMPI(MPIU_Allreduce(cov, gcov, 4, MPIU_REAL, MPI_MAX, comm));
  PetscCallMPI(MPIU_Allreduce(tms, gtms, 7, MPIU_REAL, MPI_MAX, comm));
  PetscInt ndev = t->device ? 1 : 0, gdev;
  PetscCallMPI(MPIU_Allreduce(&ndev, &gdev, 1, MPIU_INT, MPI_SUM, comm));
  if (size > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "one trilf per rank on its diagonal block (%d ranks, %" PetscInt_FMT " on the device); sums over ranks, ranges min..max\n", size, gdev));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "built on the %s\n", t->device ? "device (MATSEQAIJCUSPARSE, data kept there)" : "host"));
  if (t->compound) PetscCall(PetscViewerASCIIPrintf(viewer, "operator: compound entries (aijcompound), set up from its scalar expansion (MatConvert at each set-up, freed after it)\n"));
  if (size > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "weight coverage: c_id %.4f..%.4f (tridiagonal part in the original order), c_pi %.4f..%.4f (kept by trilf)\n", -gcov[0], gcov[1], -gcov[2], gcov[3]));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "weight coverage: c_id %.4f (tridiagonal part in the original order), c_pi %.4f (kept by trilf)\n", in.c_id, in.c_pi));
  if (t->opt.block) PetscCall(PetscViewerASCIIPrintf(viewer, "pairs %" PetscInt_FMT " (pairing %s), unpaired rows (ghost-padded) %" PetscInt_FMT "\n", gsum[5], pgk::trilf::to_string(t->opt.pairing), gsum[6]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%s: %" PetscInt_FMT " paths, longest %" PetscInt_FMT " %s; [0,2]-factor %" PetscInt_FMT " edges in %" PetscInt_FMT " rounds, %" PetscInt_FMT " cycles broken\n",
                                   t->opt.block ? "paths of pairs" : "linear forest", gsum[0], gmax[0], t->opt.block ? "blocks" : "rows", gsum[1], gmax[1], gsum[2]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "pivots: %" PetscInt_FMT " paths split at a tiny pivot, %" PetscInt_FMT " pivots replaced\n", gsum[3], gsum[4]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "last setup%s (ms): weights %.3f, factor %.3f, cycles %.3f, paths %.3f, assemble %.3f, lu %.3f, total %.3f; forest built %" PetscInt_FMT " of %" PetscInt_FMT " setups\n", size > 1 ? " (slowest rank)" : "",
                                   gtms[0], gtms[1], gtms[2], gtms[3], gtms[4], gtms[5], gtms[6], t->forests, t->setups));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCTrilfSetBlockSize_Trilf(PC pc, PetscInt bs)
{
  PC_Trilf *t = (PC_Trilf *)pc->data;

  PetscFunctionBegin;
  PetscCheck(bs == 1 || bs == 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC trilf: block size must be 1 or 2, got %" PetscInt_FMT, bs);
  if ((bs == 2) != t->opt.block) pc->setupcalled = PETSC_FALSE;
  t->opt.block = bs == 2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCTrilfSetWeight_Trilf(PC pc, PCTrilfWeight w)
{
  PC_Trilf *t = (PC_Trilf *)pc->data;

  PetscFunctionBegin;
  if (w != t->weight) pc->setupcalled = PETSC_FALSE;
  t->weight = w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCTrilfGetInfo_Trilf(PC pc, PCTrilfInfo *info)
{
  PC_Trilf *t = (PC_Trilf *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(info, sizeof *info));
  if (!TrilfReady(t)) PetscFunctionReturn(PETSC_SUCCESS);
  const pgk::trilf::SetupInfo   &in = TrilfInfo(t);
  const pgk::trilf::PhaseTimes  &tm = TrilfTimes(t);
  const pgk::trilf::ForestStats &fs = t->opt.block ? in.block.coarse : in.forest;
  info->on_device                   = t->device;
  info->rows                        = t->n;
  info->npaths                      = in.npaths;
  info->longest                     = in.longest;
  info->factor_edges                = fs.factor_edges;
  info->forest_edges                = fs.forest_edges;
  info->cycles_broken               = fs.cycles_broken;
  info->rounds_run                  = fs.rounds_run;
  info->pairs                       = in.block.pairs;
  info->splits                      = in.splits;
  info->replaced                    = in.replaced;
  info->c_id                        = in.c_id;
  info->c_pi                        = in.c_pi;
  info->t_weights                   = tm.weights;
  info->t_factor                    = tm.factor;
  info->t_cycles                    = tm.cycles;
  info->t_paths                     = tm.paths;
  info->t_assemble                  = tm.assemble;
  info->t_lu                        = tm.lu;
  info->forests                     = t->forests;
  info->setups                      = t->setups;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCTrilfSetBlockSize - scalar (1) or 2x2 block (2) variant of `PCTRILF`

  Logically Collective

  Input Parameters:
+ pc - the preconditioner
- bs - 1: tridiagonal on a linear forest; 2: pairs of rows (`-pc_trilf_block_pairing`), then a linear forest of pairs, a 2x2 block tridiagonal matrix

  Options Database Key:
. -pc_trilf_block_size <1,2> - the variant

  Level: intermediate

.seealso: `PCTRILF`, `PCTrilfSetWeight()`, `PCTrilfGetInfo()`
@*/
PetscErrorCode PCTrilfSetBlockSize(PC pc, PetscInt bs)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, bs, 2);
  PetscTryMethod(pc, "PCTrilfSetBlockSize_C", (PC, PetscInt), (pc, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCTrilfSetWeight - the edge weight the forest maximizes

  Logically Collective

  Input Parameters:
+ pc - the preconditioner
- w  - `PC_TRILF_WEIGHT_ABS` (|a_ij|, the paper's) or `PC_TRILF_WEIGHT_SCALED`
       (|a_ij| / sqrt(|a_ii a_jj|), invariant under symmetric diagonal scaling)

  Options Database Key:
. -pc_trilf_weight <abs,scaled> - the weight

  Note:
  For a nonsymmetric operator the weight of {i,j} is |a_ij| + |a_ji| (A' + A'^T in the paper).

  Level: intermediate

.seealso: `PCTRILF`, `PCTrilfSetBlockSize()`
@*/
PetscErrorCode PCTrilfSetWeight(PC pc, PCTrilfWeight w)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, w, 2);
  PetscTryMethod(pc, "PCTrilfSetWeight_C", (PC, PCTrilfWeight), (pc, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCTrilfGetInfo - figures of the last `PCSetUp()` of a `PCTRILF` on this rank

  Not Collective

  Input Parameter:
. pc - the preconditioner

  Output Parameter:
. info - coverage, paths, cycles, pivots and phase times (all zero before the first set-up)

  Level: advanced

.seealso: `PCTRILF`
@*/
PetscErrorCode PCTrilfGetInfo(PC pc, PCTrilfInfo *info)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(info, 2);
  PetscUseMethod(pc, "PCTrilfGetInfo_C", (PC, PCTrilfInfo *), (pc, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCTRILF - "trilf": linear-forest tridiagonal preconditioner (Klein & Strzodka, ICPP 2022).
   Finds the heaviest set of disjoint paths in the graph of the operator, orders them so that
   they become tridiagonal, and solves that tridiagonal matrix exactly: z = Q T^-1 Q^T r.
   Strong couplings are kept along whatever line they run (anisotropy, convection, mesh lines).

   Options Database Keys:
+  -pc_trilf_block_size <1,2>    - 1: tridiagonal; 2: 2x2 block tridiagonal on pairs of rows
.  -pc_trilf_block_pairing <forest,matching> - block variant: pairs along the forest's paths, or the paper's [0,1]-factor
.  -pc_trilf_weight <abs,scaled> - edge weight |a_ij| or |a_ij|/sqrt(|a_ii a_jj|)
.  -pc_trilf_iterations <5>      - M, proposal rounds of the [0,2]-factor
.  -pc_trilf_charge_period <5>   - m, every m-th round is uncharged (1: never charged)
.  -pc_trilf_charge_offset <0>   - k_m
.  -pc_trilf_charge_prob <0.5>   - p, probability of the '+' charge
.  -pc_trilf_seed <0>            - seed of the charge hash
.  -pc_trilf_pivot_tol <1.49e-8> - relative size under which a pivot is tiny
.  -pc_trilf_solver <scan>       - scan (factor once, substitute), or cuSPARSE gtsv2 (device, scalar)
-  -pc_trilf_reuse_forest <true> - keep the forest on `SAME_NONZERO_PATTERN`, refactor only

   Notes:
   A `MATSEQAIJCUSPARSE` operator (or the diagonal block of `MATMPIAIJCUSPARSE`) is set up and applied on the device
   with no host copy of the matrix or the vectors; other AIJ operators use the host implementation, whose forest,
   permutation and factor are identical. In parallel each rank uses its diagonal block (block Jacobi with trilf blocks).

   A compound-entry operator (`MATAIJCOMPOUND`) is set up from its scalar expansion: `MatConvert()` to `MATAIJCUSPARSE`
   where the compound matrix computes on the device, else `MATAIJ`, at each set-up and freed after it (the set-up holds
   the scalar matrix beside the compound one). Its forest, factor and iterations are those of the expansion.

   The operator must be square; NaN or Inf entries are an error. A zero, missing or tiny pivot (|d| <= tol * row norm
   of T) splits its path there, or, at a path start, is replaced by the row norm of T (so a one-row path with a usable
   diagonal is Jacobi): never a silent NaN. T can be indefinite even for an SPD operator: prefer GMRES or BiCGStab to CG.

   -pc_view prints the weight coverage c_id (tridiagonal part in the original order) and c_pi (kept by trilf), paths,
   longest path, cycles broken, pivot fixes and the time per phase.

   Level: intermediate

.seealso: `PCTrilfSetBlockSize()`, `PCTrilfSetWeight()`, `PCTrilfGetInfo()`, `PCJACOBI`, `PCPBJACOBI`
M*/
PETSC_EXTERN PetscErrorCode PCCreate_Trilf(PC pc)
{
  PetscFunctionBegin;
  pc->data                = new PC_Trilf();
  pc->ops->setup          = PCSetUp_Trilf;
  pc->ops->apply          = PCApply_Trilf;
  pc->ops->applytranspose = PCApplyTranspose_Trilf;
  pc->ops->reset          = PCReset_Trilf;
  pc->ops->destroy        = PCDestroy_Trilf;
  pc->ops->setfromoptions = PCSetFromOptions_Trilf;
  pc->ops->view           = PCView_Trilf;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCTrilfSetBlockSize_C", PCTrilfSetBlockSize_Trilf));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCTrilfSetWeight_C", PCTrilfSetWeight_Trilf));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCTrilfGetInfo_C", PCTrilfGetInfo_Trilf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkRegisterPCTrilf(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("PgkTrilfForest", PETSCGPUKIT_CLASSID, &PGK_EVENT_TrilfForest));
  PetscCall(PetscLogEventRegister("PgkTrilfNumeric", PETSCGPUKIT_CLASSID, &PGK_EVENT_TrilfNumeric));
  PetscCall(PetscLogEventRegister("PgkTrilfApply", PETSCGPUKIT_CLASSID, &PGK_EVENT_TrilfApply));
  PetscCall(PCRegister(PCTRILF, PCCreate_Trilf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// bench_scaling: one component on one problem at this run's rank count (context.hpp). Sizes: the
// device defaults are large problems within the GPU node's time budget (bench/NOTES.md), -small
// a CPU smoke test, the host defaults in between; -gen overrides any.
#include "bench/scaling/context.hpp"

#include <petscgpukit.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "bench/common/bench_common.hpp"
#include "bench/common/bench_cxx.hpp"

namespace pgk::bench::scaling {

static std::string DefaultSpec(const Env &env, const char *device, const char *host, const char *small)
{
  if (env.o.gen[0]) return env.o.gen;
  return env.o.small ? small : env.gpu ? device : host;
}

static std::string Num(double v)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// The largest device memory in use on any rank, as its own row (how full the GPU was).
static PetscErrorCode EmitMemory(const Env &env, const Problem &p, const char *component, double used, double total)
{
  Row r;

  PetscFunctionBegin;
  if (!env.gpu) PetscFunctionReturn(PETSC_SUCCESS);
  r.component = component;
  r.name      = std::string(component) + " device memory";
  r.metric    = "GiB";
  r.value = r.min = r.max = used;
  r.note                  = "most in use on any rank's device, of " + Num(total) + " GiB (other processes on that device included)";
  PetscCall(Emit(env, p, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// KSPSolve from x = 0: iterations, reason and the slowest rank's seconds.
static PetscErrorCode Solve(const Env &env, KSP ksp, Problem &p, PetscInt *its, KSPConvergedReason *reason, double *sec)
{
  PetscFunctionBegin;
  PetscCall(VecSet(p.x, 0.0));
  PetscCall(MaxSeconds(
      env, [&]() { return KSPSolve(ksp, p.b, p.x); }, sec));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A solve within a time budget: 5 iterations first (the warm-up) give the time of one, then the
// solve from x = 0 runs to -rtol or to the iterations that fit -solve_seconds (at least 10, at
// most -max_it; DIVERGED_ITS says the cap was hit). Collective: the cap comes from the slowest rank.
static PetscErrorCode CappedSolve(const Env &env, KSP ksp, Problem &p, PetscInt *its, KSPConvergedReason *reason, double *sec, PetscInt *cap)
{
  double probe;

  PetscFunctionBegin;
  PetscCall(KSPSetTolerances(ksp, env.o.rtol, PETSC_CURRENT, PETSC_CURRENT, 5));
  PetscCall(Solve(env, ksp, p, its, reason, &probe));
  const double per = probe / (double)PetscMax(*its, 1);
  *cap             = (PetscInt)PetscMin((double)env.o.max_it, PetscMax(10.0, env.o.solve_seconds / PetscMax(per, 1e-9)));
  PetscCall(KSPSetTolerances(ksp, env.o.rtol, PETSC_CURRENT, PETSC_CURRENT, *cap));
  PetscCall(Solve(env, ksp, p, its, reason, sec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One ordering: MatGetOrdering of each rank's diagonal block (what PCBJACOBI's sub-PC orders),
// then CG with block Jacobi whose blocks are ILU(0) in that ordering (PC reorder: the block
// permuted on the device where it lives, ILU(0) of the permuted block).
static PetscErrorCode OneOrdering(const Env &env, Problem &p, const std::string &type, double *mem, double *total)
{
  Mat                Ad;
  Row                ord, it;
  KSP                ksp;
  PetscInt           its, mloc, mmax, cap;
  KSPConvergedReason reason;
  double             setup, solve;
  const std::string  prefix = type + "_";

  PetscFunctionBegin;
  PetscCall(MatGetDiagonalBlock(p.A, &Ad));
  PetscCall(MatGetLocalSize(p.A, &mloc, NULL));
  PetscCallMPI(MPIU_Allreduce(&mloc, &mmax, 1, MPIU_INT, MPI_MAX, env.comm));
  ord.component = it.component = "orderings";
  ord.name                     = type + " ordering";
  PetscCall(Repeat(
      env, (int)env.o.warmup, (int)env.o.runs,
      [&]() -> PetscErrorCode {
        IS rperm, cperm;
        PetscCall(MatGetOrdering(Ad, type.c_str(), &rperm, &cperm));
        PetscCall(ISDestroy(&rperm));
        return ISDestroy(&cperm);
      },
      &ord));
  ord.note = "MatGetOrdering of the local diagonal block, " + std::to_string((long long)mmax) + " rows on the largest rank";
  PetscCall(Emit(env, p, ord));
  for (const char *kv : {"ksp_type=cg", "pc_type=bjacobi", "sub_pc_type=reorder", "sub_reorder_pc_type=ilu"}) {
    const std::string s(kv);
    PetscCall(DefaultOption(prefix, s.substr(0, s.find('=')).c_str(), s.substr(s.find('=') + 1)));
  }
  PetscCall(DefaultOption(prefix, "sub_pc_reorder_mat_ordering_type", type));
  if (env.gpu) PetscCall(DefaultOption(prefix, "sub_reorder_pc_factor_mat_solver_type", MATSOLVERCUSPARSE)); // ILU(0) on the device
  PetscCall(KSPCreate(env.comm, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix.c_str()));
  PetscCall(KSPSetOperators(ksp, p.A, p.A));
  PetscCall(KSPSetFromOptions(ksp));
  // KSPSetUpOnBlocks: the blocks' ordering and ILU(0), which KSPSolve would otherwise do first.
  PetscCall(MaxSeconds(
      env,
      [&]() -> PetscErrorCode {
        PetscCall(KSPSetUp(ksp));
        return KSPSetUpOnBlocks(ksp);
      },
      &setup));
  PetscCall(CappedSolve(env, ksp, p, &its, &reason, &solve, &cap));
  PetscCall(DeviceMemoryGiB(env, mem, total));
  it.name   = type + " bjacobi/ilu0 iterations";
  it.metric = "iterations";
  it.value = it.min = it.max = (double)its;
  it.iterations              = its;
  it.reason                  = KSPConvergedReasons[reason];
  KSPType kt;
  PetscCall(KSPGetType(ksp, &kt));
  it.note = "KSP " + std::string(kt) + ", rtol " + Num(env.o.rtol) + "; set-up " + Num(setup) + " s, solve " + Num(solve) + " s; iteration cap " + std::to_string((long long)cap) + " (-solve_seconds " + Num(env.o.solve_seconds) + ")";
  PetscCall(Emit(env, p, it));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RunOrderings(const Env &env)
{
  Problem p;
  double  used = 0, total = 0;

  PetscFunctionBegin;
  PetscCall(CreateProblem(env, DefaultSpec(env, "lap3d7:n=256", "lap3d7:n=60", "lap3d7:n=14"), env.mat_type.c_str(), &p));
  for (const std::string &type : Split(env.o.orderings, ',')) {
    double mem;
    PetscCall(OneOrdering(env, p, type, &mem, &total));
    used = std::max(used, mem);
  }
  PetscCall(EmitMemory(env, p, "orderings", used, total));
  PetscCall(DestroyProblem(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One time to solution: a new KSP, then KSPSolve from x = 0 on the slowest rank. With
// explicit_setup, KSPSetUp runs first (inside the timing). The two differ by PETSc, not trilf:
// KSPSetUp before any solve has no solution vector to copy, so KSPCreateVecs takes its template
// from MatCreateVecs, and on several ranks a VECMPICUDA vector made that way allocates and zeroes a
// device array and a pinned host array at once (Vec_CUPMBase::Initialize_CUPMBase); KSPSolve sets
// the solution vector first, and duplicates of it allocate lazily.
static PetscErrorCode TimeTrilfSolve(const Env &env, Problem &p, const std::string &prefix, bool explicit_setup, double *sec, PetscInt *its, KSPConvergedReason *reason, std::string *ksp_type)
{
  KSP     ksp;
  KSPType kt;

  PetscFunctionBegin;
  PetscCall(KSPCreate(env.comm, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix.c_str()));
  PetscCall(KSPSetOperators(ksp, p.A, p.A));
  PetscCall(KSPSetTolerances(ksp, env.o.rtol, PETSC_CURRENT, PETSC_CURRENT, env.o.max_it));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(p.x, 0.0));
  PetscCall(MaxSeconds(
      env,
      [&]() -> PetscErrorCode {
        if (explicit_setup) PetscCall(KSPSetUp(ksp));
        return KSPSolve(ksp, p.b, p.x);
      },
      sec));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPGetType(ksp, &kt));
  *ksp_type = kt;
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Time to solution as a user sees it: a new KSP each run and KSPSolve from x = 0 (trilf's
// forest, T and its factorization set up inside, as PETSc's tutorials call it), on the slowest
// rank; beside it the same with KSPSetUp called first. The two runs alternate. Under MPI every
// rank's trilf works on its diagonal block, so the iterations may grow with the ranks (reported).
PetscErrorCode RunTrilf(const Env &env)
{
  Problem             p;
  std::vector<double> t[2];
  PetscInt            its[2]    = {0, 0};
  KSPConvergedReason  reason[2] = {KSP_CONVERGED_ITERATING, KSP_CONVERGED_ITERATING};
  double              used = 0, total = 0;
  const std::string   prefix = "trilf_";
  std::string         ksp_type;

  PetscFunctionBegin;
  PetscCall(CreateProblem(env, DefaultSpec(env, "aniso3d:n=400", "aniso3d:n=50", "aniso3d:n=14"), env.mat_type.c_str(), &p));
  PetscCall(DefaultOption(prefix, "ksp_type", "cg"));
  PetscCall(DefaultOption(prefix, "pc_type", "trilf"));
  for (int i = 0; i < (int)(env.o.warmup + env.o.runs); ++i) {
    for (int k = 0; k < 2; ++k) {
      double sec;
      PetscCall(TimeTrilfSolve(env, p, prefix, k == 1, &sec, &its[k], &reason[k], &ksp_type));
      if (i >= env.o.warmup) t[k].push_back(sec);
    }
    if (i == (int)(env.o.warmup + env.o.runs) - 1) PetscCall(DeviceMemoryGiB(env, &used, &total));
  }
  for (int k = 0; k < 2; ++k) {
    const Stats s = summarize(t[k]);
    Row         r;
    r.component  = "trilf";
    r.name       = k == 0 ? "trilf time to solution" : "trilf time to solution, KSPSetUp first";
    r.value      = s.median;
    r.min        = s.min;
    r.max        = s.max;
    r.runs       = s.runs;
    r.iterations = its[k];
    r.reason     = KSPConvergedReasons[reason[k]];
    r.note       = std::string(k == 0 ? "KSPSolve (set-up inside)" : "KSPSetUp + KSPSolve") + ", a new KSP each run; KSP " + ksp_type + " + PC trilf, rtol " + Num(env.o.rtol);
    PetscCall(Emit(env, p, r));
  }
  PetscCall(EmitMemory(env, p, "trilf", used, total));
  PetscCall(DestroyProblem(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Seconds of one MatMult: repetitions of -mults MatMults on the slowest rank.
static PetscErrorCode TimeMatMult(const Env &env, Mat A, Vec x, Vec y, Row *r)
{
  PetscFunctionBegin;
  PetscCall(Repeat(
      env, (int)env.o.warmup, (int)env.o.runs,
      [&]() -> PetscErrorCode {
        for (PetscInt k = 0; k < env.o.mults; ++k) PetscCall(MatMult(A, x, y));
        return PETSC_SUCCESS;
      },
      r));
  r->value /= (double)env.o.mults;
  r->min /= (double)env.o.mults;
  r->max /= (double)env.o.mults;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatConvert(A, MATAIJCOMPOUND) through the public API. An error (e.g. a build whose aijcompound
// has no MPI type yet) becomes the row's status with PETSc's message, not the end of the run.
static PetscErrorCode ConvertCompound(const Env &env, Mat A, Mat *C, Row *r)
{
  int ierr, worst;

  PetscFunctionBegin;
  *C = NULL;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = (int)MatConvert(A, MATAIJCOMPOUND, MAT_INITIAL_MATRIX, C);
  PetscCall(PetscPopErrorHandler());
  PetscCallMPI(MPIU_Allreduce(&ierr, &worst, 1, MPI_INT, MPI_MAX, env.comm));
  if (!worst) PetscFunctionReturn(PETSC_SUCCESS);
  const char *text = NULL, *specific = NULL;
  PetscCall(PetscErrorMessage((PetscErrorCode)worst, &text, &specific));
  r->status = worst == PETSC_ERR_SUP ? "unsupported" : "failed";
  r->value = r->min = r->max = NAN;
  r->note                    = std::string("MatConvert(A, MATAIJCOMPOUND) failed with PETSc error ") + std::to_string(worst) + ": " + (specific && specific[0] ? specific : text ? text : "(no message)");
  if (!ierr) PetscCall(MatDestroy(C)); // converted here, failed on another rank
  *C = NULL;                           // a failed conversion leaves no usable matrix (what it allocated leaks)
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The compound product against AIJ's, and what the tuner chose (where the type reports it).
static PetscErrorCode CompoundNote(const Env &env, Mat C, Problem *p, Vec x, Vec y, Vec yc, Row *r)
{
  PetscReal   diff, ny;
  const char *variant = NULL, *source = NULL;
  PetscReal   gbs = 0;

  PetscFunctionBegin;
  PetscCall(ReferenceMult(env, p, x, y));
  PetscCall(MatMult(C, x, yc));
  PetscCall(VecAXPY(yc, -1.0, y));
  PetscCall(VecNorm(yc, NORM_2, &diff));
  PetscCall(VecNorm(y, NORM_2, &ny));
  diff = ny > 0 ? diff / ny : diff;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  const PetscErrorCode terr = MatAIJCompoundGetTuning(C, &variant, &source, &gbs);
  PetscCall(PetscPopErrorHandler());
  MatType ct;
  PetscCall(MatGetType(C, &ct));
  r->note = std::string("type ") + ct + "; |y - y_aij| / |y_aij| = " + Num((double)diff);
  if (!terr && variant) r->note += std::string("; layout ") + variant + " (" + (source ? source : "?") + ", " + Num((double)gbs) + " GB/s)";
  if (!(diff <= 1e-10)) {
    r->status = "failed";
    r->note += " (differs from AIJ)";
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RunAijCompound(const Env &env)
{
  Problem p;
  Mat     C = NULL;
  Vec     y, yc;
  Row     aij, cmp;
  double  used, total;

  PetscFunctionBegin;
  // Full 3x3 blocks (vec3d27), the entries the type is for. elast3d (the default until 2026-11-27)
  // fills only 45 of the 171 scalars of its 19 blocks a block row: stored as full blocks it moves
  // 3.8x its nonzeros, and PETSc's AIJCUSPARSE MatMult was 2x faster than aijcompound's on it.
  PetscCall(CreateProblem(env, DefaultSpec(env, "vec3d27:n=128", "vec3d27:n=24", "vec3d27:n=6"), env.mat_type.c_str(), &p));
  PetscCall(VecDuplicate(p.b, &y));
  PetscCall(VecDuplicate(p.b, &yc));
  aij.component = cmp.component = "aijcompound";
  aij.name                      = "MatMult " + env.mat_type;
  if (p.device_mult_error.empty()) {
    PetscCall(TimeMatMult(env, p.A, p.xtrue, y, &aij));
    aij.note = "PETSc's own MatMult of the same matrix (reference, no target)";
  } else {
    aij.status = "unsupported";
    aij.value = aij.min = aij.max = NAN;
    aij.note                      = "PETSc's own MatMult fails on the device at this size (" + p.device_mult_error + "); the reference product is the host's";
  }
  PetscCall(Emit(env, p, aij));
  cmp.name = "aijcompound MatMult";
  PetscCall(ConvertCompound(env, p.A, &C, &cmp));
  if (C) {
    PetscCall(TimeMatMult(env, C, p.xtrue, yc, &cmp)); // the warm-up runs the tuner, where it tunes
    PetscCall(CompoundNote(env, C, &p, p.xtrue, y, yc, &cmp));
  }
  PetscCall(Emit(env, p, cmp));
  PetscCall(DeviceMemoryGiB(env, &used, &total));
  PetscCall(EmitMemory(env, p, "aijcompound", used, total));
  PetscCall(MatDestroy(&C));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yc));
  PetscCall(DestroyProblem(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// CARP across ranks: the same number of blocks in all (-carp_blocks, split over the ranks), so 1
// and 2 ranks run the same method; seconds an iteration from a solve capped by -solve_seconds.
PetscErrorCode RunCarpcg(const Env &env)
{
  Problem            p;
  KSP                ksp;
  Row                r;
  PetscInt           its, mloc, mmin, cap;
  KSPConvergedReason reason;
  double             setup, solve, used, total;
  const std::string  prefix = "carp_";

  PetscFunctionBegin;
  PetscCall(CreateProblem(env, DefaultSpec(env, "fem2d:n=4001", "fem2d:n=400", "fem2d:n=40"), env.mat_type.c_str(), &p));
  PetscCall(MatGetLocalSize(p.A, &mloc, NULL));
  PetscCallMPI(MPIU_Allreduce(&mloc, &mmin, 1, MPIU_INT, MPI_MIN, env.comm));
  const PetscInt blocks = PetscMax(1, PetscMin(env.o.carp_blocks / env.size, mmin));
  PetscCall(DefaultOption(prefix, "ksp_type", KSPCARPCG));
  PetscCall(DefaultOption(prefix, "ksp_carpcg_scheme", "carp"));
  PetscCall(DefaultOption(prefix, "ksp_carpcg_blocks", std::to_string((long long)blocks)));
  PetscCall(DefaultOption(prefix, "pc_type", "none"));
  PetscCall(KSPCreate(env.comm, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix.c_str()));
  PetscCall(KSPSetOperators(ksp, p.A, p.A));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(MaxSeconds(
      env, [&]() { return KSPSetUp(ksp); }, &setup));
  PetscCall(CappedSolve(env, ksp, p, &its, &reason, &solve, &cap));
  PetscCall(DeviceMemoryGiB(env, &used, &total));
  r.component = "carpcg";
  r.name      = "carpcg carp iteration";
  r.value = r.min = r.max = solve / (double)PetscMax(its, 1);
  r.iterations            = its;
  r.reason                = KSPConvergedReasons[reason];
  r.note = "scheme carp, " + std::to_string((long long)blocks) + " blocks a rank, rtol " + Num(env.o.rtol) + "; set-up " + Num(setup) + " s, solve " + Num(solve) + " s; iteration cap " + std::to_string((long long)cap) + " (-solve_seconds " +
           Num(env.o.solve_seconds) + ")";
  PetscCall(Emit(env, p, r));
  PetscCall(EmitMemory(env, p, "carpcg", used, total));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(DestroyProblem(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::scaling

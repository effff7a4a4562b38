// bench_carpcg: the methods compared and one method on one problem (context.hpp).
#include "bench/carpcg/context.hpp"

#include <petscgpukit.h>
#include <petsctime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/common/bench_timing.hpp"

namespace pgk::bench::carpcg {

// The rows, in the order printed. `device_mat`: the matrix is MATAIJCUSPARSE (ILU(0) by cuSPARSE).
std::vector<Method> Methods(PetscBool device_mat)
{
  std::vector<Method> v;
  v.push_back({"mc", "carpcg multicolor", KSPCARPCG, {{"ksp_carpcg_scheme", "multicolor"}}, Needs::Any, true});
  v.push_back({"carp", "carpcg carp", KSPCARPCG, {{"ksp_carpcg_scheme", "carp"}}, Needs::Any, true});
  v.push_back({"cimmino", "carpcg cimmino", KSPCARPCG, {{"ksp_carpcg_scheme", "cimmino"}}, Needs::Any, true});
  v.push_back({"gmres", "gmres(30)+jacobi", KSPGMRES, {{"ksp_gmres_restart", "30"}, {"pc_type", "jacobi"}}, Needs::Any, false});
  v.push_back({"bcgs", "bcgs+jacobi", KSPBCGS, {{"pc_type", "jacobi"}}, Needs::Any, false});
  Method ilu{"ilu", "gmres(30)+bjacobi/ilu0", KSPGMRES, {{"ksp_gmres_restart", "30"}, {"pc_type", "bjacobi"}, {"sub_pc_type", "ilu"}}, Needs::Any, false};
  if (device_mat) ilu.options.push_back({"sub_pc_factor_mat_solver_type", "cusparse"});
  v.push_back(ilu);
  v.push_back({"minres", "minres+jacobi", KSPMINRES, {{"pc_type", "jacobi"}}, Needs::Symmetric, false});
  v.push_back({"cgne", "cgne (pc none)", KSPCGNE, {{"pc_type", "none"}}, Needs::Any, false});
  v.push_back({"cg", "cg+jacobi", KSPCG, {{"pc_type", "jacobi"}}, Needs::Spd, false});
  return v;
}

// ---- the time cap: the KSP's own convergence test, and DIVERGED_ITS once a solve has run for
// more than `seconds` (flagged, so that the row says "time cap" rather than max_it) ------------
struct Cap {
  KSPConvergenceTestFn *fn      = NULL;
  void                 *ctx     = NULL;
  PetscCtxDestroyFn    *destroy = NULL;
  PetscLogDouble        start = 0, seconds = 0;
  bool                  hit = false;
};

static PetscErrorCode CappedTest(KSP ksp, PetscInt it, PetscReal rnorm, KSPConvergedReason *reason, void *vctx)
{
  Cap *c = (Cap *)vctx;

  PetscFunctionBegin;
  PetscCall(c->fn(ksp, it, rnorm, reason, c->ctx));
  if (*reason == KSP_CONVERGED_ITERATING && c->seconds > 0) {
    PetscLogDouble now;
    PetscCall(PetscTime(&now));
    if (now - c->start > c->seconds) {
      *reason = KSP_DIVERGED_ITS;
      c->hit  = true;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CapDestroy(PetscCtxRt p)
{
  Cap *c = *(Cap **)p;

  PetscFunctionBegin;
  if (c->destroy) PetscCall(c->destroy(&c->ctx));
  delete c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InstallCap(KSP ksp, PetscReal seconds, Cap **cap)
{
  Cap *c = new Cap();

  PetscFunctionBegin;
  PetscCall(KSPGetAndClearConvergenceTest(ksp, &c->fn, &c->ctx, &c->destroy));
  c->seconds = seconds;
  PetscCall(KSPSetConvergenceTest(ksp, CappedTest, c, CapDestroy));
  *cap = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The method's options under its prefix, where the user has not given them on the command line
// (so -carp_ksp_carpcg_blocks 64 or -ilu_sub_pc_type icc win).
static PetscErrorCode SetMethodOptions(const Method &m, const std::string &prefix)
{
  PetscFunctionBegin;
  for (const auto &[k, v] : m.options) {
    const std::string name = "-" + prefix + k;
    PetscBool         set;
    PetscCall(PetscOptionsHasName(NULL, NULL, name.c_str(), &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, name.c_str(), v.c_str()));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ||b - A x|| / ||b|| and ||x - x_true|| / ||x_true|| of the last solve.
static PetscErrorCode Accuracy(Problem &p, Vec x, RowResult *r)
{
  PetscReal rn, bn, en, xn;

  PetscFunctionBegin;
  PetscCall(MatMult(p.A, x, p.y));
  PetscCall(VecAYPX(p.y, -1.0, p.b));
  PetscCall(VecNorm(p.y, NORM_2, &rn));
  PetscCall(VecNorm(p.b, NORM_2, &bn));
  PetscCall(VecWAXPY(p.y, -1.0, p.xtrue, x));
  PetscCall(VecNorm(p.y, NORM_2, &en));
  PetscCall(VecNorm(p.xtrue, NORM_2, &xn));
  r->relres = bn > 0 ? rn / bn : rn;
  r->relerr = xn > 0 ? en / xn : en;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// How many timed solves after the warm-up one took `est` seconds: -runs, or -long_runs for a solve
// over -long_seconds, as many as fit in -row_seconds; 0: the warm-up itself is the one timed run
// (it did not converge, hit the time cap, or a second run would not fit the row's budget).
static int TimedRuns(const Options &o, double est, bool converged, std::string *note)
{
  char buf[200];

  if (!converged) {
    *note = "1 run: the warm-up (not converged)";
    return 0;
  }
  const int want = (int)(est > o.long_seconds ? std::min(o.runs, o.long_runs) : o.runs);
  const int fit  = est > 0 ? (int)std::floor(o.row_seconds / est) : want;
  if (fit < 1 || want < 1) {
    std::snprintf(buf, sizeof buf, "1 run: the warm-up (%.3g s a solve, over the row budget of %g s)", est, (double)o.row_seconds);
    *note = buf;
    return 0;
  }
  const int runs = std::min(want, fit);
  if (runs < o.runs) {
    std::snprintf(buf, sizeof buf, "%d runs (a solve takes %.3g s: -long_runs %d over -long_seconds %g, at most -row_seconds %g in all)", runs, est, (int)o.long_runs, (double)o.long_seconds, (double)o.row_seconds);
    *note = buf;
  }
  return runs;
}

// One solve from x = 0: seconds (synchronized wall clock), iterations, reason.
static PetscErrorCode SolveOnce(KSP ksp, Problem &p, Vec x, Cap *cap, PetscBool gpu, double *sec, PetscInt *its, KSPConvergedReason *reason)
{
  PetscFunctionBegin;
  PetscCall(VecSet(x, 0.0));
  PetscCall(pgk::bench::DeviceSync(gpu));
  PetscCall(PetscTime(&cap->start));
  cap->hit = false;
  PetscCall(pgk::bench::Timed(
      gpu, [&]() { return KSPSolve(ksp, p.b, x); }, sec));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Set-up (timed once), a warm-up solve, then the timed solves (TimedRuns), each from x = 0.
PetscErrorCode RunMethod(Problem &p, const Method &m, const Options &o, PetscBool gpu, RowResult *r)
{
  KSP                 ksp;
  Vec                 x;
  Cap                *cap;
  const std::string   prefix = m.key + "_";
  std::vector<double> t;
  double              est;
  PetscInt            its;
  KSPConvergedReason  reason;

  PetscFunctionBegin;
  r->method = m.name;
  r->rtol   = o.rtol;
  PetscCall(SetMethodOptions(m, prefix));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)p.A), &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix.c_str()));
  PetscCall(KSPSetOperators(ksp, p.A, p.A));
  PetscCall(KSPSetType(ksp, m.ksp_type.c_str()));
  PetscCall(KSPSetTolerances(ksp, o.rtol, PETSC_CURRENT, PETSC_CURRENT, o.max_it));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecDuplicate(p.b, &x));
  PetscCall(pgk::bench::Timed(
      gpu, [&]() { return KSPSetUp(ksp); }, &r->setup));
  PetscCall(InstallCap(ksp, o.solve_seconds, &cap));
  PetscCall(SolveOnce(ksp, p, x, cap, gpu, &est, &its, &reason));
  r->time_capped = cap->hit;
  const int runs = TimedRuns(o, est, reason > 0 && !cap->hit, &r->runs_note);
  if (runs == 0) t.push_back(est);
  r->its = r->its_min = r->its_max = its;
  r->reason                        = reason;
  for (int i = 0; i < runs; ++i) {
    double sec;
    PetscCall(SolveOnce(ksp, p, x, cap, gpu, &sec, &its, &reason));
    t.push_back(sec);
    r->its_min     = i == 0 ? its : std::min(r->its_min, its);
    r->its_max     = i == 0 ? its : std::max(r->its_max, its);
    r->its         = its;
    r->reason      = reason;
    r->time_capped = cap->hit;
  }
  r->solve = pgk::bench::summarize(t);
  r->ran   = true;
  PetscCall(Accuracy(p, x, r));
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::carpcg

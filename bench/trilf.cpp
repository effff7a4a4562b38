static const char help[] = "PC trilf benchmark, side by side in one run on each matrix:\n"
                           "  1. MatMult of the operator (the unit every cost is expressed in);\n"
                           "  2. trilf set-up per phase (weights, factor, cycles, paths = forest extraction; assemble, lu)\n"
                           "     for the scalar and the 2x2 block variant, and the value-only refactorization;\n"
                           "  3. PCApply of trilf (scalar, block) next to PCApply of jacobi;\n"
                           "  4. solves of A x = b (x random) with jacobi, pbjacobi, bjacobi+ILU(0) (cuSPARSE on the device)\n"
                           "     and trilf (scalar, block): iterations, set-up, solve and total time;\n"
                           "  5. on a device: the kernel level, kernels/trilf called directly on the same matrix, next to the\n"
                           "     PC calls of 2 and 3 (bench/trilf/kernel_phases.hpp).\n"
                           "Options: -matrices \"spec|ksp;spec|ksp;...\" (ksp: cg, gmres or bcgs), -runs <k> (10), -warmup <k> (2),\n"
                           "         -solve_runs <k> (1), -rtol <r> (1e-8), -max_it <k> (20000), -solves <bool> (true),\n"
                           "         -kernels <bool> (true), -kernel_host_check <bool> (true), -results <dir> (bench/results)\n";

#include <petscgpukit.h>
#include <petscksp.h>
#include <petsctime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/common/bench_common.hpp"
#include "bench/common/bench_cxx.hpp"
#include "bench/common/bench_timing.hpp"
#include "bench/trilf/kernel_phases.hpp" // PcCallTimes; the kernel level itself needs CUDA
#if defined(PGK_HAVE_CUDA)
#  include "kernels/common/kernels.hpp"
#endif

using pgk::bench::Record;
using pgk::bench::Stats;
using pgk::bench::Timed;
using pgk::bench::TimeOp;

struct SolveConfig {
  std::string                                      name;
  std::vector<std::pair<std::string, std::string>> options; // without the prefix
};

static std::vector<SolveConfig> SolveConfigs(PetscBool gpu)
{
  std::vector<SolveConfig> c;
  c.push_back({"jacobi", {{"pc_type", "jacobi"}}});
  c.push_back({"pbjacobi", {{"pc_type", "pbjacobi"}}});
  SolveConfig ilu{"bjacobi+ilu0", {{"pc_type", "bjacobi"}, {"sub_pc_type", "ilu"}}};
  if (gpu) ilu.options.push_back({"sub_pc_factor_mat_solver_type", "cusparse"});
  c.push_back(ilu);
  c.push_back({"trilf", {{"pc_type", "trilf"}}});
  c.push_back({"trilf bs2", {{"pc_type", "trilf"}, {"pc_trilf_block_size", "2"}}});
  // The multigrid a user would pick instead (its default smoother), and trilf as its smoother.
  c.push_back({"gamg", {{"pc_type", "gamg"}}});
  // trilf as its smoother, the README's recipe: damped Richardson, 2 sweeps (with PETSc's default
  // Chebyshev smoother trilf did not converge on convection in bench/NOTES.md's measurements).
  c.push_back({"gamg+trilf", {{"pc_type", "gamg"}, {"mg_levels_pc_type", "trilf"}, {"mg_levels_ksp_type", "richardson"}, {"mg_levels_ksp_richardson_scale", "0.8"}, {"mg_levels_ksp_max_it", "2"}}});
  return c;
}

// -configs a,b,...: only these (by name); -extra_configs "name:key=value,key=value;...": more, e.g.
// smoother variants ("gamg+trilf rich:pc_type=gamg,mg_levels_pc_type=trilf,mg_levels_ksp_type=richardson").
static PetscErrorCode SelectConfigs(const char *only, const char *extra, std::vector<SolveConfig> *c)
{
  PetscFunctionBegin;
  if (only[0]) {
    std::vector<SolveConfig> kept;
    for (const std::string &name : Split(only, ','))
      for (const SolveConfig &cfg : *c)
        if (cfg.name == name) kept.push_back(cfg);
    *c = kept;
  }
  for (const std::string &item : Split(extra, ';')) {
    const std::size_t colon = item.find(':');
    PetscCheck(colon != std::string::npos, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-extra_configs item '%s' is not name:key=value,...", item.c_str());
    SolveConfig cfg{item.substr(0, colon), {}};
    for (const std::string &kv : Split(item.substr(colon + 1), ',')) {
      const std::size_t eq = kv.find('=');
      PetscCheck(eq != std::string::npos, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-extra_configs: '%s' is not key=value", kv.c_str());
      cfg.options.push_back({kv.substr(0, eq), kv.substr(eq + 1)});
    }
    c->push_back(cfg);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct SolveResult {
  PetscInt           its    = 0;
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  double             setup = 0, solve = 0, error = 0;
};

static PetscErrorCode Solve(Mat A, Vec b, Vec xtrue, const char *ksptype, const SolveConfig &cfg, int idx, PetscReal rtol, PetscInt max_it, PetscBool gpu, SolveResult *res)
{
  KSP         ksp;
  Vec         x;
  std::string prefix = "bench" + std::to_string(idx) + "_";

  PetscFunctionBegin;
  for (auto &[k, v] : cfg.options) PetscCall(PetscOptionsSetValue(NULL, ("-" + prefix + k).c_str(), v.c_str()));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix.c_str()));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, ksptype));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_CURRENT, PETSC_CURRENT, max_it));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecSet(x, 0.0));
  PetscCall(Timed(
      gpu, [&]() { return KSPSetUp(ksp); }, &res->setup));
  PetscCall(Timed(
      gpu, [&]() { return KSPSolve(ksp, b, x); }, &res->solve));
  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  PetscCall(KSPGetConvergedReason(ksp, &res->reason));
  PetscReal en, xn;
  PetscCall(VecAXPY(x, -1.0, xtrue));
  PetscCall(VecNorm(x, NORM_2, &en));
  PetscCall(VecNorm(xtrue, NORM_2, &xn));
  res->error = en / xn;
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Options {
  PetscInt  runs = 10, warmup = 2, max_it = 20000, solve_runs = 1;
  PetscReal rtol   = 1e-8;
  PetscBool solves = PETSC_TRUE, kernels = PETSC_TRUE, host_check = PETSC_TRUE;
  char      results[PETSC_MAX_PATH_LEN] = PGK_BENCH_RESULTS_DIR, mats[4096] = "", configs[1024] = "", extra[4096] = "";
};

static PetscErrorCode GetOptions(PetscBool gpu, Options *o)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_trilf", NULL);
  PetscCall(PetscOptionsString("-matrices", "spec|ksp;...", NULL, o->mats, o->mats, sizeof o->mats, NULL));
  PetscCall(PetscOptionsInt("-runs", "timed runs", NULL, o->runs, &o->runs, NULL));
  PetscCall(PetscOptionsInt("-warmup", "untimed runs first", NULL, o->warmup, &o->warmup, NULL));
  PetscCall(PetscOptionsInt("-solve_runs", "timed solves per configuration (median)", NULL, o->solve_runs, &o->solve_runs, NULL));
  PetscCall(PetscOptionsReal("-rtol", "relative tolerance of the solves", NULL, o->rtol, &o->rtol, NULL));
  PetscCall(PetscOptionsInt("-max_it", "iteration limit of the solves", NULL, o->max_it, &o->max_it, NULL));
  PetscCall(PetscOptionsBool("-solves", "run the solves", NULL, o->solves, &o->solves, NULL));
  PetscCall(PetscOptionsBool("-kernels", "time the device kernels directly too (device runs)", NULL, o->kernels, &o->kernels, NULL));
  PetscCall(PetscOptionsBool("-kernel_host_check", "check the kernels' result against the host reference", NULL, o->host_check, &o->host_check, NULL));
  PetscCall(PetscOptionsString("-results", "folder for the JSON lines", NULL, o->results, o->results, sizeof o->results, NULL));
  PetscCall(PetscOptionsString("-configs", "solve configurations to run, by name (default: all)", NULL, o->configs, o->configs, sizeof o->configs, NULL));
  PetscCall(PetscOptionsString("-extra_configs", "more: name:key=value,...;...", NULL, o->extra, o->extra, sizeof o->extra, NULL));
  PetscOptionsEnd();
  if (!o->mats[0]) {
    // Millions of rows, tens of millions of nonzeros on the device, with issue 15's rows (2D 5-point
    // anisotropy both ways and convection at 4.2M unknowns, 3D anisotropy both ways); a CPU run gets small ones.
    if (gpu)
      PetscCall(PetscStrncpy(o->mats,
                             "aniso2d:n=2500,variant=2|cg;aniso2d:n=2500,variant=3|cg;aniso3d:n=160|cg;aniso3d:n=160,ax=0.0001,ay=0.01,az=1|cg;lap3d7:n=160|cg;elast3d:n=96|cg;aniso2d5:n=2048|gmres;aniso2d5:n=2048,ax=1,ay=0.01|gmres;convdiff2d:n="
                             "2048,peclet=2000|gmres;convdiff2d:n=2000,peclet=20000|bcgs;convdiff3d:n=160,peclet=1000|bcgs",
                             sizeof o->mats));
    else PetscCall(PetscStrncpy(o->mats, "aniso2d:n=300,variant=2|cg;aniso3d:n=40|cg;lap3d7:n=40|cg;elast3d:n=16|cg;convdiff2d:n=300,peclet=1000|bcgs", sizeof o->mats));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Summary {
  std::string matrix;
  double      forest_mm[2] = {0, 0}, apply_mm[2] = {0, 0}, setup_mm[2] = {0, 0}, refac_mm[2] = {0, 0}, speedup = 0;
  bool        aniso_or_conv = false, convection = false, solved = false;
  PetscInt    its_gamg = -1, its_gamg_trilf = -1; // -1: not run; converged flags below
  bool        ok_gamg = false, ok_gamg_trilf = false;
};

// One matrix of the run: the operator, its vectors, the MatMult unit, and its records.
struct Problem {
  std::string                                                                                       spec, ksptype;
  Mat                                                                                               A = NULL;
  Vec                                                                                               x = NULL, y = NULL, xtrue = NULL, b = NULL;
  PetscInt                                                                                          N = 0;
  MatInfo                                                                                           minfo;
  Stats                                                                                             mm;
  Summary                                                                                           sum;
  std::function<bool(const std::string &, const std::string &, const Stats &, const std::string &)> record;
};

static PetscErrorCode CreateProblem(const std::string &item, const char *mtype, Problem *p)
{
  PetscFunctionBegin;
  p->spec    = item.substr(0, item.find('|'));
  p->ksptype = item.find('|') == std::string::npos ? "gmres" : item.substr(item.find('|') + 1);
  PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, p->spec.c_str(), NULL, &p->A));
  PetscCall(MatConvert(p->A, mtype, MAT_INPLACE_MATRIX, &p->A));
  PetscCall(MatGetSize(p->A, &p->N, NULL));
  PetscCall(MatGetInfo(p->A, MAT_GLOBAL_SUM, &p->minfo));
  PetscCall(MatCreateVecs(p->A, &p->x, &p->y));
  PetscCall(VecDuplicate(p->x, &p->xtrue));
  PetscCall(VecDuplicate(p->x, &p->b));
  PetscCall(VecSetRandom(p->x, NULL));
  PetscCall(VecCopy(p->x, p->xtrue));
  PetscCall(MatMult(p->A, p->xtrue, p->b));
  p->sum.matrix        = p->spec;
  p->sum.convection    = p->spec.rfind("convdiff", 0) == 0;
  p->sum.aniso_or_conv = p->spec.rfind("aniso", 0) == 0 || p->sum.convection;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DestroyProblem(Problem *p)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&p->x));
  PetscCall(VecDestroy(&p->y));
  PetscCall(VecDestroy(&p->xtrue));
  PetscCall(VecDestroy(&p->b));
  PetscCall(MatDestroy(&p->A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// New values, same pattern, as PCSetUp sees it (a new object state): scaled by 2 and back by
// 1/2, both exact, on the device for a device matrix (PETSc's public API has no way to bump the
// state alone). Outside the timed region.
static PetscErrorCode MarkValuesChanged(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatScale(A, 0.5));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Full set-ups (PCReset first), phase by phase from PCTrilfGetInfo; then value-only
// refactorizations (SAME_NONZERO_PATTERN: the forest is kept).
static PetscErrorCode TimeSetups(PC pc, Problem &p, const Options &o, PetscBool gpu, std::map<std::string, std::vector<double>> &ph, std::vector<double> &refac, PCTrilfInfo *info)
{
  PetscFunctionBegin;
  for (int i = 0; i < o.warmup + o.runs; ++i) {
    double sec;
    PetscCall(PCReset(pc)); // drops the forest and the operators: a full set-up follows
    PetscCall(PCSetOperators(pc, p.A, p.A));
    PetscCall(Timed(
        gpu, [&]() { return PCSetUp(pc); }, &sec));
    PetscCall(PCTrilfGetInfo(pc, info));
    if (i < o.warmup) continue;
    ph["weights"].push_back(info->t_weights * 1e-3);
    ph["factor"].push_back(info->t_factor * 1e-3);
    ph["cycles"].push_back(info->t_cycles * 1e-3);
    ph["paths"].push_back(info->t_paths * 1e-3);
    ph["assemble"].push_back(info->t_assemble * 1e-3);
    ph["lu"].push_back(info->t_lu * 1e-3);
    ph["forest"].push_back((info->t_weights + info->t_factor + info->t_cycles + info->t_paths) * 1e-3);
    ph["setup wall"].push_back(sec);
  }
  for (int i = 0; i < o.warmup + o.runs; ++i) {
    double sec;
    PetscCall(MarkValuesChanged(p.A));
    PetscCall(PCSetOperators(pc, p.A, p.A));
    PetscCall(Timed(
        gpu, [&]() { return PCSetUp(pc); }, &sec));
    if (i >= o.warmup) refac.push_back(sec);
  }
  PetscCall(PCTrilfGetInfo(pc, info));
  PetscCheck(info->forests == info->setups - o.warmup - o.runs, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the refactorization rebuilt the forest");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// cuSPARSE's tridiagonal solver on the same T~ (it refactors on every call), scalar, device.
static PetscErrorCode TimeGtsv(PC pc, Problem &p, const Options &o, const Stats &ap)
{
  PetscFunctionBegin;
  for (const char *solver : {"gtsv2"}) {
    Stats gs;
    PetscCall(PetscOptionsSetValue(NULL, "-bt_pc_trilf_solver", solver));
    PetscCall(PCSetFromOptions(pc));
    PetscCall(MarkValuesChanged(p.A));
    PetscCall(PCSetOperators(pc, p.A, p.A));
    PetscCall(PCSetUp(pc));
    PetscCall(TimeOp(
        PETSC_TRUE, (int)o.warmup, (int)o.runs, [&]() { return PCApply(pc, p.x, p.y); }, &gs));
    std::ostringstream gnote;
    gnote << "in MatMults " << gs.median / p.mm.median << "; factor-once scan " << ap.median / gs.median << " of this";
    p.record(std::string("trilf PCApply cuSPARSE ") + solver, "seconds", gs, gnote.str());
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  trilf apply with cuSPARSE %-13s %.4f ms (%.2f MatMults; the default scan takes %.2fx its time)\n", solver, 1e3 * gs.median, gs.median / p.mm.median, ap.median / gs.median));
  }
  PetscCall(PetscOptionsSetValue(NULL, "-bt_pc_trilf_solver", "scan"));
  PetscCall(PCSetFromOptions(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// 2 + 3. trilf (block size bs) set-up phases, refactorization, apply and apply transpose;
// *times gets the PC calls' medians for the kernel level.
static PetscErrorCode BenchTrilfPC(Problem &p, int bs, const Options &o, PetscBool gpu, pgk::bench::PcCallTimes *times)
{
  PC                                         pc;
  std::map<std::string, std::vector<double>> ph;
  std::vector<double>                        refac;
  PCTrilfInfo                                info;
  Stats                                      ap, apt;
  std::map<std::string, Stats>               st;
  const std::string                          variant = bs == 1 ? "trilf" : "trilf bs2";

  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOptionsPrefix(pc, "bt_"));
  PetscCall(PCSetOperators(pc, p.A, p.A));
  PetscCall(PCSetType(pc, PCTRILF));
  PetscCall(PCSetFromOptions(pc)); // -bt_pc_trilf_* from the command line; the variant's block size below wins
  PetscCall(PCTrilfSetBlockSize(pc, bs));
  PetscCall(TimeSetups(pc, p, o, gpu, ph, refac, &info));
  PetscCall(TimeOp(
      gpu, (int)o.warmup, (int)o.runs, [&]() { return PCApply(pc, p.x, p.y); }, &ap));
  PetscCall(TimeOp(
      gpu, (int)o.warmup, (int)o.runs, [&]() { return PCApplyTranspose(pc, p.x, p.y); }, &apt));
  if (gpu && bs == 1) PetscCall(TimeGtsv(pc, p, o, ap));
  for (auto &[k, v] : ph) {
    st[k] = pgk::bench::summarize(v);
    std::ostringstream note;
    note << "in MatMults " << st[k].median / p.mm.median;
    p.record(variant + " setup " + k, "seconds", st[k], note.str());
  }
  const Stats rf = pgk::bench::summarize(refac);
  p.record(variant + " refactor (same pattern)", "seconds", rf, "");
  std::ostringstream note;
  note << "c_id " << info.c_id << " c_pi " << info.c_pi << " paths " << info.npaths << " longest " << info.longest << " cycles " << info.cycles_broken << "; in MatMults " << ap.median / p.mm.median;
  p.record(variant + " PCApply", "seconds", ap, note.str());
  std::ostringstream tnote;
  tnote << "in MatMults " << apt.median / p.mm.median;
  p.record(variant + " PCApplyTranspose", "seconds", apt, tnote.str());
  p.sum.forest_mm[bs - 1] = st["forest"].median / p.mm.median;
  p.sum.apply_mm[bs - 1]  = ap.median / p.mm.median;
  p.sum.setup_mm[bs - 1]  = st["setup wall"].median / p.mm.median;
  p.sum.refac_mm[bs - 1]  = rf.median / p.mm.median;
  *times                  = {st["setup wall"].median, rf.median, ap.median, apt.median};
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f | %9.2f %9.3f | %9.4f %9.2f | %.3f %.3f %" PetscInt_FMT " %" PetscInt_FMT "\n", variant.c_str(), 1e3 * st["weights"].median, 1e3 * st["factor"].median,
                        1e3 * st["cycles"].median, 1e3 * st["paths"].median, 1e3 * st["assemble"].median, 1e3 * st["lu"].median, 1e3 * st["setup wall"].median, p.sum.forest_mm[bs - 1], 1e3 * rf.median, 1e3 * ap.median, p.sum.apply_mm[bs - 1],
                        info.c_id, info.c_pi, info.npaths, info.longest));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// jacobi's apply, beside trilf's.
static PetscErrorCode BenchJacobi(Problem &p, const Options &o, PetscBool gpu)
{
  PC    pc;
  Stats ap;

  PetscFunctionBegin;
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetOperators(pc, p.A, p.A));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(PCSetUp(pc));
  PetscCall(TimeOp(
      gpu, (int)o.warmup, (int)o.runs, [&]() { return PCApply(pc, p.x, p.y); }, &ap));
  p.record("jacobi PCApply", "seconds", ap, "");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  jacobi PCApply %.4f ms (%.2f MatMults)\n", 1e3 * ap.median, ap.median / p.mm.median));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// 4. Solves: time to solution of every configuration.
static PetscErrorCode BenchSolves(Problem &p, const Options &o, PetscBool gpu)
{
  double best_point = 0, trilf_best = 0;
  int    idx = 0;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  solves with %s, rtol %g (x random, b = A x):\n  %-14s %7s %10s %10s %10s %10s  %s\n", p.ksptype.c_str(), (double)o.rtol, "pc", "its", "setup s", "solve s", "total s", "rel. err", "reason"));
  std::vector<SolveConfig> configs = SolveConfigs(gpu);
  PetscCall(SelectConfigs(o.configs, o.extra, &configs));
  for (const SolveConfig &cfg : configs) {
    std::vector<double> tot, set, sol;
    SolveResult         res;
    for (int r = 0; r < o.solve_runs; ++r) {
      PetscCall(Solve(p.A, p.b, p.xtrue, p.ksptype.c_str(), cfg, idx++, o.rtol, o.max_it, gpu, &res));
      tot.push_back(res.setup + res.solve);
      set.push_back(res.setup);
      sol.push_back(res.solve);
    }
    const Stats        ts = pgk::bench::summarize(tot);
    std::ostringstream note;
    note << p.ksptype << " its " << res.its << " reason " << KSPConvergedReasons[res.reason] << " setup " << pgk::bench::summarize(set).median << " solve " << pgk::bench::summarize(sol).median << " relerr " << res.error;
    p.record(cfg.name + " time to solution", "seconds", ts, note.str());
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-14s %7" PetscInt_FMT " %10.4f %10.4f %10.4f %10.2e  %s\n", cfg.name.c_str(), res.its, pgk::bench::summarize(set).median, pgk::bench::summarize(sol).median, ts.median, res.error,
                          KSPConvergedReasons[res.reason]));
    const bool ok = res.reason > 0;
    if (cfg.name == "gamg") p.sum.its_gamg = res.its, p.sum.ok_gamg = ok;
    if (cfg.name == "gamg+trilf") p.sum.its_gamg_trilf = res.its, p.sum.ok_gamg_trilf = ok;
    // Issue 15: trilf alone against the best PETSc built-in a user would pick, GAMG's set-up included.
    const bool builtin = cfg.name == "jacobi" || cfg.name == "pbjacobi" || cfg.name == "bjacobi+ilu0" || cfg.name == "gamg";
    if (builtin && ok) best_point = best_point == 0 ? ts.median : std::min(best_point, ts.median);
    if ((cfg.name == "trilf" || cfg.name == "trilf bs2") && ok) trilf_best = trilf_best == 0 ? ts.median : std::min(trilf_best, ts.median);
  }
  if (best_point > 0 && trilf_best > 0) {
    p.sum.speedup = best_point / trilf_best;
    p.sum.solved  = true;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  best trilf vs the best built-in (jacobi, pbjacobi, bjacobi+ilu0, gamg): %.2fx faster to solution\n", p.sum.speedup));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Everything on one matrix.
static PetscErrorCode BenchMatrix(Problem &p, const Options &o, PetscBool gpu, const char *mtype)
{
  pgk::bench::PcCallTimes pc[2];

  PetscFunctionBegin;
  // 1. The unit: MatMult.
  PetscCall(TimeOp(
      gpu, (int)o.warmup, (int)o.runs, [&]() { return MatMult(p.A, p.x, p.y); }, &p.mm));
  p.record(std::string("MatMult ") + mtype, "seconds", p.mm, "");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%s: %" PetscInt_FMT " rows, %.0f nonzeros; MatMult %.4f ms\n", p.spec.c_str(), p.N, p.minfo.nz_used, 1e3 * p.mm.median));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %9s %9s %9s %9s %9s %9s %9s | %9s %9s | %9s %9s | %s\n", "variant", "weights", "factor", "cycles", "paths", "assemble", "lu", "total ms", "forest/MM", "refac ms", "apply ms", "apply/MM",
                        "c_id c_pi paths longest"));
  for (int bs = 1; bs <= 2; ++bs) PetscCall(BenchTrilfPC(p, bs, o, gpu, &pc[bs - 1]));
  PetscCall(BenchJacobi(p, o, gpu));
#if defined(PGK_HAVE_CUDA)
  if (gpu && o.kernels) {
    pgk::bench::KernelPhaseArgs k;
    k.spec       = p.spec;
    k.rows       = p.N;
    k.matmult    = p.mm.median;
    k.pc[0]      = pc[0];
    k.pc[1]      = pc[1];
    k.warmup     = (int)o.warmup;
    k.runs       = (int)o.runs;
    k.host_check = o.host_check;
    PetscCall(pgk::bench::TrilfKernelPhases(k, [&](const std::string &backend, const Stats &s, const std::string &note) { return p.record(backend, "seconds", s, note); }));
  }
#endif
  if (o.solves) PetscCall(BenchSolves(p, o, gpu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *MetOrMissed(bool met)
{
  return met ? "met" : "MISSED";
}

// Issue 15's targets (stated for the H100): scalar variant whole set-up <= 40 MatMults, values-only
// re-set-up <= 10, apply <= 1; forest extraction <= 25 for both variants; trilf alone >= 1.5x the best
// built-in on the anisotropic and convection rows; as GAMG's smoother: converges, no more iterations
// than GAMG's default smoother on the anisotropic rows, converges on convection rows.
static PetscErrorCode PrintTargets(const std::vector<Summary> &summary)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nTargets (issue 15, stated for the H100; MM = MatMults of this run; forest: scalar / block):\n"));
  for (const Summary &s : summary) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-36s set-up %6.2f MM <= 40 (%s)  re-set-up %5.2f MM <= 10 (%s)  apply %5.2f MM <= 1 (%s)  forest %6.2f / %6.2f MM <= 25 (%s / %s)\n", s.matrix.c_str(), s.setup_mm[0], MetOrMissed(s.setup_mm[0] <= 40),
                          s.refac_mm[0], MetOrMissed(s.refac_mm[0] <= 10), s.apply_mm[0], MetOrMissed(s.apply_mm[0] <= 1), s.forest_mm[0], s.forest_mm[1], MetOrMissed(s.forest_mm[0] <= 25), MetOrMissed(s.forest_mm[1] <= 25)));
    if (s.solved) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-36s alone %.2fx the best built-in >= 1.5x (%s)\n", "", s.speedup, s.aniso_or_conv ? MetOrMissed(s.speedup >= 1.5) : "no target"));
    if (s.its_gamg_trilf >= 0 && s.aniso_or_conv) {
      const bool met = s.ok_gamg_trilf && (s.convection || (s.ok_gamg && s.its_gamg_trilf <= s.its_gamg) || !s.ok_gamg);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-36s GAMG + trilf %" PetscInt_FMT " its%s, GAMG's default smoother %" PetscInt_FMT " its%s (%s)\n", "", s.its_gamg_trilf, s.ok_gamg_trilf ? "" : " (no convergence)", s.its_gamg,
                            s.ok_gamg ? "" : " (no convergence)", MetOrMissed(met)));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Options              o;
  PetscBool            gpu;
  const char          *commit;
  std::vector<Record>  all;
  std::vector<Summary> summary;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscGpuKitGetVersion(NULL, NULL, NULL, &commit, NULL));
  PetscCall(PetscGpuKitDeviceAvailable(&gpu));
  PetscCall(GetOptions(gpu, &o));
  std::string device = "host (1 core)";
#if defined(PGK_HAVE_CUDA)
  if (gpu) device = pgk::cuda::current_device_description();
#endif
  const std::string jsonl = std::string(o.results) + "/bench_trilf.jsonl";
  const char       *mtype = gpu ? MATAIJCUSPARSE : MATAIJ;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench_trilf on %s, commit %s, %s, median of %" PetscInt_FMT " runs after %" PetscInt_FMT " warm-up\n", device.c_str(), commit, mtype, o.runs, o.warmup));
  const std::vector<std::string> items = Split(o.mats, ';');
  BenchProgress                  progress("bench_trilf", items.size());
  for (const std::string &item : items) {
    Problem p;
    PetscCall(progress.Start(item));
    PetscCall(CreateProblem(item, mtype, &p));
    p.record = [&](const std::string &backend, const std::string &metric, const Stats &s, const std::string &note) {
      Record r;
      r.benchmark = "trilf";
      r.matrix    = p.spec;
      r.n         = p.N;
      r.nnz       = (long long)p.minfo.nz_used;
      r.backend   = backend;
      r.metric    = metric;
      r.stats     = s;
      r.note      = note;
      r.device    = device;
      r.commit    = commit;
      all.push_back(r);
      return pgk::bench::append_jsonl(jsonl, r);
    };
    PetscCall(BenchMatrix(p, o, gpu, mtype));
    summary.push_back(p.sum);
    PetscCall(DestroyProblem(&p));
  }
  PetscCall(PrintTargets(summary));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "appended %d records to %s\n", (int)all.size(), jsonl.c_str()));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] =
  "PC trilf benchmark, side by side in one run on each matrix:\n"
  "  1. MatMult of the operator (the unit every cost is expressed in);\n"
  "  2. trilf set-up per phase (weights, factor, cycles, paths = forest extraction; assemble, lu)\n"
  "     for the scalar and the 2x2 block variant, and the value-only refactorization;\n"
  "  3. PCApply of trilf (scalar, block) next to PCApply of jacobi;\n"
  "  4. solves of A x = b (x random) with jacobi, pbjacobi, bjacobi+ILU(0) (cuSPARSE on the device)\n"
  "     and trilf (scalar, block): iterations, set-up, solve and total time.\n"
  "Options: -matrices \"spec|ksp;spec|ksp;...\" (ksp: cg, gmres or bcgs), -runs <k> (10), -warmup <k> (2),\n"
  "         -solve_runs <k> (1), -rtol <r> (1e-8), -max_it <k> (20000), -solves <bool> (true),\n"
  "         -results <dir> (bench/results)\n";

#include <petscgpukit.h>
#include <petscksp.h>
#include <petsctime.h>

#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/common/bench_common.hpp"
#include "bench/common/bench_timing.hpp"
#include "petsc_plugin/sys/pgk_petsc.hpp"
#if defined(PGK_HAVE_CUDA)
  #include "kernels/common/kernels.hpp"
#endif

using pgk::bench::Record;
using pgk::bench::Stats;
using pgk::bench::Timed;
using pgk::bench::TimeOp;

struct SolveConfig {
  std::string name;
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
  return c;
}

struct SolveResult {
  PetscInt           its = 0;
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
  PetscCall(Timed(gpu, [&]() { return KSPSetUp(ksp); }, &res->setup));
  PetscCall(Timed(gpu, [&]() { return KSPSolve(ksp, b, x); }, &res->solve));
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

int main(int argc, char **argv)
{
  PetscInt    runs = 10, warmup = 2, max_it = 20000, solve_runs = 1;
  PetscReal   rtol = 1e-8;
  PetscBool   solves = PETSC_TRUE, gpu;
  char        results[PETSC_MAX_PATH_LEN] = PGK_BENCH_RESULTS_DIR, mats[4096] = "";
  const char *commit;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscGpuKitGetVersion(NULL, NULL, NULL, &commit, NULL));
  PetscCall(PetscGpuKitDeviceAvailable(&gpu));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_trilf", NULL);
  PetscCall(PetscOptionsString("-matrices", "spec|ksp;...", NULL, mats, mats, sizeof mats, NULL));
  PetscCall(PetscOptionsInt("-runs", "timed runs", NULL, runs, &runs, NULL));
  PetscCall(PetscOptionsInt("-warmup", "untimed runs first", NULL, warmup, &warmup, NULL));
  PetscCall(PetscOptionsInt("-solve_runs", "timed solves per configuration (median)", NULL, solve_runs, &solve_runs, NULL));
  PetscCall(PetscOptionsReal("-rtol", "relative tolerance of the solves", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsInt("-max_it", "iteration limit of the solves", NULL, max_it, &max_it, NULL));
  PetscCall(PetscOptionsBool("-solves", "run the solves", NULL, solves, &solves, NULL));
  PetscCall(PetscOptionsString("-results", "folder for the JSON lines", NULL, results, results, sizeof results, NULL));
  PetscOptionsEnd();
  if (!mats[0]) {
    // Millions of rows, tens of millions of nonzeros on the device; a CPU run gets small ones.
    if (gpu) PetscCall(PetscStrncpy(mats, "aniso2d:n=2500,variant=2|cg;aniso2d:n=2500,variant=3|cg;aniso3d:n=160|cg;lap3d7:n=160|cg;elast3d:n=96|cg;convdiff2d:n=2000,peclet=20000|bcgs;convdiff3d:n=160,peclet=1000|bcgs", sizeof mats));
    else PetscCall(PetscStrncpy(mats, "aniso2d:n=300,variant=2|cg;aniso3d:n=40|cg;lap3d7:n=40|cg;elast3d:n=16|cg;convdiff2d:n=300,peclet=1000|bcgs", sizeof mats));
  }
  std::string device = "host (1 core)";
#if defined(PGK_HAVE_CUDA)
  if (gpu) device = pgk::cuda::current_device_description();
#endif
  const std::string jsonl = std::string(results) + "/bench_trilf.jsonl";
  const char       *mtype = gpu ? MATAIJCUSPARSE : MATAIJ;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench_trilf on %s, commit %s, %s, median of %" PetscInt_FMT " runs after %" PetscInt_FMT " warm-up\n", device.c_str(), commit, mtype, runs, warmup));

  std::vector<Record> all;
  auto add = [&](Record r) {
    r.benchmark = "trilf";
    r.device = device;
    r.commit = commit;
    all.push_back(r);
    return pgk::bench::append_jsonl(jsonl, all.back());
  };
  struct Summary {
    std::string matrix;
    double      forest_mm[2] = {0, 0}, apply_mm[2] = {0, 0}, speedup = 0;
    bool        aniso_or_conv = false, solved = false;
  };
  std::vector<Summary> summary;

  std::stringstream list(mats);
  std::string       item;
  while (std::getline(list, item, ';')) {
    if (item.empty()) continue;
    const std::string spec = item.substr(0, item.find('|'));
    const std::string ksptype = item.find('|') == std::string::npos ? "gmres" : item.substr(item.find('|') + 1);
    Mat      A;
    Vec      x, y, xtrue, b;
    PetscInt N;
    MatInfo  minfo;
    PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec.c_str(), NULL, &A));
    PetscCall(MatConvert(A, mtype, MAT_INPLACE_MATRIX, &A));
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &minfo));
    PetscCall(MatCreateVecs(A, &x, &y));
    PetscCall(VecDuplicate(x, &xtrue));
    PetscCall(VecDuplicate(x, &b));
    PetscCall(VecSetRandom(x, NULL));
    PetscCall(VecCopy(x, xtrue));
    PetscCall(MatMult(A, xtrue, b));
    Summary sum;
    sum.matrix = spec;
    sum.aniso_or_conv = spec.rfind("aniso", 0) == 0 || spec.rfind("convdiff", 0) == 0;
    auto record = [&](const std::string &backend, const std::string &metric, const Stats &s, const std::string &note = "") {
      Record r;
      r.matrix = spec;
      r.n = N;
      r.nnz = (long long)minfo.nz_used;
      r.backend = backend;
      r.metric = metric;
      r.stats = s;
      r.note = note;
      return add(r);
    };

    // 1. The unit: MatMult.
    Stats mm;
    PetscCall(TimeOp(gpu, (int)warmup, (int)runs, [&]() { return MatMult(A, x, y); }, &mm));
    record(std::string("MatMult ") + mtype, "seconds", mm);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%s: %" PetscInt_FMT " rows, %.0f nonzeros; MatMult %.4f ms\n", spec.c_str(), N, minfo.nz_used, 1e3 * mm.median));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %9s %9s %9s %9s %9s %9s %9s | %9s %9s | %9s %9s | %s\n", "variant", "weights", "factor", "cycles", "paths", "assemble", "lu", "total ms", "forest/MM", "refac ms", "apply ms", "apply/MM", "c_id c_pi paths longest"));

    // 2 + 3. trilf set-up phases, refactorization, apply; jacobi's apply beside it.
    for (int bs = 1; bs <= 2; ++bs) {
      PC pc;
      PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
      PetscCall(PCSetOptionsPrefix(pc, "bt_"));
      PetscCall(PCSetOperators(pc, A, A));
      PetscCall(PCSetType(pc, PCTRILF));
      PetscCall(PCTrilfSetBlockSize(pc, bs));
      std::map<std::string, std::vector<double>> ph;
      PCTrilfInfo info;
      for (int i = 0; i < warmup + runs; ++i) {
        double sec;
        PetscCall(PCReset(pc)); // drops the forest and the operators: a full set-up follows
        PetscCall(PCSetOperators(pc, A, A));
        PetscCall(Timed(gpu, [&]() { return PCSetUp(pc); }, &sec));
        PetscCall(PCTrilfGetInfo(pc, &info));
        if (i < warmup) continue;
        ph["weights"].push_back(info.t_weights * 1e-3);
        ph["factor"].push_back(info.t_factor * 1e-3);
        ph["cycles"].push_back(info.t_cycles * 1e-3);
        ph["paths"].push_back(info.t_paths * 1e-3);
        ph["assemble"].push_back(info.t_assemble * 1e-3);
        ph["lu"].push_back(info.t_lu * 1e-3);
        ph["forest"].push_back((info.t_weights + info.t_factor + info.t_cycles + info.t_paths) * 1e-3);
        ph["setup wall"].push_back(sec);
      }
      // Value-only refactorization (SAME_NONZERO_PATTERN): the forest is kept.
      std::vector<double> refac;
      for (int i = 0; i < warmup + runs; ++i) {
        double sec;
        PetscCall(PetscObjectStateIncrease((PetscObject)A));
        PetscCall(PCSetOperators(pc, A, A));
        PetscCall(Timed(gpu, [&]() { return PCSetUp(pc); }, &sec));
        if (i >= warmup) refac.push_back(sec);
      }
      PetscCall(PCTrilfGetInfo(pc, &info));
      PetscCheck(info.forests == info.setups - warmup - runs, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the refactorization rebuilt the forest");
      Stats ap;
      PetscCall(TimeOp(gpu, (int)warmup, (int)runs, [&]() { return PCApply(pc, x, y); }, &ap));
      const std::string variant = bs == 1 ? "trilf" : "trilf bs2";
      if (gpu && bs == 1) {
        // cuSPARSE's tridiagonal solvers on the same T~ (they refactor on every call).
        for (const char *solver : {"gtsv2"}) {
          Stats gs;
          PetscCall(PetscOptionsSetValue(NULL, "-bt_pc_trilf_solver", solver));
          PetscCall(PCSetFromOptions(pc));
          PetscCall(PetscObjectStateIncrease((PetscObject)A));
          PetscCall(PCSetOperators(pc, A, A));
          PetscCall(PCSetUp(pc));
          PetscCall(TimeOp(gpu, (int)warmup, (int)runs, [&]() { return PCApply(pc, x, y); }, &gs));
          std::ostringstream gnote;
          gnote << "in MatMults " << gs.median / mm.median << "; factor-once scan " << ap.median / gs.median << " of this";
          record(std::string("trilf PCApply cuSPARSE ") + solver, "seconds", gs, gnote.str());
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  trilf apply with cuSPARSE %-13s %.4f ms (%.2f MatMults; the default scan takes %.2fx its time)\n", solver, 1e3 * gs.median, gs.median / mm.median, ap.median / gs.median));
        }
        PetscCall(PetscOptionsSetValue(NULL, "-bt_pc_trilf_solver", "scan"));
        PetscCall(PCSetFromOptions(pc));
      }
      std::map<std::string, Stats> st;
      for (auto &[k, v] : ph) {
        st[k] = pgk::bench::summarize(v);
        std::ostringstream note;
        note << "in MatMults " << st[k].median / mm.median;
        record(variant + " setup " + k, "seconds", st[k], note.str());
      }
      const Stats rf = pgk::bench::summarize(refac);
      record(variant + " refactor (same pattern)", "seconds", rf);
      std::ostringstream note;
      note << "c_id " << info.c_id << " c_pi " << info.c_pi << " paths " << info.npaths << " longest " << info.longest << " cycles " << info.cycles_broken << "; in MatMults " << ap.median / mm.median;
      record(variant + " PCApply", "seconds", ap, note.str());
      sum.forest_mm[bs - 1] = st["forest"].median / mm.median;
      sum.apply_mm[bs - 1]  = ap.median / mm.median;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f | %9.2f %9.3f | %9.4f %9.2f | %.3f %.3f %" PetscInt_FMT " %" PetscInt_FMT "\n", variant.c_str(), 1e3 * st["weights"].median, 1e3 * st["factor"].median, 1e3 * st["cycles"].median, 1e3 * st["paths"].median, 1e3 * st["assemble"].median, 1e3 * st["lu"].median, 1e3 * st["setup wall"].median, sum.forest_mm[bs - 1], 1e3 * rf.median, 1e3 * ap.median, sum.apply_mm[bs - 1], info.c_id, info.c_pi, info.npaths, info.longest));
      PetscCall(PCDestroy(&pc));
    }
    {
      PC    pc;
      Stats ap;
      PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
      PetscCall(PCSetOperators(pc, A, A));
      PetscCall(PCSetType(pc, PCJACOBI));
      PetscCall(PCSetUp(pc));
      PetscCall(TimeOp(gpu, (int)warmup, (int)runs, [&]() { return PCApply(pc, x, y); }, &ap));
      record("jacobi PCApply", "seconds", ap);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  jacobi PCApply %.4f ms (%.2f MatMults)\n", 1e3 * ap.median, ap.median / mm.median));
      PetscCall(PCDestroy(&pc));
    }

    // 4. Solves.
    if (solves) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  solves with %s, rtol %g (x random, b = A x):\n  %-14s %7s %10s %10s %10s %10s  %s\n", ksptype.c_str(), (double)rtol, "pc", "its", "setup s", "solve s", "total s", "rel. err", "reason"));
      double best_point = 0, trilf_best = 0;
      int    idx = 0;
      for (const SolveConfig &cfg : SolveConfigs(gpu)) {
        std::vector<double> tot, set, sol;
        SolveResult         res;
        for (int r = 0; r < solve_runs; ++r) {
          PetscCall(Solve(A, b, xtrue, ksptype.c_str(), cfg, idx++, rtol, max_it, gpu, &res));
          tot.push_back(res.setup + res.solve);
          set.push_back(res.setup);
          sol.push_back(res.solve);
        }
        const Stats ts = pgk::bench::summarize(tot);
        std::ostringstream note;
        note << ksptype << " its " << res.its << " reason " << KSPConvergedReasons[res.reason] << " setup " << pgk::bench::summarize(set).median << " solve " << pgk::bench::summarize(sol).median << " relerr " << res.error;
        record(cfg.name + " time to solution", "seconds", ts, note.str());
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-14s %7" PetscInt_FMT " %10.4f %10.4f %10.4f %10.2e  %s\n", cfg.name.c_str(), res.its, pgk::bench::summarize(set).median, pgk::bench::summarize(sol).median, ts.median, res.error, KSPConvergedReasons[res.reason]));
        const bool ok = res.reason > 0;
        if ((cfg.name == "jacobi" || cfg.name == "pbjacobi") && ok) best_point = best_point == 0 ? ts.median : std::min(best_point, ts.median);
        if (cfg.name.rfind("trilf", 0) == 0 && ok) trilf_best = trilf_best == 0 ? ts.median : std::min(trilf_best, ts.median);
      }
      if (best_point > 0 && trilf_best > 0) {
        sum.speedup = best_point / trilf_best;
        sum.solved = true;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  best trilf vs best of jacobi/pbjacobi: %.2fx faster to solution\n", sum.speedup));
      }
    }
    summary.push_back(sum);
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&xtrue));
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
  }

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nTargets (forest extraction <= 25 MatMults, PCApply <= 3 MatMults, anisotropic/convection time to solution >= 1.5x the best of jacobi/pbjacobi):\n"));
  for (const Summary &s : summary) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-36s forest %6.2f / %6.2f MM (%s)  apply %5.2f / %5.2f MM (%s)", s.matrix.c_str(), s.forest_mm[0], s.forest_mm[1], s.forest_mm[0] <= 25 && s.forest_mm[1] <= 25 ? "met" : "MISSED", s.apply_mm[0], s.apply_mm[1], s.apply_mm[0] <= 3 && s.apply_mm[1] <= 3 ? "met" : "MISSED"));
    if (s.solved) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  solution %.2fx%s\n", s.speedup, s.aniso_or_conv ? (s.speedup >= 1.5 ? " (met)" : " (MISSED)") : " (no target)"));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "appended %d records to %s\n", (int)all.size(), jsonl.c_str()));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "KSP carpcg benchmark (issue 11, section 7), side by side in one run on each problem:\n"
                           "  carpcg with the schemes multicolor, carp and cimmino, and PETSc's GMRES(30)+Jacobi, BiCGStab+Jacobi,\n"
                           "  GMRES(30)+bjacobi/ILU(0) (cuSPARSE on the device), MINRES+Jacobi (symmetric A), CGNE (PC none) and\n"
                           "  CG+Jacobi (SPD generator kinds), all through KSPSetUp/KSPSolve with options, rtol 1e-9 from x = 0,\n"
                           "  b = A x_true (x_true random). Per row: reason, iterations, KSPSetUp seconds (once), KSPSolve seconds\n"
                           "  (median of the timed runs after a warm-up solve; synchronized wall clock), time per iteration, in\n"
                           "  MatMults of the same matrix (CUDA events on the device, median of -mm_runs), and for carpcg the fraction\n"
                           "  of its byte floor reached; the true relative residual and error at the end.\n"
                           "Byte floor of one CARP-CG iteration: two sweeps over A, each reading the CSR values and column indices\n"
                           "  once ((8 + sizeof(PetscInt)) bytes a nonzero) and reading and writing x (16 n bytes), plus the CG vector\n"
                           "  traffic of 10 vectors (80 n bytes): 2 (c nnz + 16 n) + 80 n bytes, divided by the copy bandwidth (device:\n"
                           "  the best of cudaMemcpy and a copy kernel; host: memcpy on one core), read + written bytes.\n"
                           "Runs: a warm-up solve, then -runs (10) timed solves, -long_runs (3) for solves over -long_seconds (1 s), at\n"
                           "  most what fits in -row_seconds (15 s); a solve that does not converge, hits the cap or does not fit is timed\n"
                           "  once (its warm-up). Every solve stops after -solve_seconds (10 s): reason DIVERGED_TIME_CAP.\n"
                           "Options: -problems <spec;spec;...> (alias -gen), -quick (tiny problems, 3 runs: a CPU smoke test),\n"
                           "  -methods <mc,carp,cimmino,gmres,bcgs,ilu,minres,cgne,cg>, -rtol <1e-9>, -max_it <50000>, -runs, -long_runs,\n"
                           "  -long_seconds, -row_seconds, -solve_seconds (0: no cap), -mm_runs <20>, -mm_warmup <3>, -copy_mib <1024>,\n"
                           "  -mat_type <aijcusparse with a device, else aij> (vectors follow the matrix), -results <dir> (bench/results).\n"
                           "  Each method reads options under its prefix <key>_, e.g. -carp_ksp_carpcg_blocks 64, -mc_ksp_carpcg_backend.\n";

#include <petscgpukit.h>
#include <petscksp.h>
#include <petsctime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bench/carpcg/context.hpp"
#include "bench/common/bench_cxx.hpp"
#include "bench/common/bench_timing.hpp"
#if defined(PGK_HAVE_CUDA)
#  include "bench/common/copy_bandwidth.hpp"
#  include "kernels/common/kernels.hpp"
#endif

using namespace pgk::bench::carpcg;
using pgk::bench::Stats;

// The problems on the device: the report's class (2D P1 FEM, -Lap u + u) at 361,201 and
// 4,004,001 unknowns (n = vertices a side), Helmholtz at kh = 0.1 with 1M unknowns, the same with
// convection (cell Peclet ~1: nonsymmetric indefinite), convection-diffusion at cell Peclet ~10.
static const char kDeviceProblems[] = "fem2d:n=601;fem2d:n=2001;helmholtz2d:n=1000,kh=0.1;helmholtz2d:n=1000,kh=0.1,peclet=1000;convdiff2d:n=1000,peclet=10000";
static const char kHostProblems[]   = "fem2d:n=201;helmholtz2d:n=300,kh=0.1;helmholtz2d:n=300,kh=0.1,peclet=300;convdiff2d:n=300,peclet=3000";
static const char kQuickProblems[]  = "fem2d:n=41;helmholtz2d:n=40,kh=0.3;helmholtz2d:n=40,kh=0.3,peclet=40;convdiff2d:n=40,peclet=4000";

namespace pgk::bench::carpcg {
// Bytes of one CARP-CG iteration at the floor (the model of the help text and the header).
double FloorBytes(long long n, long long nnz)
{
  const double per_nnz = 8.0 + sizeof(PetscInt);                   // value + column index
  const double sweep   = per_nnz * (double)nnz + 16.0 * (double)n; // CSR once, x read and written
  return 2 * sweep + 10 * 8.0 * (double)n;                         // two sweeps + 10 CG vectors
}
} // namespace pgk::bench::carpcg

static PetscErrorCode GetOptions(PetscBool gpu, Options *o)
{
  PetscBool set;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_carpcg", NULL);
  PetscCall(PetscOptionsBool("-quick", "tiny problems and 3 runs (a CPU smoke test)", NULL, o->quick, &o->quick, NULL));
  if (o->quick) o->runs = 3, o->max_it = 3000, o->mm_runs = 10, o->copy_mib = 64, o->solve_seconds = 5;
  PetscCall(PetscOptionsString("-problems", "generator specs separated by ;", NULL, o->problems, o->problems, sizeof o->problems, NULL));
  PetscCall(PetscOptionsString("-gen", "alias of -problems", NULL, o->problems, o->problems, sizeof o->problems, NULL));
  PetscCall(PetscOptionsString("-methods", "rows, by key", NULL, o->methods, o->methods, sizeof o->methods, NULL));
  PetscCall(PetscOptionsString("-mat_type", "matrix type of the solves", NULL, o->mat_type, o->mat_type, sizeof o->mat_type, &set));
  PetscCall(PetscOptionsReal("-rtol", "relative tolerance", NULL, o->rtol, &o->rtol, NULL));
  PetscCall(PetscOptionsInt("-max_it", "iteration limit", NULL, o->max_it, &o->max_it, NULL));
  PetscCall(PetscOptionsInt("-runs", "timed solves after the warm-up", NULL, o->runs, &o->runs, NULL));
  PetscCall(PetscOptionsInt("-long_runs", "timed solves of a solve over -long_seconds", NULL, o->long_runs, &o->long_runs, NULL));
  PetscCall(PetscOptionsReal("-long_seconds", "a longer solve is long", NULL, o->long_seconds, &o->long_seconds, NULL));
  PetscCall(PetscOptionsReal("-row_seconds", "budget of the timed solves of a row", NULL, o->row_seconds, &o->row_seconds, NULL));
  PetscCall(PetscOptionsReal("-solve_seconds", "time cap of one solve (0: none)", NULL, o->solve_seconds, &o->solve_seconds, NULL));
  PetscCall(PetscOptionsInt("-mm_runs", "timed MatMults", NULL, o->mm_runs, &o->mm_runs, NULL));
  PetscCall(PetscOptionsInt("-mm_warmup", "untimed MatMults first", NULL, o->mm_warmup, &o->mm_warmup, NULL));
  PetscCall(PetscOptionsInt("-copy_mib", "copy-bandwidth buffer, MiB", NULL, o->copy_mib, &o->copy_mib, NULL));
  PetscCall(PetscOptionsString("-results", "folder for the JSON lines", NULL, o->results, o->results, sizeof o->results, NULL));
  PetscOptionsEnd();
  if (!o->problems[0]) PetscCall(PetscStrncpy(o->problems, o->quick ? kQuickProblems : gpu ? kDeviceProblems : kHostProblems, sizeof o->problems));
  if (!set) PetscCall(PetscStrncpy(o->mat_type, gpu ? MATAIJCUSPARSE : MATAIJ, sizeof o->mat_type));
  PetscCheck(o->runs >= 1 && o->mm_runs >= 10 && o->copy_mib >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-runs must be >= 1, -mm_runs >= 10, -copy_mib >= 1");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Host copy bandwidth (bytes/s, read + written): memcpy of `bytes` on one core, median of 5.
static double HostCopyBandwidth(size_t bytes)
{
  std::vector<char>   a(bytes, 1), b(bytes, 2);
  std::vector<double> t;
  for (int i = 0; i < 6; ++i) {
    PetscLogDouble t0, t1;
    PetscCallAbort(PETSC_COMM_SELF, PetscTime(&t0));
    std::memcpy(b.data(), a.data(), bytes);
    PetscCallAbort(PETSC_COMM_SELF, PetscTime(&t1));
    if (i > 0) t.push_back(t1 - t0);
    a[i] = b[bytes - 1 - i]; // keeps the copies observable
  }
  return 2.0 * bytes / pgk::bench::summarize(t).median;
}

// The copy bandwidth the byte floor is measured against, recorded.
static PetscErrorCode CopyBandwidth(PetscBool device_mat, const Options &o, Output &out, double *bw)
{
  Problem     none;
  const char *what = "copy bandwidth: host memcpy (1 core)";

  PetscFunctionBegin;
  none.spec          = std::to_string(o.copy_mib) + " MiB buffer";
  const size_t bytes = (size_t)o.copy_mib << 20;
  (void)device_mat;
#if defined(PGK_HAVE_CUDA)
  if (device_mat) {
    pgk::bench::CopyTimes ct;
    PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, ct = pgk::bench::measure_device_copy(bytes, 3, 20));
    const Stats m = pgk::bench::summarize(ct.memcpy_seconds), k = pgk::bench::summarize(ct.kernel_seconds);
    out.add(none, "copy bandwidth: cudaMemcpy D2D", "seconds", m, "GBps_read_plus_write", 2.0 * bytes / m.median / 1e9, "");
    out.add(none, "copy bandwidth: copy kernel (float4)", "seconds", k, "GBps_read_plus_write", 2.0 * bytes / k.median / 1e9, "");
    *bw  = 2.0 * bytes / std::min(m.median, k.median);
    what = "copy bandwidth: best of cudaMemcpy D2D and a copy kernel";
  } else
#endif
    *bw = HostCopyBandwidth(bytes);
  out.add(none, what, "GBps_read_plus_write", pgk::bench::summarize({*bw / 1e9}), "", 0, "");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %.1f GB/s (read + written)\n", what, *bw / 1e9));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static bool SpdKind(const std::string &kind)
{
  for (const char *k : {"fem2d", "lap2d5", "lap3d7", "lap3d27", "aniso2d", "aniso3d", "elast3d"})
    if (kind == k) return true;
  return false;
}

static double SpecParam(const std::string &spec, const char *name)
{
  const std::string key = std::string(name) + "=";
  size_t            at  = spec.find(":" + key);
  if (at == std::string::npos) at = spec.find("," + key);
  return at == std::string::npos ? 0.0 : std::atof(spec.c_str() + at + 1 + key.size());
}

static PetscErrorCode CreateProblem(const std::string &spec, const Options &o, PetscBool gpu, double copy_bw, Problem *p)
{
  PetscBool sym;

  PetscFunctionBegin;
  p->spec       = spec;
  p->kind       = spec.substr(0, spec.find(':'));
  p->convection = p->kind == "helmholtz2d" && SpecParam(spec, "peclet") != 0;
  PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec.c_str(), "bench_carpcg_gen_", &p->A)); // MATAIJ: -mat_type is ours
  PetscCall(MatIsSymmetric(p->A, 0.0, &sym));                                                           // on the host matrix, before any conversion
  p->symmetric = sym ? true : false;
  p->spd       = p->symmetric && SpdKind(p->kind);
  PetscCall(MatConvert(p->A, o.mat_type, MAT_INPLACE_MATRIX, &p->A));
  PetscCall(MatGetSize(p->A, &p->n, NULL));
  MatInfo info;
  PetscCall(MatGetInfo(p->A, MAT_GLOBAL_SUM, &info));
  p->nnz = (long long)info.nz_used;
  PetscCall(MatCreateVecs(p->A, &p->x, &p->b));
  PetscCall(VecDuplicate(p->b, &p->y));
  PetscCall(VecDuplicate(p->x, &p->xtrue));
  PetscCall(VecSetRandom(p->xtrue, NULL));
  PetscCall(MatMult(p->A, p->xtrue, p->b));
  PetscCall(VecCopy(p->xtrue, p->x));
  PetscCall(pgk::bench::TimeOp(
      gpu, (int)o.mm_warmup, (int)o.mm_runs, [&]() { return MatMult(p->A, p->x, p->y); }, &p->mm));
  p->floor_seconds = copy_bw > 0 ? FloorBytes(p->n, p->nnz) / copy_bw : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DestroyProblem(Problem *p)
{
  PetscFunctionBegin;
  for (Vec *v : {&p->b, &p->xtrue, &p->x, &p->y}) PetscCall(VecDestroy(v));
  PetscCall(MatDestroy(&p->A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static bool Applies(const Method &m, const Problem &p)
{
  return m.needs == Needs::Any || (m.needs == Needs::Symmetric && p.symmetric) || (m.needs == Needs::Spd && p.spd);
}

// Every selected method on one problem: a row each, printed and recorded as it is measured.
static PetscErrorCode BenchProblem(Problem &p, const std::vector<Method> &methods, const Options &o, PetscBool gpu, double copy_bw, Output &out, ProblemSummary *sum)
{
  PetscFunctionBegin;
  out.add(p, std::string("MatMult ") + o.mat_type, "seconds", p.mm, "", 0, "");
  if (p.floor_seconds > 0) out.add(p, "carpcg byte floor per iteration", "seconds", pgk::bench::summarize({p.floor_seconds}), "bytes", FloorBytes(p.n, p.nnz), "2 sweeps (CSR once, x read+written) + 10 CG vectors, at the copy bandwidth");
  PetscCall(PrintProblemHeader(p, copy_bw));
  sum->spec          = p.spec;
  sum->kind          = p.kind;
  sum->n             = p.n;
  sum->symmetric     = p.symmetric;
  sum->convection    = p.convection;
  sum->mm            = p.mm.median;
  sum->floor_seconds = p.floor_seconds;
  for (const Method &m : methods) {
    RowResult r;
    if (!Applies(m, p)) continue;
    // A PETSc error in one row (printed by PETSc's handler) skips that row, not the run; its KSP leaks.
    const PetscErrorCode ierr = RunMethod(p, m, o, gpu, &r);
    if (ierr) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-24s ERROR: PETSc error %d (message above); row skipped\n", m.name.c_str(), (int)ierr));
      out.add(p, m.name, "error", pgk::bench::summarize({(double)ierr}), "petsc_error", (double)ierr, "reason=ERROR");
      continue;
    }
    PetscCall(PrintRow(p, r, m));
    RecordRow(out, p, r, m);
    sum->rows.push_back(r);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SelectMethods(const Options &o, PetscBool device_mat, std::vector<Method> *sel)
{
  PetscFunctionBegin;
  const std::vector<Method> all = Methods(device_mat);
  for (const std::string &key : Split(o.methods, ',')) {
    bool found = false;
    for (const Method &m : all)
      if (m.key == key) sel->push_back(m), found = true;
    PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-methods: unknown method %s (mc, carp, cimmino, gmres, bcgs, ilu, minres, cgne, cg)", key.c_str());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Options                     o;
  Output                      out;
  PetscBool                   gpu, device_mat;
  const char                 *commit;
  double                      copy_bw = 0;
  std::vector<Method>         methods;
  std::vector<ProblemSummary> sums;
  PetscLogDouble              t0, t1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscTime(&t0));
  PetscCall(PetscGpuKitGetVersion(NULL, NULL, NULL, &commit, NULL));
  PetscCall(PetscGpuKitDeviceAvailable(&gpu));
  PetscCall(GetOptions(gpu, &o));
  device_mat = gpu && std::strstr(o.mat_type, "cusparse") ? PETSC_TRUE : PETSC_FALSE; // aijcusparse, seq- or mpiaijcusparse
  gpu        = device_mat;                                                            // device timing (synchronization, CUDA events) where the work is on the device
  PetscCall(SelectMethods(o, device_mat, &methods));
  out.device = "host (1 core)";
#if defined(PGK_HAVE_CUDA)
  if (device_mat) out.device = pgk::cuda::current_device_description();
#endif
  out.commit = commit;
  out.jsonl  = std::string(o.results) + "/bench_carpcg.jsonl";
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench_carpcg on %s, commit %s, %s; rtol %.0e from x = 0, max_it %d, solves capped at %.1f s\n", out.device.c_str(), commit, o.mat_type, (double)o.rtol, (int)o.max_it, (double)o.solve_seconds));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "runs: KSPSetUp once; a warm-up solve, then %d timed (%d for solves over %.1f s; within %.1f s a row; not converged: the warm-up only); MatMult median of %d after %d\n", (int)o.runs, (int)o.long_runs,
                        (double)o.long_seconds, (double)o.row_seconds, (int)o.mm_runs, (int)o.mm_warmup));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "byte floor of a carpcg iteration: 2 sweeps x ((8 + %d) bytes a nonzero + 16 bytes a row) + 10 vectors x 8 bytes a row, at the copy bandwidth\n", (int)sizeof(PetscInt)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "columns: its (min-max where the timed runs differ), KSPSetUp s, KSPSolve s (median), runs timed, ms an iteration, it/MM = an iteration in MatMults,\n"
                                          "  floor = byte floor / measured iteration time (carpcg; 1 = at the floor), true ||b - A x|| / ||b|| and ||x - x_true|| / ||x_true|| at the end;\n"
                                          "  a '*' after CONVERGED_...: the KSP's own norm converged but the true residual is over 10 rtol (not counted as converged in the Targets)\n"));
  PetscCall(CopyBandwidth(device_mat, o, out, &copy_bw));
  const std::vector<std::string> specs = Split(o.problems, ';');
  BenchProgress                  progress("bench_carpcg", specs.size());
  for (const std::string &spec : specs) {
    Problem        p;
    ProblemSummary s;
    PetscCall(progress.Start(spec));
    PetscCall(CreateProblem(spec, o, gpu, copy_bw, &p));
    PetscCall(BenchProblem(p, methods, o, gpu, copy_bw, out, &s));
    sums.push_back(s);
    PetscCall(DestroyProblem(&p));
  }
  PetscCall(PrintTargets(sums, gpu));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "appended %d records to %s; %.1f s in all\n", out.records, out.jsonl.c_str(), (double)(t1 - t0)));
  PetscCall(PetscFinalize());
  return 0;
}

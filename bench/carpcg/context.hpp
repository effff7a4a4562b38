// bench_carpcg's shared state (issue 11, section 7): the options, one problem of the run (the
// matrix as the user's -mat_type makes it, b = A x_true, its MatMult unit and its byte floor), the
// methods compared (KSP carpcg with three schemes and PETSc's own KSPs as baselines) and the
// record writer (a table row and a JSON line per figure, written as soon as it is measured).
// Everything goes through PETSc's public API (KSPSetUp/KSPSolve with options), as a user drives
// it: the benchmark knows nothing of the carpcg backends. The sections live in:
//   solve.cpp  - one method on one problem: set-up, warm-up, timed solves, time cap
//   report.cpp - the table, the JSON lines and the Targets of issue 11
#pragma once

#include <petscksp.h>

#include <string>
#include <utility>
#include <vector>

#include "bench/common/bench_common.hpp"

namespace pgk::bench::carpcg {

struct Options {
  char      problems[4096] = "";                                              // generator specs separated by ';' (default: kDeviceProblems or, with -quick, kQuickProblems)
  char      methods[512]   = "mc,carp,cimmino,gmres,bcgs,ilu,minres,cgne,cg"; // which rows (prefix names, see Methods())
  char      mat_type[64]   = "";                                              // default: aijcusparse where a device is present, else aij
  PetscInt  runs = 10, long_runs = 3, max_it = 50000, mm_runs = 20, mm_warmup = 3, copy_mib = 1024;
  PetscReal rtol = 1e-9, long_seconds = 1, solve_seconds = 10, row_seconds = 15;
  PetscBool quick                       = PETSC_FALSE;
  char      results[PETSC_MAX_PATH_LEN] = PGK_BENCH_RESULTS_DIR;
};

// Which problems a method runs on.
enum class Needs { Any, Symmetric, Spd };

// One row kind: KSP `ksp_type` with its options (set under `prefix` unless the user set them).
struct Method {
  std::string                                      key, name, ksp_type; // key: the -methods name, also the options prefix key_
  std::vector<std::pair<std::string, std::string>> options;             // without the prefix
  Needs                                            needs  = Needs::Any;
  bool                                             carpcg = false; // gets the byte-floor figure
};

std::vector<Method> Methods(PetscBool device_mat);

// The byte model of one CARP-CG iteration (see FloorBytes in carpcg.cpp).
double FloorBytes(long long n, long long nnz);

struct Problem {
  std::string spec, kind; // kind: the generator name (fem2d, helmholtz2d, ...)
  Mat         A = NULL;
  Vec         b = NULL, xtrue = NULL, x = NULL, y = NULL;
  PetscInt    n         = 0;
  long long   nnz       = 0;
  bool        symmetric = false, spd = false, convection = false; // convection: helmholtz2d with peclet != 0
  Stats       mm;                                                 // MatMult of A (device: CUDA events)
  double      floor_seconds = 0;                                  // FloorBytes / copy bandwidth (0: no bandwidth measured)
};

// One row: a method on a problem.
struct RowResult {
  std::string        method;
  bool               ran = false, time_capped = false;
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  PetscInt           its = 0, its_min = 0, its_max = 0; // of the timed runs
  double             setup = 0, relres = 0, relerr = 0;
  Stats              solve;
  std::string        runs_note; // why fewer runs, if so
  double             per_it() const { return its > 0 ? solve.median / its : 0; }
  double             rtol = 0;
  // Converged by the KSP's test and by the true residual (within 10 rtol): what the Targets count.
  bool converged() const { return reason > 0 && !time_capped && relres <= 10 * rtol; }
};

struct Output {
  std::string jsonl, device, commit;
  int         records = 0;
  // Appends one JSON line (benchmark "carpcg"); a warning on stderr when it cannot.
  void add(const Problem &p, const std::string &backend, const std::string &metric, const Stats &s, const std::string &extra_name, double extra, const std::string &note);
};

// solve.cpp: set-up, warm-up and timed solves of one method (see the runs policy there).
PetscErrorCode RunMethod(Problem &p, const Method &m, const Options &o, PetscBool gpu, RowResult *r);

// report.cpp
PetscErrorCode PrintProblemHeader(const Problem &p, double copy_bw);
PetscErrorCode PrintRow(const Problem &p, const RowResult &r, const Method &m);
void           RecordRow(Output &out, const Problem &p, const RowResult &r, const Method &m);
struct ProblemSummary {
  std::string            spec, kind;
  PetscInt               n         = 0;
  bool                   symmetric = false, convection = false;
  double                 mm = 0, floor_seconds = 0;
  std::vector<RowResult> rows;
};
PetscErrorCode PrintTargets(const std::vector<ProblemSummary> &sums, PetscBool gpu);

} // namespace pgk::bench::carpcg

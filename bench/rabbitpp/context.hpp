// bench_rabbitpp's shared state: the options, the record writer (a table row and a JSON line per
// figure, written as soon as it is measured, so that a run cut short keeps them), one matrix of
// the run (host MATAIJ, its device copy, its CSR arrays, the reference permutation), what the
// Targets section needs of it, and the budgeted timer. The sections live in:
//   ordering_times.cpp - 1. MatGetOrdering per backend, the phases of direct calls, the figures
//   spmv_after.cpp     - 2./3. MatMult after each ordering, ideal time, pay-back
//   targets.cpp        - 4. the table and the Targets section
//   spy.cpp            - 5. spy plots through PETSc's draw viewer
#pragma once

#include <petscmat.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/common/bench_common.hpp"
#include "bench/common/bench_cxx.hpp"
#include "src/common/csr.hpp"
#include "src/rabbitpp/rabbitpp.hpp"

namespace pgk::bench::rabbitpp {

struct Options {
  char                   matrices[4096]     = "";           // generator specs separated by ';' (default: device or host set)
  char                   target[256]        = "";           // the matrix the Targets are stated for (default: the first)
  char                   threads[256]       = "1,2,4,8,16"; // cpu thread counts on the target matrix (the sweep)
  char                   threads_other[256] = "16";         // cpu thread counts on the other matrices
  PetscBool              sweep_all          = PETSC_FALSE;  // the sweep on every matrix
  char                   orderings[256]     = "random,original,rcm,batchrcm,rabbit,rabbitpp";
  PetscInt               runs = 10, warmup = 3, cpu_warmup = 1, min_runs = 1, phase_runs = 3;
  PetscInt               spmv_runs = 50, spmv_warmup = 5, copy_mib = 2048;
  PetscReal              row_seconds = 20, aux_row_seconds = 10; // the default device run: ~8 min with the 4M graphs, not yet timed with the x-beyond-L2 set (NOTES, 70th session)
  PetscBool              spy                         = PETSC_TRUE;
  char                   spy_matrix[256]             = "communities:n=20000";
  char                   spy_orderings[256]          = "original,rabbitpp";
  PetscInt               spy_size                    = 256;
  char                   results[PETSC_MAX_PATH_LEN] = PGK_BENCH_RESULTS_DIR;
  pgk::rabbitpp::Options ordering; // batch, insular_first, hub_scope as MatOrdering rabbitpp reads them
};

// Up to `runs` timed runs after `warmup` untimed ones, fewer when they would take more than
// `row_seconds` (at least `min_runs`; with min_runs <= 1 a run longer than half the budget is
// timed once: the warm-up run itself). `what` names the row in the note of a reduced row.
struct Budget {
  int    warmup = 1, runs = 10, min_runs = 1;
  double row_seconds = 20;
};

// One table row = one JSON line.
struct Row {
  std::string matrix, backend, metric, extra_name, note;
  long long   n = 0, nnz = 0;
  Stats       s;
  double      extra = 0;
};

struct Results {
  std::vector<Row> rows;
  std::string      jsonl, device, commit;
  // Appends the row to the table and its JSON line to the file (a warning if it cannot).
  void add(const Row &r);
};

// What the Targets section needs of one matrix (seconds; 0 = not measured).
struct Summary {
  std::string                   matrix;
  long long                     n = 0, nnz = 0;
  std::map<std::string, double> order_seconds; // "cpu <t> threads", "gpu": MatGetOrdering rabbitpp medians
  std::map<std::string, double> spmv;          // ordering -> MatMult median
  std::map<std::string, double> payback;       // "rabbitpp gpu", "rabbitpp cpu 16 threads", ... -> SpMVs (< 0: never)
  double                        ideal = 0, modularity = -2, modularity_rabbit = -2, insularity = -1;
};

// One matrix of the run.
struct Problem {
  std::string           spec;
  Mat                   host = NULL; // MATSEQAIJ as generated
  Mat                   dev  = NULL; // its MATSEQAIJCUSPARSE copy, uploaded (device runs only)
  PetscInt              n    = 0;
  long long             nnz  = 0;
  pgk::CsrView          csr;     // host arrays of `host` (MatGetRowIJ, not copied)
  std::vector<PetscInt> ref;     // the rabbitpp permutation every backend must return
  std::vector<int>      threads; // cpu thread counts on this matrix
  Summary               sum;
};

// Seconds of `once` (which sets its argument to the seconds of one run) under the budget;
// *note says how many runs were taken when the budget reduced them.
PetscErrorCode TimeBudgeted(const Budget &b, const std::function<PetscErrorCode(double *)> &once, Stats *s, std::string *note);

// A row of this matrix: metric "seconds" unless given.
Row MakeRow(const Problem &p, const std::string &backend, const std::string &metric, const Stats &s, const std::string &extra_name = "", double extra = 0, const std::string &note = "");

// Stats of a single figure (modularity, a ratio, a count).
Stats Figure(double v);

// The permutation an IS holds, perm[new] = old.
PetscErrorCode PermutationOf(IS is, std::vector<PetscInt> *perm);

// Errors unless `perm` equals the reference p.ref (which it becomes when still empty).
PetscErrorCode CheckSamePermutation(Problem &p, const std::vector<PetscInt> &perm, const std::string &who);

// MatGetOrdering rabbitpp/rabbit's backend and threads, as PETSc options (0 threads: not set).
PetscErrorCode SetRabbitppBackend(const char *backend, int threads);
PetscErrorCode ClearRabbitppBackend(void);

// Sections (see the files named at the top).
PetscErrorCode BenchOrderingTimes(Problem &p, const Options &o, PetscBool gpu, Results &res);
PetscErrorCode BenchPhases(Problem &p, const Options &o, PetscBool gpu, Results &res);
PetscErrorCode BenchSpmv(Problem &p, const Options &o, PetscBool gpu, double copy_bw, Results &res);
PetscErrorCode PrintTable(const Results &res);
PetscErrorCode PrintTargets(const std::vector<Summary> &sums, const Options &o, PetscBool gpu);
PetscErrorCode WriteSpyPlots(const Options &o, std::vector<std::string> *files);

} // namespace pgk::bench::rabbitpp

// What the parts of bench_batchrcm share: its options, the table rows (each also appended to the
// JSON lines), one matrix with its reference ordering, and the user-call rows (user_calls.cpp).
#pragma once

#include <petscmat.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "bench/common/bench_common.hpp"
#include "bench/common/bench_cxx.hpp"
#include "src/batchrcm/rcm.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/common/csr.hpp"

using pgk::bench::Record;
using pgk::bench::Stats;
using Clock = std::chrono::steady_clock;

inline double Seconds(Clock::time_point a, Clock::time_point b)
{
  return std::chrono::duration<double>(b - a).count();
}

struct Options {
  char      matrices[4096]              = "lap3d7:n=160;lap3d27:n=100;elast3d:n=72;lap2d5:n=2900;rgg2d:n=4000000,deg=8;powerlaw:n=2000000,avgdeg=10;lap3d7:n=245;elast3d:n=132";
  char      small[1024]                 = "lap2d5:n=40;lap3d7:n=12;random:n=5000,deg=6;elast3d:n=6;powerlaw:n=20000";
  char      threads[256]                = "1,2,4,8,16";
  char      results[PETSC_MAX_PATH_LEN] = PGK_BENCH_RESULTS_DIR;
  PetscInt  runs = 10, slow_runs = 10, big_runs = 5, cusolver_max_nnz = 30000000, batch_nodes = 0, batch_valence = 0;
  PetscBool user_only         = PETSC_FALSE;
  PetscBool gpu_only          = PETSC_FALSE; // with user_only: the device rows alone (the call-over-kernel ratios)
  PetscBool with_rcm          = PETSC_FALSE; // with gpu_only: PETSc's rcm too (the gpu target's baseline, same run)
  char      gpu_algorithm[16] = "";          // batch or levels ("": the default)
  PetscInt  levels_blocks     = 0;
  char      batch_cut[16]     = ""; // GPU batch cut of the kernel rows: walker or nodes ("": the default)
};

struct Row {
  std::string matrix, backend, metric;
  long long   n, nnz;
  Stats       s;
  long long   bandwidth;
};

// The rows of the table; each goes to the JSON lines as soon as it is measured, so a run cut
// short keeps them.
struct Results {
  std::vector<Row> rows;
  std::string      jsonl, device, commit;
  void             add(const std::string &m, const std::string &b, const std::string &metric, long long n, long long nnz, const Stats &s, long long bw)
  {
    rows.push_back({m, b, metric, n, nnz, s, bw});
    Record j;
    j.benchmark   = "batchrcm";
    j.matrix      = m;
    j.n           = n;
    j.nnz         = nnz;
    j.backend     = b;
    j.metric      = metric == "bandwidth" ? "bandwidth" : "seconds_" + metric;
    j.stats       = s;
    j.extra_name  = "bandwidth_after";
    j.value_extra = (double)bw;
    j.device      = device;
    j.commit      = commit;
    if (!pgk::bench::append_jsonl(jsonl, j)) std::fprintf(stderr, "cannot append to %s\n", jsonl.c_str());
  }
};

// One matrix, its reference plan and permutation, and how often the host baselines run.
struct Problem {
  std::string             spec;
  pgk::Csr                a;
  pgk::CsrView            g;
  long long               n, nnz;
  pgk::rcm::Options       opts; // paper's start node, diagonal counted
  pgk::rcm::ComponentPlan plan;
  std::vector<pgk::Index> ref;
  long long               bw1 = 0; // bandwidth after the reference ordering
  int                     sr  = 0; // runs of the host baselines
};

// MatGetOrdering(A, type) timed (1 warm-up, `runs` timed), the row permutation of the last run in q.
Stats TimeOrdering(Mat A, MatOrderingType type, int runs, std::vector<PetscInt> &q);
// MatGetOrdering(MATORDERINGBATCHRCM) on every backend, as a user calls it (user_calls.cpp).
PetscErrorCode BenchUserCalls(const Problem &p, const Options &o, PetscBool gpu, Results &res);
// Issue 12's targets from those rows; med: matrix -> "backend/metric" (and "nnz") -> median.
PetscErrorCode ReportUserCalls(std::map<std::string, std::map<std::string, double>> &med);

// bench_aijcompound's shared state (issue 10, item 9): the options, one matrix of the run (the
// generated scalar CSR, its compound CSR, the expansion every baseline runs on, x and the host
// reference y = A x), the device timer (hot and L2-flushed CUDA-event timings on PETSc's stream),
// the rows and their records, and what the Targets section needs. The sections live in:
//   problem.cpp   - generation, entry kind, expansion, x and the reference product; the timer
//   cusparse.cpp  - (c) scalar CSR, (d) BSR, (e) complex CSR with cuSPARSE (measured first: the
//                   speedup column of every later row divides by their best)
//   petsc_rows.cpp - (b) the PETSc user path (MatConvert to aijcompound, tuning, cache) and
//                   (f) MATAIJCUSPARSE MatMult
//   ours.cpp      - (a) every fixed variant of the tuner's candidates through DevicePacked, and
//                   the variant (b) chose, in the same harness
//   report.cpp    - the table, the JSON lines and the Targets of issue 10
//   flush.cu      - the L2 flush (a read of a 200 MB buffer)
// Device only: the program needs the CUDA kernels and a device (aijcompound.cpp says so otherwise).
#pragma once

#include <petscmat.h>
#include <petscdevice_cuda.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/aijcompound/flush.hpp"
#include "bench/common/bench_common.hpp"
#include "kernels/common/device_buffer.hpp"
#include "src/aijcompound/compound.hpp"
#include "src/aijcompound/tune.hpp"

namespace pgk::bench::aijcompound {

namespace ac = pgk::aijcompound;

struct Options {
  char      matrices[4096] = "";                         // generator specs separated by ';' (default: kDefaultMatrices)
  char      rows[256]      = "ours,user,cusparse,petsc"; // which row groups
  PetscInt  runs = 20, warmup = 5, copy_mib = 1024, flush_mib = 200;
  PetscReal max_mem_ratio               = 2.0; // the tuner's -mat_aijcompound_max_mem_ratio, also for (a)
  PetscBool quick                       = PETSC_FALSE;
  PetscBool generated_rows              = PETSC_TRUE; // scalar CSR rows on the matrix as generated, where it differs from the expansion
  char      cache[PETSC_MAX_PATH_LEN]   = "";         // tuning cache file (default: a fresh file in the temporary folder)
  char      results[PETSC_MAX_PATH_LEN] = PGK_BENCH_RESULTS_DIR;
  bool      has(const char *group) const;
};

// Hot and L2-flushed CUDA-event timings of device work on PETSc's stream.
struct Timer {
  cudaStream_t                           stream = nullptr;
  pgk::cuda::DeviceBuffer<unsigned char> flush; // read between flushed runs (flush.cu)
  int                                    warmup = 5, runs = 20;
};
using Op = std::function<PetscErrorCode()>;
// Medians of `runs` runs of op() after `warmup` untimed ones, back to back (hot), then each after
// a read of the flush buffer (flushed: only op() is between the events).
PetscErrorCode TimeHotFlushed(Timer &t, const Op &op, Stats *hot, Stats *flushed);

// One matrix of the run.
struct Problem {
  std::string                     spec;
  ac::CompoundCsr                 c;                         // the compound form (entry kind detected)
  pgk::Csr                        generated;                 // the scalar matrix as the generator writes it
  pgk::Csr                        expanded;                  // ac::expand(c): every block stored full (explicit zeros kept)
  std::vector<double>             x, yref;                   // yref = A x on the host (ac::mult)
  pgk::cuda::DeviceBuffer<double> xd, yd;                    // x and a result on the device
  double                          compound_bytes    = 0;     // compound CSR-AoS (4-byte indices) + x + y: the compulsory bytes
  double                          vector_bytes      = 0;     // x + y
  bool                            same_as_generated = true;  // the expansion equals the generated matrix
  bool                            symmetric         = false; // the off-diagonal entries mirror each other (ac::is_symmetric): SYM is a candidate
  long long                       rows() const { return (long long)c.nbrows * c.bs; }
};

// One row of the table: a product on one matrix, hot and flushed.
struct Row {
  std::string group;            // ours, user, cusparse, petsc
  std::string backend;          // what ran
  bool        baseline = false; // counts as a cuSPARSE row for "speedup vs the best cuSPARSE row"
  Stats       hot, flushed;
  double      own_bytes = 0;  // bytes of this row's own format (matrix arrays + x + y)
  double      rel_err   = -1; // max |y - yref| / max |yref| (-1: not checked)
  std::string note;
};

// What the Targets section needs of one matrix (times are medians in seconds; 0: not measured).
struct Summary {
  std::string spec, kind;
  int         bs               = 0;
  double      compound_bytes   = 0;
  long long   nnz              = 0;                                                     // scalar nonzeros of the expansion
  double      cusparse_best[2] = {0, 0}, bsr_best[2] = {0, 0}, complex_csr[2] = {0, 0}; // [hot, flushed]
  double      user[2] = {0, 0}, best_fixed[2] = {0, 0}, tuned_fixed[2] = {0, 0};
  std::string best_fixed_name, tuned_variant, tuned_source, cache_source;
  double      best_general[2] = {0, 0}; // the best fixed variant other than SYM (what a matrix that is not symmetric gets)
  std::string best_general_name;
  double      user_read_bytes = 0; // what the tuned variant's product reads (its DevicePacked::bytes + x + y), 0: unknown
  int         tuned_products = -1, cache_products = -1;
  double      tune_seconds = 0, cache_seconds = 0, tuner_gbs = 0;
};

struct Results {
  std::string jsonl, device, commit;
  double      copy_bw = 0; // bytes/s, read + written
  int         records = 0;
  // The row in the table and as two JSON lines (hot, flushed); the speedup needs s.cusparse_best.
  PetscErrorCode add(const Problem &p, const Summary &s, const Row &r);
  // A figure that is not a product (tuning time, copy bandwidth): one JSON line and a table line.
  PetscErrorCode figure(const Problem *p, const std::string &backend, const std::string &metric, double value, const std::vector<std::pair<std::string, std::string>> &fields, const std::string &note);
};

// problem.cpp
PetscErrorCode CreateProblem(const std::string &spec, Problem *p);
// max |y - yref| / max |yref| (a NaN: infinite) of a host result, and of a device result (one
// logged download).
PetscErrorCode RelativeErrorHost(const Problem &p, const double *y, double *err);
PetscErrorCode RelativeError(const Problem &p, const double *y_device, double *err);
// Scalar rows of a host CSR as 32-bit device arrays (std::invalid_argument when they do not fit).
struct DeviceCsr32 {
  pgk::cuda::DeviceBuffer<int>    rowptr, colidx;
  pgk::cuda::DeviceBuffer<double> values;
};
PetscErrorCode UploadCsr32(const std::vector<Index> &rowptr, const std::vector<Index> &colidx, const std::vector<double> &values, cudaStream_t stream, DeviceCsr32 *d);

// Sections.
PetscErrorCode BenchCuSparse(Problem &p, const Options &o, Timer &t, Summary &s, Results &res);
PetscErrorCode BenchFixedVariants(Problem &p, const Options &o, Timer &t, Summary &s, Results &res);
PetscErrorCode BenchUserPath(Problem &p, const Options &o, Timer &t, Summary &s, Results &res);
PetscErrorCode BenchPetscCuSparse(Problem &p, const Options &o, Timer &t, Summary &s, Results &res);
PetscErrorCode PrintHeader(const Problem &p, double copy_bw);
PetscErrorCode PrintTargets(const std::vector<Summary> &sums, double copy_bw);

} // namespace pgk::bench::aijcompound

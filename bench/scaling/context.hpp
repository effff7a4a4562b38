// bench_scaling's shared state (issue 14): strong scaling of every component from 1 to N ranks,
// one GPU per rank. One run measures one component on one problem at the rank count it was
// started with; scripts/run-scaling starts it with mpiexec -n 1 and -n 2 and pairs the rows.
// Everything goes through the public API, as a user drives it (generated matrices distributed
// over the ranks, MatGetOrdering, KSPSetUp/KSPSolve with options, MatConvert, MatMult). The
// sections live in:
//   common.cpp     - the problem (matrix, b = A x_true), collective timing, device memory, rows
//   components.cpp - orderings, trilf, aijcompound, carpcg
#pragma once

#include <petscksp.h>

#include <functional>
#include <string>

namespace pgk::bench::scaling {

struct Options {
  char      component[64]  = "";                  // orderings | trilf | aijcompound | carpcg
  char      gen[1024]      = "";                  // generator spec (default: the component's, device or -small size)
  char      orderings[256] = "batchrcm,rabbitpp"; // the orderings component's MatOrdering types
  PetscBool small          = PETSC_FALSE;         // tiny problems (a CPU smoke test)
  PetscInt  runs = 3, warmup = 1, mults = 20;     // timed repetitions, untimed first ones, MatMults a repetition
  PetscInt  max_it = 5000, carp_blocks = 65536;   // solves' iteration limit; CARP blocks over all ranks
  PetscReal rtol = 1e-6, solve_seconds = 20;      // solves' tolerance; time budget of a solve (orderings, carpcg)
  char      results[PETSC_MAX_PATH_LEN] = "";     // folder of scaling.jsonl (default: bench/results)
};

// This run: ranks, where they compute, what the rows are stamped with.
struct Env {
  Options     o;
  MPI_Comm    comm = MPI_COMM_NULL;
  PetscMPIInt rank = 0, size = 1;
  PetscBool   gpu = PETSC_FALSE; // device matrix and vector types, device timing
  std::string device, devices;   // this node's device (or "host ..."); the device of every rank
  std::string commit, jsonl, mat_type;
  bool        shared_gpu = false; // ranks share a device: the run checks correctness, not scaling
};

// The matrix of a component, generated over the ranks, and b = A x_true (x_true a fixed function
// of the global index, so 1 and 2 ranks solve the same system).
struct Problem {
  std::string spec;
  Mat         A = NULL;
  Vec         x = NULL, b = NULL, xtrue = NULL;
  PetscInt    n              = 0;
  long long   nnz            = 0;
  double      create_seconds = 0; // generation and assembly
  // PETSc's error where the device MatMult of A failed (cuSPARSE's SpMV preprocessing fails past
  // 2^31 nonzeros a rank on a 64-bit-index PETSc, H200, 99109aa); the products are then the host's.
  std::string device_mult_error;
};

// One measured figure. value: seconds (or iterations); NaN where it failed.
struct Row {
  std::string component, name, metric = "seconds";
  double      value = 0, min = 0, max = 0;
  int         runs       = 1;
  long long   iterations = -1;
  std::string reason, status = "ok", note; // status: ok | unsupported | failed
};

PetscErrorCode CreateProblem(const Env &env, const std::string &spec, MatType type, Problem *p);
PetscErrorCode DestroyProblem(Problem *p);
// y = A x by PETSc's MatMult; where that fails on the device, on the host (MatBindToCPU), with
// the failure kept in p->device_mult_error (the device is not tried again).
PetscErrorCode ReferenceMult(const Env &env, Problem *p, Vec x, Vec y);
// Seconds of f() on the slowest rank (barrier, device synchronized before and after).
PetscErrorCode MaxSeconds(const Env &env, const std::function<PetscErrorCode()> &f, double *sec);
// Median, min and max over `runs` repetitions of MaxSeconds after `warmup` untimed ones.
PetscErrorCode Repeat(const Env &env, int warmup, int runs, const std::function<PetscErrorCode()> &f, Row *row);
// The most device memory in use on any rank's device, GiB (0 on the host).
PetscErrorCode DeviceMemoryGiB(const Env &env, double *used, double *total);
// Prints the row (table and a SCALINGROW line for scripts/run-scaling) and appends its JSON line.
PetscErrorCode Emit(const Env &env, const Problem &p, const Row &row);
// Sets -<prefix><key> to value unless the user gave it.
PetscErrorCode DefaultOption(const std::string &prefix, const char *key, const std::string &value);

PetscErrorCode RunOrderings(const Env &env);
PetscErrorCode RunTrilf(const Env &env);
PetscErrorCode RunAijCompound(const Env &env);
PetscErrorCode RunCarpcg(const Env &env);

} // namespace pgk::bench::scaling

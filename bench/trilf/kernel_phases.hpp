// bench_trilf's kernel level: the device trilf (kernels/trilf) called directly on the same
// matrix, timed with CUDA events on PETSc's stream, printed next to the PC calls that bench_trilf
// timed (PCSetUp, refactorization, PCApply, PCApplyTranspose), all in MatMults too. Scalar, 2x2
// block, and the block variant never charged. Per variant: setup (with PETSc's memory pool and
// with CUDA's default pool, which returns memory at each synchronization) and its phases, apply,
// apply_transpose, update_values; for the scalar variant also each primitive on its own and a
// check against the host reference (same permutation and paths, apply to 1e-12).
#pragma once

#include <petscsys.h>

#include <functional>
#include <string>

#include "bench/common/bench_common.hpp"

namespace pgk::bench {

// Medians of the PC calls, seconds (0: not measured).
struct PcCallTimes {
  double setup = 0, refactor = 0, apply = 0, apply_transpose = 0;
};

// Appends one record of the matrix (backend, stats, note); false when the file cannot be written.
using RecordFn = std::function<bool(const std::string &backend, const Stats &s, const std::string &note)>;

struct KernelPhaseArgs {
  std::string spec;        // generator spec of the matrix (regenerated on the host, uploaded)
  long long   rows    = 0; // the PETSc matrix's rows (checked)
  double      matmult = 0; // MatMult median, seconds: the unit
  PcCallTimes pc[2];       // scalar, block
  int         warmup = 2, runs = 10;
  PetscBool   host_check = PETSC_TRUE;
};

// Needs a CUDA device (call it only when one is usable).
PetscErrorCode TrilfKernelPhases(const KernelPhaseArgs &args, const RecordFn &record);

} // namespace pgk::bench

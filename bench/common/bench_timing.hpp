// Timing of PETSc operations for the benchmarks in bench/: CUDA events on PETSc's current stream
// for device work (the figure the performance notes ask for; kernels/common/event_timer.hpp,
// the timer the device pipelines use too), a synchronizing wall clock otherwise. Needs PETSc;
// bench_common.hpp has the PETSc-free summary and JSON output.
#pragma once

#include <petscsys.h>
#include <petsctime.h>

#include <exception>
#include <vector>

#include "bench/common/bench_common.hpp"
#if defined(PGK_HAVE_CUDA)
#  include <cuda_runtime.h>
#  include <petscdevice_cuda.h>

#  include "kernels/common/event_timer.hpp"
#endif

namespace pgk::bench {

inline PetscErrorCode DeviceSync(PetscBool gpu)
{
  PetscFunctionBegin;
#if defined(PGK_HAVE_CUDA)
  if (gpu) PetscCallCUDA(cudaDeviceSynchronize());
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Seconds of f(), device work included (synchronized before and after).
template <class F> inline PetscErrorCode Timed(PetscBool gpu, F &&f, double *sec)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(DeviceSync(gpu));
  PetscCall(PetscTime(&t0));
  PetscCall(f());
  PetscCall(DeviceSync(gpu));
  PetscCall(PetscTime(&t1));
  *sec = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PGK_HAVE_CUDA)
// Seconds of op() on PETSc's current CUDA stream, between two CUDA events.
template <class Op> inline PetscErrorCode DeviceSeconds(Op &&op, double *sec)
{
  cudaStream_t stream;
  double       ms = 0;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  try {
    pgk::cuda::EventTimer timer(2);
    timer.record(0, stream);
    PetscCall(op());
    timer.record(1, stream);
    ms = timer.ms(0, 1);
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_GPU, "%s", e.what());
  }
  *sec = ms * 1e-3;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

// Median of `runs` CUDA-event (device) or wall-clock (host) timings of op(x, y), after warm-up.
template <class Op> inline PetscErrorCode TimeOp(PetscBool gpu, int warmup, int runs, Op &&op, Stats *s)
{
  std::vector<double> t;

  PetscFunctionBegin;
  for (int i = 0; i < warmup + runs; ++i) {
    double sec = 0;
#if defined(PGK_HAVE_CUDA)
    if (gpu) PetscCall(DeviceSeconds(op, &sec));
#endif
    if (!gpu) PetscCall(Timed(gpu, op, &sec));
    if (i >= warmup) t.push_back(sec);
  }
  *s = summarize(t);
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench

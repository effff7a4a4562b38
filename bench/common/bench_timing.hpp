// Timing of PETSc operations for the benchmarks in bench/: CUDA events on PETSc's current stream
// for device work (the figure the performance notes ask for), a synchronizing wall clock
// otherwise. Needs PETSc; bench_common.hpp has the PETSc-free summary and JSON output.
#pragma once

#include <petscsys.h>
#include <petsctime.h>

#include <vector>

#include "bench/common/bench_common.hpp"
#if defined(PGK_HAVE_CUDA)
  #include <cuda_runtime.h>
  #include <petscdevice_cuda.h>
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
template <class F>
inline PetscErrorCode Timed(PetscBool gpu, F &&f, double *sec)
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

// Median of `runs` CUDA-event (device) or wall-clock (host) timings of op(x, y), after warm-up.
template <class Op>
inline PetscErrorCode TimeOp(PetscBool gpu, int warmup, int runs, Op &&op, Stats *s)
{
  std::vector<double> t;

  PetscFunctionBegin;
  for (int i = 0; i < warmup + runs; ++i) {
    double sec = 0;
#if defined(PGK_HAVE_CUDA)
    if (gpu) {
      cudaStream_t stream;
      cudaEvent_t  e0, e1;
      float        ms;
      PetscCall(PetscGetCurrentCUDAStream(&stream));
      PetscCallCUDA(cudaEventCreate(&e0));
      PetscCallCUDA(cudaEventCreate(&e1));
      PetscCallCUDA(cudaEventRecord(e0, stream));
      PetscCall(op());
      PetscCallCUDA(cudaEventRecord(e1, stream));
      PetscCallCUDA(cudaEventSynchronize(e1));
      PetscCallCUDA(cudaEventElapsedTime(&ms, e0, e1));
      PetscCallCUDA(cudaEventDestroy(e0));
      PetscCallCUDA(cudaEventDestroy(e1));
      sec = ms * 1e-3;
    }
#endif
    if (!gpu) PetscCall(Timed(gpu, op, &sec));
    if (i >= warmup) t.push_back(sec);
  }
  *s = summarize(t);
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench

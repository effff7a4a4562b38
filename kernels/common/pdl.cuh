// Programmatic dependent launch (Hopper, sm_90): a kernel launched with launch_dependent may be
// scheduled while the kernel before it in the stream is still finishing, so a chain of short
// dependent kernels (trilf's apply: seven of them, 135 us of work on 4.2M rows) does not pay a
// full launch gap at each boundary. Correctness rests on one rule: every kernel launched this
// way calls pdl_prologue() before it touches memory. The prologue first lets the next kernel be
// launched, then waits until the previous grid has completed and its writes are visible, so
// reads after a write and writes after a read keep the stream's order; a kernel launched without
// the attribute (or run on an older device) passes the wait at once.
#pragma once

#include <cuda_runtime.h>

#include "kernels/common/cuda_check.cuh"

namespace pgk::cuda {

// The two halves of the prologue, for a kernel that does x-independent work between them (loads
// of data no earlier kernel writes): the next kernel may be launched; wait for the previous grid.
__device__ __forceinline__ void pdl_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void pdl_prologue() {
  pdl_launch_dependents();
  pdl_wait();
}

// kernel<<<grid, block, 0, s>>>(args...), allowed to overlap the end of the kernel before it.
template <class... Params, class... Args>
void launch_dependent(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t s, Args... args) {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = 0;
  cfg.stream = s;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  PGK_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(args)...));
}

} // namespace pgk::cuda

// Error checking for every CUDA call in kernels/: a failure throws pgk::cuda::Error carrying
// the call, file and line, which the PETSc layer turns into a PETSc error (PETSC_ERR_GPU).
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace pgk::cuda {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void throw_error(cudaError_t e, const char *what, const char *file, int line) {
  throw Error(std::string(file) + ":" + std::to_string(line) + ": " + what + " failed: " + cudaGetErrorName(e) + " (" +
              cudaGetErrorString(e) + ")");
}

} // namespace pgk::cuda

#define PGK_CUDA_CHECK(call)                                                                                           \
  do {                                                                                                                 \
    cudaError_t pgk_cuda_err_ = (call);                                                                                \
    if (pgk_cuda_err_ != cudaSuccess) ::pgk::cuda::throw_error(pgk_cuda_err_, #call, __FILE__, __LINE__);              \
  } while (0)

// After a kernel launch: catches launch-configuration errors without synchronizing.
#define PGK_CUDA_CHECK_LAUNCH() PGK_CUDA_CHECK(cudaGetLastError())

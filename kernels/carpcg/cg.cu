// The CG's vector updates of the device schemes (carpcg_gpu.hpp): axpy, aypx and subtract with the
// roundings of PETSc's device vectors (each kernel's comment), and cg_step, four of them in one pass.
// One thread an entry, so the bits do not depend on the grid.
#include "kernels/carpcg/internal.cuh"

namespace pgk::cuda {

namespace {

using namespace carpcg_detail;

__global__ void axpy_kernel(Index n, double a, const double *__restrict__ x, double *__restrict__ y) {
  for (Index i = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<Index>(gridDim.x) * blockDim.x)
    y[i] = __fma_rn(a, x[i], y[i]);
}

// PETSc's VecAYPX on the device: cuBLAS's scal (y = a y), then its axpy with 1 (x + y, one
// rounding); a == 0 is a copy of x.
__global__ void aypx_kernel(Index n, double a, const double *__restrict__ x, double *__restrict__ y) {
  for (Index i = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<Index>(gridDim.x) * blockDim.x)
    y[i] = a == 0 ? x[i] : __dadd_rn(x[i], __dmul_rn(a, y[i]));
}

// PETSc's VecWAXPY(w, -1, y, x) on the device: w = x, then cuBLAS's axpy with -1 (one rounding).
__global__ void subtract_kernel(Index n, const double *__restrict__ x, const double *__restrict__ y,
                                double *__restrict__ w) {
  for (Index i = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<Index>(gridDim.x) * blockDim.x)
    w[i] = __dsub_rn(x[i], y[i]);
}

// The CG's step in one pass (CarpcgDevice::cg_step): each entry gets aypx_kernel's p and q (with
// `directions`), then axpy_kernel's r and x, the same operations as the four kernels.
__global__ void cg_step_kernel(Index n, bool directions, double beta, double alpha, double *__restrict__ p,
                               double *__restrict__ q, double *__restrict__ r, const double *__restrict__ s,
                               double *__restrict__ x) {
  for (Index i = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<Index>(gridDim.x) * blockDim.x) {
    double pi = p[i], qi = q[i];
    const double ri = r[i];
    if (directions) {
      pi = beta == 0 ? ri : __dadd_rn(ri, __dmul_rn(beta, pi));
      qi = beta == 0 ? s[i] : __dadd_rn(s[i], __dmul_rn(beta, qi));
      p[i] = pi;
      q[i] = qi;
    }
    r[i] = __fma_rn(-alpha, qi, ri);
    x[i] = __fma_rn(alpha, pi, x[i]);
  }
}

} // namespace

void CarpcgDevice::axpy(Index n, double a, const double *x, double *y, void *stream) {
  if (n <= 0) return;
  axpy_kernel<<<thread_grid(n), kThreads, 0, as_stream(stream)>>>(n, a, x, y);
  PGK_CUDA_CHECK_LAUNCH();
}

void CarpcgDevice::aypx(Index n, double a, const double *x, double *y, void *stream) {
  if (n <= 0) return;
  aypx_kernel<<<thread_grid(n), kThreads, 0, as_stream(stream)>>>(n, a, x, y);
  PGK_CUDA_CHECK_LAUNCH();
}

void CarpcgDevice::subtract(Index n, const double *x, const double *y, double *w, void *stream) {
  if (n <= 0) return;
  subtract_kernel<<<thread_grid(n), kThreads, 0, as_stream(stream)>>>(n, x, y, w);
  PGK_CUDA_CHECK_LAUNCH();
}

void CarpcgDevice::cg_step(Index n, bool directions, double beta, double alpha, double *p, double *q, double *r,
                           const double *s, double *x, void *stream) {
  if (n <= 0) return;
  cg_step_kernel<<<thread_grid(n), kThreads, 0, as_stream(stream)>>>(n, directions, beta, alpha, p, q, r, s, x);
  PGK_CUDA_CHECK_LAUNCH();
}

} // namespace pgk::cuda

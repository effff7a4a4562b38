// carp under MPI, the divisions that finish the averaging of the shared unknowns once their sums
// have crossed ranks (carpcg_gpu.hpp's carp_divide_received and carp_divide_shared; the sums
// themselves are taken in sweeps.cu, right after the sweeps that make them final).
#include "kernels/carpcg/internal.cuh"

#include <stdexcept>

namespace pgk::cuda {

namespace {

using namespace carpcg_detail;

// carp under MPI, after the ghosts' sums reached their owners: y_j = acc_j / m_j (or x_j where
// m_j == 0) for the received owned unknowns only.
__global__ void divide_received_kernel(Index count, const Index *rows, const double *acc, const double *divisor,
                                       const double *x, double *y) {
  for (Index k = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; k < count;
       k += static_cast<Index>(gridDim.x) * blockDim.x) {
    const Index j = rows[k];
    y[j] = divisor[j] > 0 ? __ddiv_rn(acc[j], divisor[j]) : x[j];
  }
}

// carp under MPI, after the swap of the first half's sums (carp_divide_shared): the first `count`
// items are the received owned unknowns rows[k], the rest the ghosts n + (k - count).
__global__ void divide_shared_kernel(Index count, Index nghost, Index n, const Index *rows, const double *acc,
                                     const double *peer, const double *divisor, const double *ghost_divisor,
                                     const double *x, double *x_ext) {
  for (Index k = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; k < count + nghost;
       k += static_cast<Index>(gridDim.x) * blockDim.x) {
    const Index j = k < count ? rows[k] : n + (k - count);
    const double m = k < count ? divisor[j] : ghost_divisor[k - count];
    if (m > 0) x_ext[j] = __ddiv_rn(__dadd_rn(acc[j], peer[j]), m);
    else if (k < count) x_ext[j] = x[j]; // a ghost's x_ext entry is the owner's x_j already
  }
}

} // namespace

void CarpcgDevice::carp_divide_received(const double *acc, const double *x, double *y, void *stream) {
  Impl &d = *impl_;
  const Index count = static_cast<Index>(d.received_rows.size());
  if (count == 0) return;
  divide_received_kernel<<<thread_grid(count), kThreads, 0, as_stream(stream)>>>(count, d.received_rows.data(), acc,
                                                                                 d.divisor.data(), x, y);
  PGK_CUDA_CHECK_LAUNCH();
}

void CarpcgDevice::carp_divide_shared(const double *acc, const double *peer, const double *x, double *x_ext,
                                      void *stream) {
  Impl &d = *impl_;
  const Index count = static_cast<Index>(d.received_rows.size()), nghost = d.ncols - d.n;
  if (d.ghost_divisor.size() != static_cast<std::size_t>(nghost))
    throw std::logic_error("carpcg device: carp_divide_shared before set_ghost_multiplicity");
  if (count + nghost == 0) return;
  divide_shared_kernel<<<thread_grid(count + nghost), kThreads, 0, as_stream(stream)>>>(
      count, nghost, d.n, d.received_rows.data(), acc, peer, d.divisor.data(), d.ghost_divisor.data(), x, x_ext);
  PGK_CUDA_CHECK_LAUNCH();
}

} // namespace pgk::cuda

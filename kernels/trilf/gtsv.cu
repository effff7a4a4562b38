#include "kernels/trilf/gtsv.hpp"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <limits>
#include <stdexcept>
#include <string>

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/launch.cuh"

namespace pgk::cuda::trilf {
namespace {

void check_cusparse(cusparseStatus_t st, const char *what) {
  if (st != CUSPARSE_STATUS_SUCCESS)
    throw pgk::cuda::Error(std::string("trilf gtsv: ") + what + ": " + cusparseGetErrorString(st));
}

// T~ and its transpose (see the header for the rules).
__global__ void effective_kernel(Index n, const double *lower, const double *diag, const double *upper,
                                 const double *mult, const double *pivot, double *dl, double *d, double *du,
                                 double *dlt, double *dut) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x) {
    const bool no_update = mult[k] == 0;
    dl[k] = no_update ? 0.0 : lower[k];
    d[k] = no_update ? pivot[k] : diag[k];
    const bool split_after = k + 1 < n && mult[k + 1] == 0 && lower[k + 1] != 0;
    du[k] = split_after ? 0.0 : upper[k];
  }
  // Transpose: lower'_k = upper~_{k-1}, upper'_k = lower~_{k+1}; recomputed from the rules so
  // no grid-wide ordering between the two writes is needed.
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x) {
    dlt[k] = k == 0 || (mult[k] == 0 && lower[k] != 0) ? 0.0 : upper[k - 1];
    dut[k] = k + 1 < n && mult[k + 1] != 0 ? lower[k + 1] : 0.0;
  }
}

__global__ void gather_kernel(Index n, const Index *perm, const double *r, double *x) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x)
    x[k] = r[perm[k]];
}

__global__ void scatter_kernel(Index n, const Index *perm, const double *x, double *z) {
  for (Index k = blockIdx.x * Index(blockDim.x) + threadIdx.x; k < n; k += Index(gridDim.x) * blockDim.x)
    z[perm[k]] = x[k];
}

} // namespace

GtsvSolver::~GtsvSolver() {
  if (handle_) (void)cusparseDestroy(static_cast<cusparseHandle_t>(handle_));
}

void GtsvSolver::setup(const DeviceTridiagonal &t, bool pivoting, void *stream) {
  cudaStream_t s = as_stream(stream);
  if (t.n > std::numeric_limits<int>::max())
    throw std::invalid_argument("trilf gtsv: cuSPARSE's gtsv2 takes at most 2^31-1 rows");
  pivoting_ = pivoting;
  n_ = t.n;
  if (!handle_) {
    cusparseHandle_t h;
    check_cusparse(cusparseCreate(&h), "cusparseCreate");
    handle_ = h;
  }
  cusparseHandle_t h = static_cast<cusparseHandle_t>(handle_);
  check_cusparse(cusparseSetStream(h, s), "cusparseSetStream");
  const auto un = static_cast<std::size_t>(n_);
  for (DeviceBuffer<double> *b : {&dl_, &d_, &du_, &dlt_, &dut_, &x_}) b->allocate(un);
  if (n_ < 3) return;
  effective_kernel<<<grid_for(n_, 256, 65535), 256, 0, s>>>(n_, t.lower.data(), t.diag.data(), t.upper.data(),
                                                            t.mult.data(), t.pivot.data(), dl_.data(), d_.data(),
                                                            du_.data(), dlt_.data(), dut_.data());
  PGK_CUDA_CHECK_LAUNCH();
  const int m = static_cast<int>(n_);
  std::size_t bytes = 0, bytes_t = 0;
  if (pivoting_) {
    check_cusparse(cusparseDgtsv2_bufferSizeExt(h, m, 1, dl_.data(), d_.data(), du_.data(), x_.data(), m, &bytes),
                   "gtsv2 buffer size");
    check_cusparse(cusparseDgtsv2_bufferSizeExt(h, m, 1, dlt_.data(), d_.data(), dut_.data(), x_.data(), m, &bytes_t),
                   "gtsv2 buffer size");
  } else {
    check_cusparse(
        cusparseDgtsv2_nopivot_bufferSizeExt(h, m, 1, dl_.data(), d_.data(), du_.data(), x_.data(), m, &bytes),
        "gtsv2_nopivot buffer size");
    check_cusparse(
        cusparseDgtsv2_nopivot_bufferSizeExt(h, m, 1, dlt_.data(), d_.data(), dut_.data(), x_.data(), m, &bytes_t),
        "gtsv2_nopivot buffer size");
  }
  buffer_.allocate(bytes > bytes_t ? bytes : bytes_t);
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));
}

bool GtsvSolver::solve(const DevicePathOrder &order, const double *r, double *z, bool transpose, void *stream) {
  if (n_ < 3) return false;
  cudaStream_t s = as_stream(stream);
  cusparseHandle_t h = static_cast<cusparseHandle_t>(handle_);
  check_cusparse(cusparseSetStream(h, s), "cusparseSetStream");
  const int m = static_cast<int>(n_);
  gather_kernel<<<grid_for(n_, 256, 65535), 256, 0, s>>>(n_, order.perm.data(), r, x_.data());
  PGK_CUDA_CHECK_LAUNCH();
  const double *dl = transpose ? dlt_.data() : dl_.data();
  const double *du = transpose ? dut_.data() : du_.data();
  if (pivoting_)
    check_cusparse(cusparseDgtsv2(h, m, 1, dl, d_.data(), du, x_.data(), m, buffer_.data()), "cusparseDgtsv2");
  else
    check_cusparse(cusparseDgtsv2_nopivot(h, m, 1, dl, d_.data(), du, x_.data(), m, buffer_.data()),
                   "cusparseDgtsv2_nopivot");
  scatter_kernel<<<grid_for(n_, 256, 65535), 256, 0, s>>>(n_, order.perm.data(), x_.data(), z);
  PGK_CUDA_CHECK_LAUNCH();
  return true;
}

} // namespace pgk::cuda::trilf

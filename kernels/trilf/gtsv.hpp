// cuSPARSE's tridiagonal solvers as an alternative apply of the scalar trilf preconditioner
// (-pc_trilf_solver gtsv2): z = Q T~^-1 Q^T r with T~ handed to cusparseDgtsv2 (partial
// pivoting; `pivoting = false` selects cusparseDgtsv2_nopivot, cyclic + parallel cyclic
// reduction, for diagonally dominant T~ only). They refactor T~ on every call; the default solver (tridiag.cu,
// apply_scan.cu) factors once in PCSetUp and only substitutes. bench_trilf times both.
//
// T~ is the effective matrix of the factorization (pgk::trilf::TridiagonalFactor::effective:
// couplings dropped at splits, replaced pivots), rebuilt from T and the factor:
//   lower~_k = m_k == 0 ? 0 : lower_k,  diag~_k = m_k == 0 ? d'_k : diag_k,
//   upper~_k = (m_{k+1} == 0 and lower_{k+1} != 0) ? 0 : upper_k        (a split before k+1)
// (exact, except where a multiplier underflowed to 0: then a negligible coupling is dropped).
// cuSPARSE needs m >= 3: smaller systems use the default solver.
#pragma once

#include "kernels/trilf/internal.hpp"

#include <cstddef>

namespace pgk::cuda::trilf {

class GtsvSolver {
public:
  GtsvSolver() = default;
  GtsvSolver(const GtsvSolver &) = delete;
  GtsvSolver &operator=(const GtsvSolver &) = delete;
  ~GtsvSolver();

  // Builds T~ and T~^T from t and the cuSPARSE buffer; synchronous. Neither setup nor solve
  // makes a host <-> device copy.
  void setup(const DeviceTridiagonal &t, bool pivoting, void *stream);
  // Returns false (nothing done) when the system is too small for cuSPARSE.
  bool solve(const DevicePathOrder &order, const double *r, double *z, bool transpose, void *stream);

private:
  void *handle_ = nullptr; // cusparseHandle_t
  bool pivoting_ = true;
  Index n_ = 0;
  DeviceBuffer<double> dl_, d_, du_, dlt_, dut_, x_;
  DeviceBuffer<unsigned char> buffer_;
};

} // namespace pgk::cuda::trilf

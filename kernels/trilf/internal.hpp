// Internal interface between the files of the device trilf pipeline (kernels/trilf/*.cu):
// plain C++, device pointers, `stream` is a cudaStream_t as void*. Not used outside kernels/.
#pragma once

#include "src/common/csr.hpp"
#include "kernels/trilf/primitives.hpp"
#include "src/trilf/scan_lu.hpp"

namespace pgk::cuda::trilf {

// The check of a values-only update (same pattern as at set-up, nnz entries): std::invalid_argument
// when A's entry count is not nnz, otherwise check_matrix_device's std::domain_error naming the
// first NaN/Inf. One pass over the values (not the structure), one read of two counts.
void check_values_device(const CsrView &a, Index nnz, const char *what, void *stream);

// pgk::trilf::check_matrix on device arrays: std::invalid_argument for a non-square or
// malformed A, std::domain_error naming the first (row, col) with a NaN/Inf value. `what`
// prefixes the messages, as on the host. Reads (n > 0): check_csr's counts (and 1 more to
// name a non-finite entry).
void check_matrix_device(const CsrView &a, const char *what, void *stream);

// Scalar tridiagonal T of the path order, its factorization and the apply coefficients.
struct DeviceTridiagonal {
  Index n = 0;
  DeviceBuffer<double> lower, diag, upper; // T as assembled (pgk::trilf::Tridiagonal)
  DeviceBuffer<double> mult, pivot;        // m_k, d'_k (pgk::trilf::TridiagonalFactor)
  // Apply coefficients (tridiag.cu; the scans in apply_scan.cu): forward y_k = b_k - m_k y_{k-1};
  // backward x_k = cu[k] x_{k+1} + dinv[k] y_k with cu = -u~_k / d'_k; transpose forward
  // w_k = cl[k] w_{k-1} + dinv[k] b_k with cl = -u~_{k-1} / d'_k, backward x_k = w_k - m_{k+1} x_{k+1}.
  DeviceBuffer<double> dinv, cu, cl;
  Index splits = 0, replaced = 0;
};

// Coverage sums of A against the path order (deterministic fixed-order reductions).
struct CoverageSums {
  double total = 0, identity = 0, kept = 0;
};

// T from A on the path order (thread per permuted row). When `cov` is not null the same pass
// also sums |a_ij| for c_id and c_pi, which it reads (1 copy; none without cov). With
// `positions`, it also records where T's entries lie in A's value array (3 per permuted row:
// lower, diag, upper; -1 for a structural zero), for gather_tridiagonal.
void assemble_tridiagonal(const CsrView &a, const DevicePathOrder &order, DeviceTridiagonal &t, CoverageSums *cov,
                          void *stream, DeviceBuffer<Index> *positions = nullptr);

// The values-only re-assembly: T from new values of the same pattern, gathered through the
// positions assemble_tridiagonal recorded (bit for bit what assemble_tridiagonal gives; one
// read of 3 positions and at most 3 values a row instead of a walk over the row). Asynchronous,
// no copy to the host; `values` null means every stored entry is 1 (as assemble_tridiagonal).
void gather_tridiagonal(const double *values, const DeviceBuffer<Index> &positions, Index n, DeviceTridiagonal &t,
                        void *stream);

// Factorization with the reference's pivot rules and the apply coefficients: paths of at least
// scan_min_path rows by the speculative scan (scan_lu.cu; pivots equal the reference's within
// rounding, src/trilf/scan_lu.hpp), the others by one thread per path (bit for bit the
// reference's). Throws std::domain_error naming the first failing permuted row. Reads (n > 0):
// the counters (1; 1 more to name a failing row). order.longest decides whether the scan runs.
void factor_tridiagonal(DeviceTridiagonal &t, const DevicePathOrder &order, double rel_tol, void *stream,
                        Index scan_min_path = pgk::trilf::kScanMinPath);

// The scan part (scan_lu.cu), asynchronous, t.pivot and t.mult allocated: for every path of at
// least min_path rows, the scan's pivots, the multipliers and u~ (ueff) of its rows; for every
// path head h, path_end[h] (one past its last row) and first_bad[h], the first row of a long
// path whose scan pivot fails a check (path_end[h] if none), from which the loop redoes it.
void scan_factor_long_paths(DeviceTridiagonal &t, const DevicePathOrder &order, Index min_path, double tau,
                            double *ueff, Index *path_end, Index *first_bad, void *stream);

// Scratch of the apply scans (per tile: aggregate, carry, fix length; per row: sensitivity).
struct ScanWorkspace {
  DeviceBuffer<double> agg_a, agg_b, carry, sens, y;
  DeviceBuffer<Index> fixlen;
  void reserve(Index n);
};

// z = Q T~^-1 Q^T r (transpose: Q T~^-T Q^T r) by two affine scans each. Asynchronous; no
// host <-> device copy.
void solve_tridiagonal(const DeviceTridiagonal &t, const DevicePathOrder &order, ScanWorkspace &ws, const double *r,
                       double *z, bool transpose, void *stream);

} // namespace pgk::cuda::trilf

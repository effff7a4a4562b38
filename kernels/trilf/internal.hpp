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
  // Apply coefficients (see tridiag.cu): forward y_k = b_k - m_k y_{k-1};
  // backward x_k = cu[k] x_{k+1} + dinv[k] y_k with cu = -u~_k / d'_k; transpose forward
  // w_k = cl[k] w_{k-1} + dinv[k] b_k with cl = -u~_{k-1} / d'_k, backward x_k = w_k - m_{k+1} x_{k+1}.
  // Stored in the apply's order: path order, or the scan positions of a LaneOrder (lanes.cu),
  // where the forward scans read mult there too (lane_mult; 0 at padding).
  DeviceBuffer<double> dinv, cu, cl, lane_mult;
  Index splits = 0, replaced = 0;
};

// Where the apply's scans run (lanes.cu). Path order: each path contiguous; loads gather
// r[perm[k]] and one pass gathers z_i = x[iperm[i]]. Four lanes: path p goes to lane p % 4, each
// lane the concatenation of its paths, and the lanes interleaved (scan position 4 v + q is row v
// of lane q), so one scan carries four independent recurrences; the backward scans store z in
// A's numbering themselves. Rows of one path stay consecutive within a lane, and four paths
// side by side in A's numbering (a grid's columns) share sectors across the lanes, so both
// path directions of a grid load and store whole sectors, and the final gather goes.
enum class ApplyLayout { Auto, Path, Lanes };
struct LaneOrder {
  Index rows = 0;             // scan positions (4 x the longest lane); 0: the apply runs in path order
  DeviceBuffer<Index> row;    // per scan position: its row of the path order, -1 for padding
  DeviceBuffer<Index> arow;   // per scan position: its row of A, -1 for padding
  double contiguous = 0;      // share of rows whose next row in path order is the next row of A
  double lane_neighbours = 0; // share of rows whose next lane or next lane row is the next row of A
};

// Plans the lane order for the n rows of `order` (1 read, the lanes' lengths and the two shares,
// unless n = 0 or `want` is Path) and keeps it (rows > 0) when `want` is Lanes, or Auto and at
// least half the rows have their next row of A next in their lane or beside them in the next lane
// (lane_neighbours >= 1/2), with at most n/8 positions of padding. Otherwise out.rows = 0.
void plan_lanes(const DevicePathOrder &order, Index n, ApplyLayout want, LaneOrder &out, void *stream);

// dinv, cu, cl and lane_mult of t in lane order (t.mult, the pivots and u~ in path order).
void lane_coefficients(DeviceTridiagonal &t, const LaneOrder &lanes, const double *ueff, void *stream);

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
// With lanes (rows > 0), the apply coefficients are stored in lane order (lane_coefficients).
void factor_tridiagonal(DeviceTridiagonal &t, const DevicePathOrder &order, double rel_tol, void *stream,
                        Index scan_min_path = pgk::trilf::kScanMinPath, const LaneOrder *lanes = nullptr);

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

// z = Q T~^-1 Q^T r (transpose: Q T~^-T Q^T r) by two affine scans each, in lane order when
// lanes->rows > 0 (t factored with them). Asynchronous; no host <-> device copy.
void solve_tridiagonal(const DeviceTridiagonal &t, const DevicePathOrder &order, ScanWorkspace &ws, const double *r,
                       double *z, bool transpose, void *stream, const LaneOrder *lanes = nullptr);

// The lane-order scans of solve_tridiagonal (lanes.cu).
void solve_lanes(const DeviceTridiagonal &t, const LaneOrder &lanes, ScanWorkspace &ws, const double *r, double *z,
                 bool transpose, void *stream);

} // namespace pgk::cuda::trilf

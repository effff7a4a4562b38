// PC trilf, step 3: the tridiagonal matrix T = tridiagonal part of Q^T A Q restricted to the
// linear forest, its factorization, and z = Q T^-1 Q^T r.
//
// T (permuted order, k = 0..N-1, row k is original row perm[k]):
//   diag[k]  = a(perm[k], perm[k])
//   lower[k] = a(perm[k], perm[k-1]) when k-1 is on the same path, else 0
//   upper[k] = a(perm[k], perm[k+1]) when k+1 is on the same path, else 0
// Coefficients come from A itself (not from the weights), so T is A's own sub-matrix on the
// forest edges: block diagonal with one tridiagonal block per path. Vertices consecutive in
// the permutation but on different paths are not coupled even when A couples them.
//
// Factorization: LU without pivoting (Thomas), T = L U, L unit lower bidiagonal with
// multipliers m_k = lower[k] / d'_{k-1}, U upper bidiagonal with pivots
// d'_k = diag[k] - m_k * upper[k-1] and the superdiagonal of T. Zero and tiny pivots
// (documented fallback, PivotOptions::rel_tol = tau):
//   * pivot k is "tiny" when |d'_k| <= tau * s_k, s_k = |lower[k]| + |diag[k]| + |upper[k]|
//     (1-norm of row k of T; '<=' so an exact zero is caught even when s_k = 0);
//   * a tiny pivot with a nonzero update m_k * upper[k-1] SPLITS the path before k: the
//     couplings lower[k] and upper[k-1] are dropped, d'_k = diag[k], and the test repeats;
//   * a tiny pivot without an update (first vertex of a path, or after a split) is
//     REPLACED by sign(diag[k]) * s_k (+ for zero), or by 1 when row k of T is all zero.
//     A one-vertex segment is thus Jacobi whenever its diagonal is usable.
// The factor therefore is the exact LU (up to rounding) of an effective matrix T~ that
// equals T except at the reported splits and replacements; `effective` stores T~ so a test,
// or another backend, can solve with it directly. NaN or Inf in T, or a pivot/multiplier
// that overflows, throws std::domain_error naming the row: the preconditioner never
// produces NaN silently. solve() does not check b (a NaN residual is the Krylov method's to
// report).
//
// tau = sqrt(machine epsilon) is the classic static-pivoting threshold (Li & Demmel's
// SuperLU_DIST): a pivot that small relative to its row has lost about half the digits.
#pragma once

#include "src/common/csr.hpp"
#include "src/trilf/paths.hpp"

#include <vector>

namespace pgk::trilf {

struct Tridiagonal {
  std::vector<double> lower, diag, upper; // N each; lower[path start] = upper[path end] = 0
  Index size() const { return static_cast<Index>(diag.size()); }
};

// T from A and the path order (see above): one pass over A's rows, as the device's
// one-thread-per-nonzero scatter. A is checked like check_matrix (square, sorted unique rows,
// finite values); a pattern-only A reads as all ones.
Tridiagonal assemble(const CsrView &a, const PathOrder &order);

struct PivotOptions {
  double rel_tol = 1.4901161193847656e-08; // tau = sqrt(DBL_EPSILON); 0 catches exact zeros only
};

struct TridiagonalFactor {
  std::vector<Index> perm;   // new -> old, as PathOrder::perm
  std::vector<double> mult;  // m_k (0 at k = 0, path starts and splits)
  std::vector<double> pivot; // d'_k
  Tridiagonal effective;     // T~: upper[k] is U's superdiagonal
  Index splits = 0;          // couplings dropped
  Index replaced = 0;        // pivots replaced
  Index size() const { return static_cast<Index>(pivot.size()); }
};

// factor's checks of its input (shared with factor_scan, scan_lu.hpp): std::invalid_argument on
// mismatched sizes, a bad perm or rel_tol, nonzero lower[0] / upper[N-1]; std::domain_error on a
// non-finite entry, naming its permuted and original row.
void check_factor_input(const Tridiagonal &t, const std::vector<Index> &perm, const PivotOptions &opt);

// Throws std::invalid_argument on mismatched sizes or a bad perm, std::domain_error as above.
TridiagonalFactor factor(const Tridiagonal &t, const std::vector<Index> &perm,
                         const PivotOptions &opt = PivotOptions());

// x = Q T~^-1 Q^T b: b and x in the ORIGINAL ordering (gather, solve, scatter). x may alias b.
void solve(const TridiagonalFactor &f, const double *b, double *x);

// In the permuted ordering, in place: y <- T~^-1 y.
void solve_permuted(const TridiagonalFactor &f, double *y);

// x = Q T~^-T Q^T b (the transpose of solve's operator: T~^T = U^T L^T, so a forward solve
// with U^T, then a backward one with L^T). x may alias b.
void solve_transpose(const TridiagonalFactor &f, const double *b, double *x);

// In the permuted ordering, in place: y <- T~^-T y.
void solve_permuted_transpose(const TridiagonalFactor &f, double *y);

// Dense-free product y = T x in the permuted ordering (for residual checks).
void multiply(const Tridiagonal &t, const double *x, double *y);

} // namespace pgk::trilf

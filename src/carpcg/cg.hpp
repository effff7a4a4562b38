// CG on the double-sweep operator (CGMN / CARP-CG), one process: the reference every other
// carpcg implementation is tested against.
//
// With DKSWP(x; b) = Q x + R b (operators.hpp), CG solves R A x = R b in the inner product of the
// operator's weights W:
//   Standard (the report's Alg. 2, as corrected in the digest):
//     p = DKSWP(x0; b) - x0, r = p
//     loop: q = p - DKSWP(p; 0); alpha = <r,r>_W / <p,q>_W; x += alpha p; r -= alpha q;
//           beta = <r,r>_W(new) / <r,r>_W; p = r + beta p
//   SingleReduction (Chronopoulos & Gear, 1989): the same iterates in exact arithmetic with one
//     reduction per iteration (the dots <r,r>_W and <r,s>_W, s = M r, together), the variant the
//     PETSc type runs so that an MPI iteration has one allreduce:
//     r = DKSWP(x0; b) - x0, s = r - DKSWP(r; 0), gamma = <r,r>_W, delta = <r,s>_W,
//     alpha = gamma / delta, p = r, q = s
//     loop: x += alpha p; r -= alpha q; s = r - DKSWP(r; 0); gamma' = <r,r>_W; delta' = <r,s>_W;
//           beta = gamma' / gamma; alpha = gamma' / (delta' - beta gamma' / alpha);
//           p = r + beta p; q = s + beta q
// Convergence is judged on the true residual, ||b - A x_k|| <= rtol ||b||, computed every
// true_residual_interval iterations (the report's criterion with interval 1, x0 = 0, rtol 1e-9).
#pragma once

#include "src/carpcg/operators.hpp"

#include <functional>
#include <vector>

namespace pgk::carpcg {

enum class CgVariant { Standard, SingleReduction };

enum class Stop {
  Converged,     // the true residual met rtol
  MaxIterations, // max_it iterations without that
  Breakdown,     // <p, M p>_W <= 0 or a zero CG residual with a large true residual: M is singular
                 // on the search direction (zero rows with b_i != 0, an inconsistent system)
  NotFinite,     // a NaN or Inf in a dot (overflow)
};
const char *stop_name(Stop s);

struct SolveOptions {
  double rtol = 1e-9;
  int max_it = 100000;
  int true_residual_interval = 1; // >= 1; the last iteration is always checked
  CgVariant variant = CgVariant::Standard;
  // Called after every iteration k >= 1 with the iterate x_k (tests compare iterates).
  std::function<void(int, const double *)> on_iterate;
};

struct SolveStats {
  int iterations = 0;
  Stop stop = Stop::MaxIterations;
  double relative_residual = 0;       // ||b - A x|| / ||b|| at the last check (||b|| = 0: absolute)
  std::vector<int> checked_at;        // iterations whose true residual was computed (0 first)
  std::vector<double> true_residuals; // relative, one per checked_at entry
  std::vector<double> cg_residuals;   // ||r_k||_W of the CG residual, k = 0..iterations
  long long double_sweeps = 0;
};

// Solves A x = b with x as the initial guess (overwritten by the result); A is op.matrix().
SolveStats solve(const DoubleSweep &op, const double *b, double *x, const SolveOptions &o);

// sum_i u_i v_i w_i in index order (w == nullptr: Euclidean): the dot every carpcg CG uses.
double weighted_dot(const double *u, const double *v, const double *w, Index n);
// y += a x in index order: the reference's vector update, which the host backend of KSP carpcg
// uses too, so that both round alike whatever BLAS PETSc links.
void axpy(double *y, double a, const double *x, Index n);

} // namespace pgk::carpcg

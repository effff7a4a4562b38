// Kaczmarz row projections on a CSR matrix: the building blocks of every carpcg scheme
// (Gordon & Gordon's CGMN and CARP-CG; the digest notes/004-carp-cg.md, section 1).
//
// One projection moves x onto the hyperplane of row i, relaxed by lambda:
//     x <- x + lambda ((b_i - a_i . x) / |a_i|^2) a_i^T
// computed as coef = lambda * ((b_i - dot) / |a_i|^2), then x_j += coef * a_ij for each entry in
// storage order. KSWP applies it to the rows in a given order, BKSWP in the reverse order.
//
// Zero rows: a row whose stored entries are all exactly zero (|a_i|^2 == 0, also a row with no
// entries) is skipped. It constrains no unknown; if b_i != 0 the system is inconsistent and no
// method can make the residual of that row smaller than |b_i|. There is no threshold: the
// report's code aborted on |a_i|^2 < 1e-7, which rejected valid systems; tiny rows are projected
// like any other.
#pragma once

#include "src/common/csr.hpp"

#include <vector>

namespace pgk::carpcg {

// |a_i|^2 of every row (sum of squares in storage order). Throws std::domain_error naming the
// first row with a NaN or Inf entry, or whose norm overflows.
std::vector<double> row_norms2(const CsrView &a);

// Where a sweep also records the updates it makes to some unknowns (MPI multicolour sweeps: the
// updates of ghost copies, sent to their owners). Unknown j >= first gets delta[j - first] += u
// for each update x_j += u. Default: nothing recorded.
struct UpdateLog {
  Index first = 0;
  double *delta = nullptr;
};

// KSWP (backward = false) or BKSWP over the rows rows[0..count) (nullptr: the rows
// [0, count)), on x indexed by a's column indices. b == nullptr: right-hand side 0. norms2 from
// row_norms2(a); rows with norms2[i] == 0 are skipped.
void sweep(const CsrView &a, const double *norms2, const double *b, double lambda, const Index *rows, Index count,
           bool backward, double *x, UpdateLog log = {});

// The Cimmino-type pass of the report's GPU code (the digest's section 1, "what the code does"):
// every row reads the same frozen x, and
//     acc_j += coef_i a_ij,  coef_i = lambda * ((b_i - a_i . x) / |a_i|^2)
// for all rows i in natural order (the report's atomicAdd, in a fixed order). acc is not cleared.
void cimmino_pass(const CsrView &a, const double *norms2, const double *b, double lambda, const double *x, double *acc);

// r = b - A x over the rows of a (b == nullptr: 0), storage order.
void residual(const CsrView &a, const double *b, const double *x, double *r);

} // namespace pgk::carpcg

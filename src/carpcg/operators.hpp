// The double-sweep operators of the carpcg schemes, one process, on the host.
//
// A double sweep maps x to y = DKSWP(A, b, x, lambda): a forward sweep, then a backward sweep
// (with the scheme's averaging in between and after). It is affine in (x, b): y = Q x + R b with
// Q = I - R A. CG on R A x = R b is CGMN (Bjorck & Elfving; the report's Alg. 2 as corrected in
// the digest): R A is symmetric positive semi-definite in the inner product <u, v>_W = u^T W v,
// W = I for the Kaczmarz and Cimmino schemes and W = diag(|L_j|) for CARP (the digest's
// correction: the averaging is an orthogonal projection only in the space of the duplicated
// components, so CARP's CG dots must be weighted by the multiplicities).
//
// Schemes:
//   sequential  KSWP then BKSWP over the rows in a given order (default natural): CGMN.
//   multicolor  the rows grouped by a distance-2 colouring (coloring.hpp), colour by colour;
//               exactly `sequential` in the coloured order, and what a device or MPI ranks can
//               sweep in parallel without atomics or averaging.
//   carp        explicit row blocks (blocks.hpp): forward sweep per block -> average -> backward
//               sweep per block -> average (DCSWP); W = diag(|L_j|) (unit where no block
//               touches x_j: such an unknown never changes).
//   cimmino     the report's "GPU CARP-CG" as its code runs (the digest, section 1): one row per
//               thread, every row reads a frozen x, y = x + sum_i coef_i a_i^T with
//               coef_i = lambda~ ((b_i - a_i x) / |a_i|^2), done twice (the second pass from the
//               first pass's result); no |L|. CG on 1 - (1 - lambda~ M)^2, M = A^T D A,
//               D = diag(1/|a_i|^2): a Cimmino/CGNR-type method. The report used lambda~ = 0.35.
#pragma once

#include "src/carpcg/coloring.hpp"
#include "src/common/csr.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pgk::carpcg {

enum class Scheme { Sequential, Multicolor, Carp, Cimmino };

const char *scheme_name(Scheme s);
Scheme parse_scheme(const std::string &name); // throws std::invalid_argument

// The relaxation each scheme uses unless told otherwise: 1 (the report's CGMNC), and 0.35 for
// cimmino (the report's lambda~).
double default_relaxation(Scheme s);

struct OperatorOptions {
  Scheme scheme = Scheme::Sequential;
  double lambda = 1.0;             // relaxation; cimmino: the report's lambda~
  Index blocks = 1;                // carp: number of contiguous row blocks
  std::vector<Index> block_of_row; // carp: an explicit assignment instead (one id per row)
  std::vector<Index> order;        // sequential: the row order (empty: natural)
  bool weighted_dot = true;        // carp: W = diag(|L_j|); false: Euclidean dots (wrong, for study)
};

class DoubleSweep {
public:
  virtual ~DoubleSweep() = default;

  Index size() const { return a_.ncols; }
  const CsrView &matrix() const { return a_; }
  const std::vector<double> &norms2() const { return norms2_; }

  // y = DKSWP(x; b) (b == nullptr: 0). y may not alias x.
  virtual void apply(const double *x, const double *b, double *y) const = 0;

  // The weights of the CG inner product, or empty for Euclidean dots.
  virtual const std::vector<double> &weights() const { return no_weights_; }

  // Number of double sweeps applied so far (statistics).
  long long applications() const { return applications_; }

protected:
  // Throws std::invalid_argument for a non-square matrix or lambda out of range for the
  // scheme, std::domain_error for NaN/Inf entries (row_norms2).
  DoubleSweep(const CsrView &a, double lambda, bool kaczmarz);
  CsrView a_;
  std::vector<double> norms2_;
  double lambda_;
  mutable long long applications_ = 0;
  const std::vector<double> no_weights_;
};

// The operator of a scheme on `a`, which must outlive it (only a view is kept).
std::unique_ptr<DoubleSweep> make_double_sweep(const CsrView &a, const OperatorOptions &o);

// The colouring and the block plan figures of an operator, where the scheme has them.
const Coloring *coloring_of(const DoubleSweep &op);               // multicolor, else nullptr
const std::vector<Index> *multiplicity_of(const DoubleSweep &op); // carp |L_j|, else nullptr

} // namespace pgk::carpcg

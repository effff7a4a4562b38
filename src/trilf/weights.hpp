// PC trilf, step 0: the weighted graph on which the [0,n]-factor is computed.
//
// Klein & Strzodka run their factor on A' = |A| - diag(|A|) and, for a nonsymmetric A, on
// A' + A'^T; the coefficients of the preconditioner always come from A itself. This file
// builds that graph W once, so every later step (proposals, cycle breaking, the coarse graph
// of the block variant) reads one symmetric array of positive weights.
//
// Determinism (the GPU version must produce bit-identical W):
//   * w_ij = x_ij + x_ji with x_ij = |a_ij| (0 when not stored). IEEE addition is
//     commutative, so w_ij and w_ji are the same double; no other rounding happens for
//     Weight::Abs.
//   * Weight::Scaled: w_ij = (x_ij + x_ji) / (sqrt(s_i) * sqrt(s_j)), s_i = |a_ii|, or, when
//     a_ii is zero or not stored, the largest |a_ij| (j != i) of row i, or 1 for a row with no
//     nonzero at all. The product of the two square roots is commutative, so W stays exactly
//     symmetric; sqrt and / are correctly rounded in IEEE (CUDA too, unless built with
//     fast-math), so the GPU gets the same bits.
//   * An entry whose weight is zero (a stored zero, or underflow) is not an edge: a
//     [0,n]-factor only uses edges with w > 0 (the paper's omega(e) != 0).
// For a matrix with symmetric values (|a_ij| == |a_ji|), w_ij = 2|a_ij| exactly, which orders
// the edges exactly as |a_ij| does: the forest equals the one computed on A' directly.
#pragma once

#include "src/common/csr.hpp"

#include <string>

namespace pgk::trilf {

enum class Weight {
  Abs,    // |a_ij|, the paper's choice
  Scaled, // |a_ij| / sqrt(|a_ii a_jj|): invariant under symmetric diagonal scaling of A
};

const char *to_string(Weight w);
Weight parse_weight(const std::string &name); // "abs" | "scaled"; throws std::invalid_argument

// Throws std::invalid_argument unless A is square with valid CSR arrays and every row's
// column indices strictly increasing (sorted, unique: PETSc SeqAIJ's layout), and
// std::domain_error naming the first (row, column) whose value is NaN or +-Inf. `what`
// prefixes the messages ("trilf weights", ...).
void check_matrix(const CsrView &a, const char *what);

// W: symmetric, sorted rows, no diagonal, only edges with weight > 0 (see above). A pattern
// (values == nullptr) gets weight 1 for every stored off-diagonal entry (so 2 where both
// (i,j) and (j,i) are stored). Checks A as check_matrix does.
Csr weight_graph(const CsrView &a, Weight w = Weight::Abs);

// w_ij of a graph built by weight_graph, 0 when {i,j} is not an edge (binary search).
double edge_weight(const CsrView &w, Index i, Index j);

} // namespace pgk::trilf

// Relative weight coverage (Klein & Strzodka, Eq. 3-5): the share of A's off-diagonal
// magnitude that a factor, a linear forest or a (block) tridiagonal preconditioner keeps.
//
// Definitions used here, all measured on A itself (the paper: "the weight coverage results
// are calculated with respect to the original matrix A", also when the factor was computed
// on A' + A'^T):
//   omega_G = sum over stored entries i != j of |a_ij|
//   c_pi    = sum over factor edges {v,w} of (|a_vw| + |a_wv|) / omega_G
//   c_id    = sum over i of (|a_{i,i-1}| + |a_{i,i+1}|) / omega_G
// Eq. 5 sums the sub- and superdiagonal entries row by row; dividing that by a sum over
// undirected edges (Eq. 4) would give up to 2, so both sums run over entries. For a
// symmetric A, c_pi equals the paper's edge-based Eq. 4 exactly. A matrix without
// off-diagonal weight has coverage 1 by convention (nothing is left out).
#pragma once

#include "src/common/csr.hpp"
#include "src/trilf/block.hpp"
#include "src/trilf/factor.hpp"
#include "src/trilf/paths.hpp"

#include <vector>

namespace pgk::trilf {

double offdiagonal_weight(const CsrView &a); // omega_G

// c_id: the tridiagonal part in the original ordering (the paper's "TriScal").
double coverage_identity(const CsrView &a);

// c_pi of any symmetric neighbour list with `n` slots per vertex (-1 = none).
double coverage_neighbours(const CsrView &a, const std::vector<Index> &nbr, int n);
inline double coverage(const CsrView &a, const Factor &f) { return coverage_neighbours(a, f.nbr, f.n); }
inline double coverage(const CsrView &a, const LinearForest &f) { return coverage_neighbours(a, f.nbr, 2); }

// Share captured by the off-diagonals of the tridiagonal T built on `order`; equals
// coverage(a, forest) for the forest the order came from.
double coverage(const CsrView &a, const PathOrder &order);

// Share captured by the off-diagonal entries of the 2x2 block tridiagonal T (intra-pair
// entries and the coupling blocks of consecutive blocks on a coarse path): the "block
// tridiagonal" columns of the paper's Table 5.
double coverage(const CsrView &a, const BlockOrder &order);

} // namespace pgk::trilf

// PC trilf, step 1: a [0,n]-factor of the weight graph W (weights.hpp): every vertex
// keeps at most n of its edges, chosen heavy first. Klein & Strzodka, Algorithm 2
// (parallel, proposals and mutual confirmation) and Algorithm 1 (sequential greedy, the
// quality oracle).
//
// Algorithm 2 as implemented here (the paper's listing is partly garbled; this is the
// reconstruction of the digest, 003-linear-forest.md, which agrees with the prose, Table 1
// and Table 4):
//
//   C = empty (n slots per vertex: the confirmed edges)
//   for k = 0 .. M-1:
//     charged = (k mod m != k_m)
//     if charged: q[v] = charge_positive(seed, k, v, p) for every v
//     C' = C                                                   (snapshot)
//     for every v, independently (one generalized SpMV over the rows of W):
//       candidates: j in row v with w_vj > 0, |C'[j]| < n, j not in C'[v],
//                   and (not charged or q[j] != q[v])
//       P[v] = the best n - |C'[v]| candidates               (top-n accumulator)
//     if not charged and no vertex proposed anything: stop    (C is maximal; M_max = k+1)
//     for every v: C[v] = C'[v] + {j in P[v] : v in P[j]}     (mutual proposals only)
//
// Determinism rules (the GPU version must reproduce C exactly; state of round k depends
// only on the snapshot of round k-1, so no atomics and no order of execution matter):
//   * Candidate order: (w_vj descending, j ascending). A candidate with equal weight and a
//     smaller column wins. This is what a CSR row scanned left to right with a strict '>'
//     insertion (the paper's Table 1 accumulator) gives, but it is defined on values, so a
//     row may be reduced in any order or split between threads. Since W is symmetric bit
//     for bit, every vertex's preference is the restriction of one global strict order of
//     the edges: (w desc, min(v,j) asc, max(v,j) asc). Consequently each uncharged round
//     confirms at least the heaviest still available edge, so progress is guaranteed.
//   * Charges: charge_positive() below, a documented hash of (seed, k, v); no state, no
//     random engine, the same on host and device. The paper uses part of MD5 (Auer &
//     Bisseling); any hash with P('+') = p serves, so coverage differs from the paper's
//     only in the charged rounds.
//   * Slots of C[v] are kept sorted ascending with -1 (none) after the neighbours, so the
//     array itself, not only the set, is reproducible.
//   * Stopping early changes nothing: once an uncharged round proposes nothing, no later
//     round can (charged candidate sets are subsets). Running all M rounds gives the same C.
#pragma once

#include "src/common/csr.hpp"
#include "src/trilf/weights.hpp"

#include <cstdint>
#include <vector>

namespace pgk::trilf {

constexpr int kMaxDegree = 8; // largest n accepted (the paper uses 1..4)

// Parameters of Algorithm 2 with the paper's defaults (its "configuration 2").
struct FactorOptions {
  int max_degree = 2;          // n: degree bound of the factor
  int rounds = 5;              // M: proposal rounds at most
  int charge_period = 5;       // m
  int charge_offset = 0;       // k_m: round k is uncharged iff k mod m == k_m
  double charge_prob = 0.5;    // p: probability of the '+' charge
  std::uint64_t seed = 0;      // charge hash seed (0 is the reference setting)
  Weight weight = Weight::Abs; // used by the functions that start from A, not from W
};

// Throws std::invalid_argument unless 1 <= n <= kMaxDegree, M >= 0, m >= 1,
// 0 <= k_m < m and 0 <= p <= 1.
void validate(const FactorOptions &opt);

inline bool is_charged_round(const FactorOptions &opt, int k) { return k % opt.charge_period != opt.charge_offset; }

// splitmix64's output function (Steele, Lea & Flood; Vigna's constants): a bijection of
// 64-bit words with good avalanche, 3 multiplies, trivially portable to CUDA.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Charge of vertex v in round k ('+' = true), exactly:
//   key = mix64(seed + 0x9E3779B97F4A7C15 * (k + 1))          (mod 2^64)
//   h   = mix64(key  + 0xD1B54A32D192ED03 * (v + 1))          (v as a 64-bit integer)
//   '+' iff (h >> 11) * 2^-53 < p
// The double on the left is exact (53 bits scaled by a power of two), so the comparison is
// the same on every platform.
inline bool charge_positive(std::uint64_t seed, int k, Index v, double p) {
  const std::uint64_t key = mix64(seed + 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(k) + 1));
  const std::uint64_t h = mix64(key + 0xD1B54A32D192ED03ull * (static_cast<std::uint64_t>(v) + 1));
  return static_cast<double>(h >> 11) * 0x1.0p-53 < p;
}

// A [0,n]-factor: nbr[v*n .. v*n+n) are v's neighbours, ascending, -1 padded at the end.
// Symmetric: w in nbr(v) iff v in nbr(w).
struct Factor {
  int n = 0;
  Index nvertices = 0;
  std::vector<Index> nbr;
  int rounds_run = 0;   // proposal rounds executed (M_max when `maximal`)
  bool maximal = false; // an uncharged round found nothing to propose

  Index degree(Index v) const;
  Index edges() const; // number of undirected edges
};

// One proposal round, the generalized SpMV. w: the weight graph. confirmed: n slots per
// vertex (as Factor::nbr). charges: nullptr in an uncharged round, else one byte per vertex,
// nonzero = '+'. proposed (out): n slots per vertex, the new targets best first, -1 padded.
// Returns the number of proposals made.
Index propose(const CsrView &w, int n, const Index *confirmed, const std::uint8_t *charges, Index *proposed);

// Mutual confirmation: confirmed[v] gains every j in proposed[v] with v in proposed[j];
// slots are then re-sorted ascending. Returns the number of new undirected edges.
Index confirm(Index nvertices, int n, const Index *proposed, Index *confirmed);

// Algorithm 2 on the weight graph w (symmetric, positive weights: weight_graph()).
Factor parallel_factor(const CsrView &w, const FactorOptions &opt);

// Algorithm 1: edges in the global order (w desc, min id asc, max id asc), each taken when
// both ends still have degree < n. rounds_run = 0, maximal = true.
Factor greedy_factor(const CsrView &w, int n);

} // namespace pgk::trilf

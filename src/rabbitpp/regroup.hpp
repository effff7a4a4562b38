// The RABBIT++ pass (README.md section 4) and the figures of an ordering (section 5).
#pragma once

#include "src/rabbitpp/rabbitpp.hpp"

namespace pgk::rabbitpp {

// Per vertex: 1 if every neighbour in g lies in its own community (com), 0 otherwise; a
// vertex without neighbours is insular. (A stored diagonal entry lies in its own community.)
std::vector<std::uint8_t> insular_flags(const GraphView &g, const std::vector<Index> &com);

// Per vertex: 1 if its in-degree (stored entries of its column of A, diagonal included) is above
// hub_factor times the average nnz(A) / n, exact: indeg * n > hub_factor * nnz.
std::vector<std::uint8_t> hub_flags(const CsrView &a, int hub_factor);
// The hub test of hub_flags for one vertex (the multicore backend's too; the device's hub_flag,
// kernels/rabbitpp/regroup_ops.hpp, is the same test and the GPU-emulation tests compare them).
inline bool is_hub(std::int64_t indeg, Index n, Index nnz, int hub_factor) {
  return indeg * static_cast<std::int64_t>(n) > static_cast<std::int64_t>(hub_factor) * static_cast<std::int64_t>(nnz);
}
// The largest hub_factor: with it the products of is_hub fit 64 bits for any nnz below 2^43.
constexpr int kMaxHubFactor = 1 << 20;
// Throws std::invalid_argument unless 1 <= opt.hub_factor <= kMaxHubFactor and 0 <= opt.min_skew <= 1.
void check_regroup_options(const Options &opt);

// Row lengths of A over a range of rows, tallied so that the sum of the k longest is exact and
// O(rows): lengths below kCap counted, longer ones listed. Tallies of disjoint ranges merge.
struct LengthTally {
  static constexpr Index kCap = 1024;
  std::vector<std::int64_t> count = std::vector<std::int64_t>(kCap, 0); // count[l]: rows of length l
  std::vector<Index> long_rows;                                         // lengths >= kCap
};
LengthTally tally_row_lengths(const CsrView &a, Index begin, Index end);
void merge_tally(LengthTally &into, const LengthTally &from);
// The entries of the k longest rows (ties do not change the sum); consumes the tally.
std::int64_t entries_in_longest(LengthTally &tally, Index k);
// The rows the skew counts: the ceil(n/10) longest.
inline Index longest_tenth(Index n) { return (n + 9) / 10; }
// The skew gate (Options::min_skew): the regrouping runs when A's ceil(n/10) longest rows hold at
// least this many entries, ceil(min_skew * nnz) (0 for min_skew 0). Every backend compares the
// same integers, so every backend takes the same decision.
std::int64_t regroup_min_entries(std::int64_t nnz, double min_skew);

// The regrouped permutation: H | R | I (or I | H | R with opt.insular_first), Rabbit order kept
// inside each group; groups by opt.hub_scope. perm_rabbit[new] = old, and so is the result.
std::vector<Index> regroup(const CsrView &a, const Graph &g, const std::vector<Index> &com,
                           const std::vector<Index> &perm_rabbit, const Options &opt);

// Communities, largest community, modularity, insularity, insular vertices, hubs, skew, rounds.
// (Info::regrouped is the caller's.)
Info figures(const CsrView &a, const GraphView &g, const std::vector<Index> &com, const Dendrogram &d, int hub_factor);

} // namespace pgk::rabbitpp

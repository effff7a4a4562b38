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
// Throws std::invalid_argument unless 1 <= opt.hub_factor <= kMaxHubFactor.
void check_hub_factor(const Options &opt);

// The regrouped permutation: H | R | I (or I | H | R with opt.insular_first), Rabbit order kept
// inside each group; groups by opt.hub_scope. perm_rabbit[new] = old, and so is the result.
std::vector<Index> regroup(const CsrView &a, const Graph &g, const std::vector<Index> &com,
                           const std::vector<Index> &perm_rabbit, const Options &opt);

// Communities, largest community, modularity, insularity, insular vertices, hubs, skew, rounds.
Info figures(const CsrView &a, const GraphView &g, const std::vector<Index> &com, const Dendrogram &d, int hub_factor);

} // namespace pgk::rabbitpp

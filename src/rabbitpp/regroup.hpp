// The RABBIT++ pass (README.md section 4) and the figures of an ordering (section 5).
#pragma once

#include "src/rabbitpp/rabbitpp.hpp"

namespace pgk::rabbitpp {

// Per vertex: 1 if every neighbour in g lies in its own community (com), 0 otherwise; a
// vertex without neighbours is insular.
std::vector<std::uint8_t> insular_flags(const Graph &g, const std::vector<Index> &com);

// Per vertex: 1 if its in-degree (stored entries of its column of A, diagonal included) is above
// hub_factor times the average nnz(A) / n, exact: indeg * n > hub_factor * nnz.
std::vector<std::uint8_t> hub_flags(const CsrView &a, int hub_factor);
// Throws std::invalid_argument unless opt.hub_factor >= 1.
void check_hub_factor(const Options &opt);

// The regrouped permutation: H | R | I (or I | H | R with opt.insular_first), Rabbit order kept
// inside each group; groups by opt.hub_scope. perm_rabbit[new] = old, and so is the result.
std::vector<Index> regroup(const CsrView &a, const Graph &g, const std::vector<Index> &com,
                           const std::vector<Index> &perm_rabbit, const Options &opt);

// Communities, largest community, modularity, insularity, insular vertices, hubs, skew, rounds.
Info figures(const CsrView &a, const Graph &g, const std::vector<Index> &com, const Dendrogram &d, int hub_factor);

} // namespace pgk::rabbitpp

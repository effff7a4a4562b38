// Element operations of the device RABBIT++ regrouping and of the figures (regroup.cu), README.md
// sections 4 and 5; the results equal src/rabbitpp/regroup.cpp's. Host/device (ops_common.hpp).
#pragma once

#include "kernels/rabbitpp/ops_common.hpp"

namespace pgk::cuda::rabbitpp_ops {

// Entry e of G (in the row of a vertex of community c) leads outside c.
PGK_RB_HD bool leads_outside(const Index *g_colidx, const Index *com, Index c, Index e) {
  return com[g_colidx[e]] != c;
}

// 1 if every neighbour of v in G lies in v's community (a vertex without neighbours is insular).
// (The device scans a row with a warp: regroup.cu, flags_kernel.)
PGK_RB_HD Index insular_flag(const Index *g_rowptr, const Index *g_colidx, const Index *com, Index v) {
  const Index c = com[v];
  for (Index e = g_rowptr[v]; e < g_rowptr[v + 1]; ++e)
    if (leads_outside(g_colidx, com, c, e)) return 0;
  return 1;
}

// 1 if v's in-degree (its column count in A, diagonal included) is above hub_factor times
// nnz(A) / n, exactly (Options::hub_factor).
PGK_RB_HD Index hub_flag(const Index *indeg, Index n, Index nnz, int hub_factor, Index v) {
  return static_cast<Wide>(indeg[v]) * static_cast<Wide>(n) > static_cast<Wide>(hub_factor) * static_cast<Wide>(nnz)
             ? 1
             : 0;
}

// Place of the vertex at position p of perm_rabbit in the layout: H | R | I -> 0, 1, 2, or with
// insular_first I | H | R -> I 0, H 1, R 2. Groups by hub_scope (all_hubs: every hub is in H).
PGK_RB_HD std::uint8_t place_at(const Index *perm, const Index *insular, const Index *hub, bool all_hubs,
                                bool insular_first, Index p) {
  const Index v = perm[p];
  const int group = all_hubs && hub[v] ? 0 : insular[v] ? 2 : hub[v] ? 0 : 1;
  return static_cast<std::uint8_t>(insular_first ? (group + 1) % 3 : group);
}

// Per community (indexed by its top): edge weight inside, total strength, vertices.
struct CommunitySums {
  Wide inside, tot, size;
};

// Weight of entry e of G inside community c (0 when it leads outside).
PGK_RB_HD Wide weight_inside(const Index *g_colidx, const std::uint8_t *g_weight, const Index *com, Index c, Index e) {
  return leads_outside(g_colidx, com, c, e) ? 0 : g_weight[e];
}
// Vertex v (of community c, strength str) with `inside` weight of its edges inside c.
PGK_RB_HD void add_to_community(CommunitySums *sums, Index c, Wide inside, Wide str) {
  add_exact(&sums[c].inside, inside);
  add_exact(&sums[c].tot, str);
  add_exact(&sums[c].size, Wide(1));
}

// v's share of its community's sums (exact integers). (The device sums a row with a warp.)
PGK_RB_HD void community_sums(const Index *g_rowptr, const Index *g_colidx, const std::uint8_t *g_weight,
                              const Wide *g_strength, const Index *com, Index v, CommunitySums *sums) {
  const Index c = com[v];
  Wide inside = 0;
  for (Index e = g_rowptr[v]; e < g_rowptr[v + 1]; ++e) inside += weight_inside(g_colidx, g_weight, com, c, e);
  add_to_community(sums, c, inside, g_strength[v]);
}

// Row lengths of A, the keys of skew's descending sort.
PGK_RB_HD std::make_unsigned_t<Index> row_length(const CsrView &a, Index v) {
  return static_cast<std::make_unsigned_t<Index>>(a.rowptr[v + 1] - a.rowptr[v]);
}

} // namespace pgk::cuda::rabbitpp_ops

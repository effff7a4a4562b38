// The serial reference of rabbitpp on hand-checked graphs and the paper's toy figures.
#include "src/common/csr_build.hpp"
#include "src/rabbitpp/dendrogram.hpp"
#include "src/rabbitpp/graph.hpp"
#include "src/rabbitpp/regroup.hpp"
#include "src/rabbitpp/serial.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace {

using pgk::Csr;
using pgk::Index;
using namespace pgk::rabbitpp;

// Symmetric pattern from undirected edges (both directions), plus the diagonal if asked.
Csr from_edges(Index n, const std::vector<std::pair<Index, Index>> &edges, bool diagonal = false) {
  std::vector<Index> r, c;
  for (auto [i, j] : edges) {
    r.push_back(i), c.push_back(j);
    r.push_back(j), c.push_back(i);
  }
  if (diagonal)
    for (Index i = 0; i < n; ++i) r.push_back(i), c.push_back(i);
  return pgk::csr_from_coo(n, n, r, c, {});
}

std::vector<Index> new_of(const std::vector<Index> &perm) { // perm[new] = old -> new[old]
  std::vector<Index> inv(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) inv[perm[k]] = static_cast<Index>(k);
  return inv;
}

TEST(RabbitppGraph, WeightsCountBothDirectionsAndDropTheDiagonal) {
  // A = [1 1 0; 0 1 1; 0 1 1] (+ a duplicate of (0,1)): G has {0,1} w 1 and {1,2} w 2.
  const Csr a = pgk::csr_from_coo(3, 3, {0, 0, 0, 1, 1, 2, 2}, {0, 1, 1, 1, 2, 1, 2}, {});
  const Graph g = build_graph(pgk::view_of(a));
  EXPECT_EQ(g.rowptr, (std::vector<Index>{0, 1, 3, 4}));
  EXPECT_EQ(g.colidx, (std::vector<Index>{1, 0, 2, 1}));
  EXPECT_EQ(g.weight, (std::vector<std::uint8_t>{1, 1, 2, 2}));
  EXPECT_EQ(g.strength, (std::vector<std::int64_t>{1, 3, 2}));
  EXPECT_EQ(g.total, 6);
}

TEST(RabbitppGraph, RejectsNonSquareAndMalformed) {
  const Csr rect = pgk::csr_from_coo(2, 3, {0}, {2}, {});
  EXPECT_THROW(build_graph(pgk::view_of(rect)), std::invalid_argument);
  Csr bad = from_edges(3, {{0, 1}});
  bad.colidx[0] = 7;
  EXPECT_THROW(build_graph(pgk::view_of(bad)), std::invalid_argument);
}

// Path 0-1-2, by hand: order 0, 2 (degree 1), 1. TW = 8. v=0: gain to 1 = 2*8 - 2*4 = 8 > 0,
// merge (str 1 -> 6). v=2: gain to 1 = 2*8 - 2*6 = 4 > 0, merge. v=1: nothing outside, top.
// Post-order, newest child first: 2, 0, then the top 1.
TEST(RabbitppSerial, PathByHand) {
  const Csr a = from_edges(3, {{0, 1}, {1, 2}}, true);
  const Dendrogram d = detect_communities_serial(build_graph(pgk::view_of(a)));
  EXPECT_EQ(d.order, (std::vector<Index>{0, 2, 1}));
  EXPECT_EQ(d.parent, (std::vector<Index>{1, -1, 1}));
  EXPECT_EQ(rabbit_permutation(d), (std::vector<Index>{2, 0, 1}));
  Options o;
  o.regroup = false;
  EXPECT_EQ(rabbitpp_serial(pgk::view_of(a), o), (std::vector<Index>{2, 0, 1}));
}

// Two "K4 minus an edge" joined by two bridges: 10 of 12 undirected edges (20 of 24 stored
// off-diagonal entries) inside the two communities, the insularity 0.83 of the paper's Fig. 1.
TEST(RabbitppSerial, Figure1Insularity) {
  const Csr a =
      from_edges(8, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {4, 5}, {4, 6}, {4, 7}, {5, 6}, {5, 7}, {2, 6}, {3, 7}});
  Info info;
  Options plain;
  plain.regroup = false; // contiguity holds for the Rabbit order; RABBIT++ then splits off the bridges' ends
  const std::vector<Index> perm = rabbitpp_serial(pgk::view_of(a), plain, &info);
  EXPECT_EQ(info.communities, 2);
  EXPECT_DOUBLE_EQ(info.insularity, 20.0 / 24.0);
  EXPECT_EQ(info.insular, 4); // 0, 1, 4, 5: the bridge ends 2, 3, 6, 7 are not
  const std::vector<Index> pos = new_of(perm);
  // Each community is contiguous: {0..3} and {4..7} each occupy 4 consecutive new ids.
  for (Index base : {0, 4}) {
    Index lo = 8, hi = -1;
    for (Index v = base; v < base + 4; ++v) lo = std::min(lo, pos[v]), hi = std::max(hi, pos[v]);
    EXPECT_EQ(hi - lo, 3) << "community of " << base;
  }
}

// The paper's Fig. 5 shape: 9 rows, 28 stored entries, average degree 3.1, two hubs (degree 5).
// RABBIT++ gives the hubs the ids 0 and 1.
TEST(RabbitppSerial, Figure5HubsGetIdsZeroAndOne) {
  const Csr a = from_edges(
      9,
      {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 3}, {1, 3}, {5, 4}, {5, 6}, {5, 7}, {5, 8}, {4, 6}, {7, 8}, {0, 4}, {0, 5}});
  ASSERT_EQ(a.nnz(), 28);
  const std::vector<std::uint8_t> hub = hub_flags(pgk::view_of(a), 1);
  EXPECT_EQ(std::count(hub.begin(), hub.end(), 1), 2);
  EXPECT_TRUE(hub[0] && hub[5]);
  Options paper; // the paper's RABBIT++ regroups whatever the skew
  paper.min_skew = 0;
  const std::vector<Index> perm = rabbitpp_serial(pgk::view_of(a), paper);
  std::vector<Index> first_two{perm[0], perm[1]};
  std::sort(first_two.begin(), first_two.end());
  EXPECT_EQ(first_two, (std::vector<Index>{0, 5}));
  // The default skew gate: the longest row (of ceil(9/10) = 1) holds 5 of 28 entries, 0.18 < 0.25,
  // so the toy keeps its Rabbit order.
  Options plain;
  plain.regroup = false;
  Info info;
  EXPECT_EQ(rabbitpp_serial(pgk::view_of(a), Options{}, &info), rabbitpp_serial(pgk::view_of(a), plain));
  EXPECT_FALSE(info.regrouped);
  EXPECT_DOUBLE_EQ(info.skew, 5.0 / 28.0);
}

// Options::hub_factor: a hub's in-degree is above k times the average, exactly (indeg * n > k * nnz).
// Fig. 5's hubs have in-degree 5 against an average of 28 / 9: hubs for k = 1, none for k = 2; the
// regrouping then keeps the Rabbit order of the non-insular vertices. A factor outside
// [1, kMaxHubFactor] is refused.
TEST(RabbitppSerial, HubFactorRaisesTheBar) {
  const Csr a = from_edges(
      9,
      {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 3}, {1, 3}, {5, 4}, {5, 6}, {5, 7}, {5, 8}, {4, 6}, {7, 8}, {0, 4}, {0, 5}});
  const std::vector<std::uint8_t> h1 = hub_flags(pgk::view_of(a), 1), h2 = hub_flags(pgk::view_of(a), 2);
  EXPECT_EQ(std::count(h1.begin(), h1.end(), 1), 2);
  EXPECT_EQ(std::count(h2.begin(), h2.end(), 1), 0);
  // In-degree 5, n = 9, nnz = 28: 45 > 28 (k = 1), 45 < 56 (k = 2); a star's centre of in-degree
  // n - 1 + 1 (its diagonal) passes any k below n^2 / nnz.
  Options o;
  o.hub_factor = 2;
  Info info;
  rabbitpp_serial(pgk::view_of(a), o, &info);
  EXPECT_EQ(info.hubs, 0);
  Options paper;
  rabbitpp_serial(pgk::view_of(a), paper, &info);
  EXPECT_EQ(info.hubs, 2);
  o.hub_factor = 0;
  EXPECT_THROW(rabbitpp_serial(pgk::view_of(a), o), std::invalid_argument);
  o.hub_factor = kMaxHubFactor; // the largest accepted (its products fit 64 bits)
  rabbitpp_serial(pgk::view_of(a), o, &info);
  EXPECT_EQ(info.hubs, 0);
  o.hub_factor = kMaxHubFactor + 1;
  EXPECT_THROW(rabbitpp_serial(pgk::view_of(a), o), std::invalid_argument);
}

TEST(RabbitppSerial, NoEdgesGivesTheIdentity) {
  for (Index n : {0, 1, 5}) {
    const Csr a = from_edges(n, {}, true);
    std::vector<Index> id(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) id[i] = i;
    EXPECT_EQ(rabbitpp_serial(pgk::view_of(a), Options{}), id) << "n = " << n;
  }
}

TEST(RabbitppSerial, RegroupLayouts) {
  const Csr a = from_edges(
      9,
      {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 3}, {1, 3}, {5, 4}, {5, 6}, {5, 7}, {5, 8}, {4, 6}, {7, 8}, {0, 4}, {0, 5}});
  Options plain;
  plain.regroup = false;
  const std::vector<Index> rabbit = rabbitpp_serial(pgk::view_of(a), plain);
  const Graph g = build_graph(pgk::view_of(a));
  const std::vector<Index> com = community_of(detect_communities_serial(g));
  const std::vector<std::uint8_t> ins = insular_flags(g, com), hub = hub_flags(pgk::view_of(a), 1);
  for (bool insular_first : {false, true})
    for (HubScope scope : {HubScope::NonInsular, HubScope::All}) {
      Options o;
      o.insular_first = insular_first;
      o.hub_scope = scope;
      const std::vector<Index> perm = regroup(pgk::view_of(a), g, com, rabbit, o);
      // Expected: stable partition of the Rabbit order by group rank.
      auto group = [&](Index v) {
        int grp = (scope == HubScope::All && hub[v]) ? 0 : ins[v] ? 2 : hub[v] ? 0 : 1;
        return insular_first ? (grp + 1) % 3 : grp;
      };
      std::vector<Index> expect = rabbit;
      std::stable_sort(expect.begin(), expect.end(), [&](Index x, Index y) { return group(x) < group(y); });
      EXPECT_EQ(perm, expect);
    }
}

TEST(RabbitppSerial, CommunitiesAreContiguousAndTopsLast) {
  // A ring of 6 cliques of 5, each joined to the next by one edge.
  std::vector<std::pair<Index, Index>> edges;
  for (Index c = 0; c < 6; ++c) {
    for (Index i = 0; i < 5; ++i)
      for (Index j = i + 1; j < 5; ++j) edges.emplace_back(5 * c + i, 5 * c + j);
    edges.emplace_back(5 * c + 4, (5 * c + 5) % 30);
  }
  const Csr a = from_edges(30, edges, true);
  const Graph g = build_graph(pgk::view_of(a));
  const Dendrogram d = detect_communities_serial(g);
  const std::vector<Index> perm = rabbit_permutation(d), com = community_of(d);
  ASSERT_TRUE(pgk::is_permutation(perm, 30));
  for (std::size_t k = 0; k < perm.size(); ++k) {
    const bool last_of_run = k + 1 == perm.size() || com[perm[k + 1]] != com[perm[k]];
    EXPECT_EQ(last_of_run, com[perm[k]] == perm[k]) << "position " << k; // the top closes its community
  }
  // Rabbit is one greedy pass: neighbouring cliques may end up in one community.
  Info info = figures(pgk::view_of(a), g, com, d, 1);
  EXPECT_GE(info.communities, 3);
  EXPECT_LE(info.communities, 6);
  EXPECT_GT(info.modularity, 0.6);
}

TEST(RabbitppSerial, Deterministic) {
  std::vector<std::pair<Index, Index>> edges;
  for (Index i = 0; i < 500; ++i) edges.emplace_back(i, (i * 37 + 11) % 500), edges.emplace_back(i, (i * 91 + 5) % 500);
  edges.erase(std::remove_if(edges.begin(), edges.end(), [](auto e) { return e.first == e.second; }), edges.end());
  const Csr a = from_edges(500, edges);
  const std::vector<Index> p1 = rabbitpp_serial(pgk::view_of(a), Options{});
  EXPECT_TRUE(pgk::is_permutation(p1, 500));
  EXPECT_EQ(p1, rabbitpp_serial(pgk::view_of(a), Options{}));
}

} // namespace

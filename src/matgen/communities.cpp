// The planted-community kind "communities" (rabbitpp's benchmark graph, issue 9): community
// sizes 16 * 2^k with k uniform in 0..8 (the last one cut to fit n), a path through each
// community, about `intra` neighbours per vertex inside its community and about `inter` in
// others, both by random pairs, and the vertices randomly relabelled. Deterministic like every
// generator: the edges come from the seed's edge stream, the relabelling from its permutation
// stream, the values (SPD) from its value stream.
#include <algorithm>
#include <numeric>

#include "src/common/rng.hpp"
#include "src/matgen/detail.hpp"

namespace pgk::gen::detail {
namespace {

// Community c owns slots [start[c], start[c + 1]); sizes drawn before any edge.
std::vector<Index> community_starts(const Params &p, SplitMix64 &rng) {
  std::vector<Index> start{0};
  while (start.back() < p.n) {
    const Index size = Index{16} << rng.bounded(9);
    start.push_back(std::min<Index>(p.n, start.back() + size));
  }
  return start;
}

std::vector<Index> relabelling(const Params &p) {
  std::vector<Index> vertex_of_slot(static_cast<std::size_t>(p.n));
  std::iota(vertex_of_slot.begin(), vertex_of_slot.end(), Index{0});
  SplitMix64 rng = stream(p, kPermutationStream);
  shuffle(vertex_of_slot, rng);
  return vertex_of_slot;
}

// Edges in slot numbers: per community its path and intra * size / 2 random pairs, then
// inter * n / 2 random pairs whose ends lie in different communities (a pair inside one
// community is redrawn, at most 32 times).
std::vector<Edge> slot_edges(const Params &p, const std::vector<Index> &start, SplitMix64 &rng) {
  std::vector<Edge> edges;
  std::vector<Index> community_of_slot(static_cast<std::size_t>(p.n));
  for (std::size_t c = 0; c + 1 < start.size(); ++c) {
    const Index lo = start[c], size = start[c + 1] - lo;
    std::fill(community_of_slot.begin() + lo, community_of_slot.begin() + lo + size, static_cast<Index>(c));
    for (Index s = lo; s + 1 < lo + size; ++s) edges.emplace_back(s, s + 1);
    if (size < 2) continue;
    const std::int64_t pairs = static_cast<std::int64_t>(size) * p.intra / 2;
    for (std::int64_t k = 0; k < pairs; ++k) {
      const Index a = lo + static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(size)));
      const Index r = lo + static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(size - 1)));
      const Index b = r < a ? r : r + 1;
      edges.emplace_back(std::min(a, b), std::max(a, b));
    }
  }
  const std::int64_t cross = start.size() > 2 ? static_cast<std::int64_t>(p.n) * p.inter / 2 : 0;
  for (std::int64_t k = 0; k < cross; ++k) {
    const Index a = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(p.n)));
    for (int t = 0; t < 32; ++t) {
      const Index b = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(p.n)));
      if (community_of_slot[a] == community_of_slot[b]) continue;
      edges.emplace_back(std::min(a, b), std::max(a, b));
      break;
    }
  }
  return edges;
}

} // namespace

Csr communities_matrix(const Params &p) {
  SplitMix64 rng = stream(p, kEdgeStream);
  const std::vector<Index> start = community_starts(p, rng);
  std::vector<Edge> edges = slot_edges(p, start, rng);
  const std::vector<Index> vertex_of_slot = relabelling(p);
  for (Edge &e : edges) {
    const Index a = vertex_of_slot[e.first], b = vertex_of_slot[e.second];
    e = {std::min(a, b), std::max(a, b)};
  }
  sort_unique(edges);
  SplitMix64 values = stream(p, kValueStream);
  return spd_from_edges(p.n, edges, values);
}

std::vector<Index> communities_planted(const Params &p) {
  SplitMix64 rng = stream(p, kEdgeStream);
  const std::vector<Index> start = community_starts(p, rng);
  const std::vector<Index> vertex_of_slot = relabelling(p);
  std::vector<Index> community(static_cast<std::size_t>(p.n));
  for (std::size_t c = 0; c + 1 < start.size(); ++c)
    for (Index s = start[c]; s < start[c + 1]; ++s) community[vertex_of_slot[s]] = static_cast<Index>(c);
  return community;
}

} // namespace pgk::gen::detail

// MatOrdering rabbitpp: Rabbit Order (Arai et al., IPDPS'16) and the RABBIT++ regrouping of
// Balaji, Crago, Jaleel, Keckler (community-based matrix reordering). Shared types of every
// backend (serial reference, multicore, GPU); the algorithm they all follow, with every tie and
// choice the papers leave open, is written down in src/rabbitpp/README.md.
//
// In short: G = pattern(A + A^T) without the diagonal, weights w(i,j) = [a_ij] + [a_ji]. Vertices
// are processed in ascending degree, in rounds of K (K = 1: the serial Rabbit Order); each one
// aggregates its community's edges lazily and merges into the neighbouring community with the
// largest positive modularity gain (exact integer comparison), or becomes a top-level community.
// The merges form a dendrogram whose post-order DFS (newest child first) numbers each community
// contiguously. RABBIT++ then regroups hubs (H), other non-insular vertices (R) and insular
// vertices (I), keeping the Rabbit order inside each group. Result: perm[new] = old.
#pragma once

#include "src/common/csr.hpp"

#include <cstdint>
#include <vector>

namespace pgk::rabbitpp {

enum class HubScope {
  NonInsular, // H = non-insular hubs, R = other non-insular, I = insular (the paper's Fig. 5)
  All,        // H = every hub, R = non-insular non-hubs, I = insular non-hubs
};

struct Options {
  bool regroup = true;        // false: plain Rabbit Order ("rabbit")
  bool insular_first = false; // layout I|H|R instead of H|R|I
  HubScope hub_scope = HubScope::NonInsular;
  // A hub's in-degree is above hub_factor times the average nnz(A) / n (exact: indeg * n >
  // hub_factor * nnz). 1 is the paper's rule; on graphs of near-uniform degree it makes about half
  // the vertices hubs, and grouping them splits every community (bench/NOTES.md).
  int hub_factor = 1;
  // The skew gate: regroup only where A's degrees are skewed, i.e. A's 10% longest rows hold at
  // least min_skew of nnz(A) (Info::skew; exact: entries >= ceil(min_skew * nnz)). 0: always, the
  // paper's RABBIT++. The seed ties hub grouping to skewed degrees; regrouping cost up to 3.7% of
  // the MatMult on planted and geometric graphs (skew 0.14-0.16) and saved 12-18% on power-law
  // graphs (skew 0.39) on the H100 (README.md section 4, bench/NOTES.md).
  double min_skew = 0.25;
  Index batch = 0; // K: vertices per merge round (1: the serial Rabbit Order; 0: default_batch(n))
  int threads = 0; // multicore backend: worker threads (0: hardware concurrency)
  // Multicore backend: transparent huge pages advised on the list arena, read at random by the
  // rounds (3-5% off the community phase on H100/H200 nodes). Off: 4 KiB pages, for machines
  // where a huge-page fault waits on compaction (bench/NOTES.md). Never changes the result.
  bool huge_pages = true;
  // A promise that A's pattern is structurally symmetric (PETSc's flag): the graph is then A
  // without its diagonal, all weights 2, and the check that costs a search per entry is skipped.
  // The result is the same as without the promise when it holds.
  bool input_is_symmetric = false;
};

// The weighted graph the communities are detected on: pattern(A + A^T) without the diagonal,
// rows sorted and unique, w in {1, 2}; str(v) = sum of v's weights, total = sum of str (2m).
struct Graph {
  Index n = 0;
  std::vector<Index> rowptr{0}, colidx;
  std::vector<std::uint8_t> weight;
  std::vector<std::int64_t> strength;
  std::int64_t total = 0;

  Index degree(Index v) const { return rowptr[v + 1] - rowptr[v]; }
};

// G as the multicore backend reads it: a Graph's arrays, or, for a structurally symmetric A with
// strictly increasing rows (GraphView::diagonal_stored), A's own arrays. G is then A without its
// diagonal, every weight 2, so no copy of A is made (0.2 s of fresh pages at 8M vertices on 16
// threads, bench/NOTES.md); a row's stored diagonal entry is no edge of G, and every reader of
// a borrowed view either skips it or maps it to the vertex's own community, which drops it.
struct GraphView {
  Index n = 0;
  const Index *rowptr = nullptr, *colidx = nullptr; // rows sorted and unique
  const std::uint8_t *weight = nullptr;             // null: every weight is 2
  const std::int64_t *strength = nullptr;
  std::int64_t total = 0;
  std::int64_t edges = 0;       // nnz(G): stored entries, diagonal ones excluded
  bool diagonal_stored = false; // rows may hold their diagonal entry
  // G is A's pattern taken on the caller's word that it is symmetric (Options::input_is_symmetric),
  // not symmetrized here: only such a G can be unsymmetric (a false promise).
  bool symmetry_promised = false;

  GraphView() = default;
  GraphView(const Graph &g) // NOLINT: every Graph is a view
      : n(g.n), rowptr(g.rowptr.data()), colidx(g.colidx.data()), weight(g.weight.data()), strength(g.strength.data()),
        total(g.total), edges(static_cast<std::int64_t>(g.colidx.size())) {}
  // Every weight is 2 where weight is null: the degree is half the strength.
  Index degree(Index v) const { return weight ? rowptr[v + 1] - rowptr[v] : static_cast<Index>(strength[v] / 2); }
  std::uint32_t weight_at(Index k) const { return weight ? weight[k] : 2u; }
};

// What community detection decided for every vertex: parent[v] is the community v merged into
// (-1: v is a top-level community), round[v] the merge round that processed v, pos[v] its place
// in the processing order (ascending degree, then id). A vertex's merge key is (round, pos).
struct Dendrogram {
  std::vector<Index> parent;
  std::vector<Index> round;
  std::vector<Index> order; // order[pos] = vertex
  std::vector<Index> pos;   // pos[vertex]
  Index rounds = 0;
};

// Figures of an ordering (MatOrdering rabbitpp's -view), see README.md section 5.
struct Info {
  Index communities = 0, largest_community = 0;
  double modularity = 0, insularity = 0, skew = 0;
  Index insular = 0, hubs = 0, rounds = 0, deferred = 0;
  bool regrouped = false; // Options::regroup and the skew gate passed: the result is RABBIT++'s
  double seconds_graph = 0, seconds_communities = 0, seconds_order = 0, seconds_regroup = 0;
  // The device backend only (zero on the host): the communities phase by round step, summed over
  // the rounds (begin: active set, gather lengths and the round's one host read; aggregate: marks,
  // expansion, sort, reduction, best targets; decide; store, of it compact: the list arena's
  // compactions; apply), and how often the arena was compacted. compactions also counts the
  // multicore backend's list arena compactions (batch.hpp).
  double seconds_round_begin = 0, seconds_round_aggregate = 0, seconds_round_decide = 0, seconds_round_store = 0,
         seconds_round_compact = 0, seconds_round_apply = 0;
  Index compactions = 0;
};

} // namespace pgk::rabbitpp

// PC trilf, step 2: from a [0,2]-factor to a linear forest (disjoint paths) and the
// permutation that makes its adjacency matrix tridiagonal (Klein & Strzodka, Section 3.3).
//
// Rules, chosen so a data-parallel version (bidirectional scans, Algorithm 3) gets the
// identical result:
//   * Cycle breaking: in every cycle of the factor the weakest edge is removed, "weakest"
//     being the smallest key (w, min(a,b), max(a,b)) with w from the weight graph: lowest
//     weight, ties to the edge with the smaller lower end, then the smaller upper end.
//     The key is unique per edge, so the choice does not depend on where a scan starts.
//   * Path ID and orientation (the paper's): a path is identified by the smaller of its two
//     end vertices, and positions count from that end (a single vertex is its own path).
//   * Permutation: vertices sorted by (path ID, position): paths in ascending order of their
//     smaller end, each laid out from that end. No sort is needed serially: scanning v
//     ascending and walking each path from the first end met gives that order.
#pragma once

#include "src/common/csr.hpp"
#include "src/trilf/factor.hpp"

#include <vector>

namespace pgk::trilf {

// An acyclic [0,2]-factor: nbr[2v], nbr[2v+1] are v's neighbours, ascending, -1 padded.
struct LinearForest {
  std::vector<Index> nbr;
  Index cycles_broken = 0;

  Index nvertices() const { return static_cast<Index>(nbr.size() / 2); }
  Index edges() const;
};

// Removes the weakest edge of every cycle of f (f.n must be 2; w is the weight graph f was
// computed on). Throws std::invalid_argument if f is not a valid symmetric [0,2]-factor.
LinearForest break_cycles(const Factor &f, const CsrView &w);

// Vertex order along the paths. perm[new] = old (PETSc's IS convention for MatPermute is
// the same "new row k is old row perm[k]"); iperm is its inverse.
struct PathOrder {
  std::vector<Index> perm;
  std::vector<Index> iperm;
  std::vector<Index> path_start; // npaths + 1 offsets into perm; path p is [ps[p], ps[p+1])
  Index longest = 0;             // vertices in the longest path

  Index npaths() const { return static_cast<Index>(path_start.size()) - 1; }
};

// Throws std::invalid_argument if the forest is not symmetric or still has a cycle.
PathOrder order_paths(const LinearForest &forest);

struct ForestStats {
  int rounds_run = 0;
  bool maximal = false;
  Index factor_edges = 0; // edges of the [0,2]-factor
  Index cycles_broken = 0;
  Index forest_edges = 0; // factor_edges - cycles_broken
};

// weight_graph(a, opt.weight) -> parallel_factor (opt.max_degree must be 2) -> break_cycles.
LinearForest extract_linear_forest(const CsrView &a, const FactorOptions &opt, ForestStats *stats = nullptr);

} // namespace pgk::trilf

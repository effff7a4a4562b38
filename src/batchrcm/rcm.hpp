// Options, statistics and small graph helpers shared by every Reverse Cuthill-McKee backend
// (serial reference, multicore batch RCM, and later the device version).
//
// Conventions every backend follows, so that all of them return the same permutation:
//  * Graph: a square CSR pattern whose row p lists the neighbours of p. It must be
//    structurally symmetric (use symmetrize_pattern, or Options::input_is_symmetric = false).
//    Values are ignored; rows need not be sorted, duplicates and self loops are allowed.
//  * Valence v(n): the number of entries stored in row n (the paper's r[n+1] - r[n]), so a
//    stored diagonal and duplicate entries count. With count_diagonal_in_valence = false the
//    entries of row n whose column is n are left out (PETSc's symmetric MatGetRowIJ graph has
//    no diagonal, so this is the setting that matches PETSc's degree).
//  * Tie rule: a vertex is the child of its neighbour that comes first in the Cuthill-McKee
//    order. The children of one parent are ordered by ascending valence; children of equal
//    valence keep the order in which they appear in the parent's row (a stable sort).
//  * Components: ordered one after another, see plan_components (rcm_start_node.hpp).
//  * Reversal: per component. Each component's Cuthill-McKee sequence is reversed in place,
//    and the components keep the order in which they were planned (like SPARSPAK/PETSc genrcm).
//    For a connected graph this is plain reverse(CM order).
//  * Result: perm[new] = old.
#pragma once

#include "src/common/csr.hpp"

#include <cstdint>
#include <vector>

namespace pgk::rcm {

enum class StartNode {
  Peripheral, // the paper's repeated BFS: restart from the lowest-valence node of the last level
  GeorgeLiu,  // SPARSPAK FNROOT (George & Liu), the finder behind PETSc's MATORDERINGRCM
  Given,      // Options::given_start; the other components use Peripheral
};

struct Options {
  StartNode start = StartNode::Peripheral;
  Index given_start = 0;                 // used with StartNode::Given
  bool count_diagonal_in_valence = true; // true: the paper's r[n+1] - r[n]
  bool input_is_symmetric = true;        // false: order pattern(A + A^T) instead of A
};

// Filled by the top-level entry points when a pointer is passed. Times are wall-clock seconds.
struct Stats {
  double symmetrize_seconds = 0; // only when Options::input_is_symmetric is false
  double start_node_seconds = 0; // plan_components: pseudo-peripheral roots of every component
  double ordering_seconds = 0;   // the core ordering from the given roots, reversal included
  Index components = 0;
  // Batch backends only.
  // Every executed batch took exactly one of the three discovery paths of Alg. 5.
  std::uint64_t batches_executed = 0;            // taken from the queue and run to the end
  std::uint64_t batches_without_rediscovery = 0; // predecessors had all discovered before it began
  std::uint64_t batches_rediscovered_before_sort = 0; // ... had by the end of its discovery
  std::uint64_t batches_rediscovered_after_sort = 0;  // waited for Discovered after sorting
  std::uint64_t batches_forwarding_overhang = 0; // output too small, passed on to the next batch
  std::uint64_t batches_dropped = 0;             // taken after the permutation was complete
  int threads = 0;
};

// Throws std::invalid_argument unless g is a square CSR graph with a well-formed row pointer
// and every column index in [0, n). Costs one pass over the arrays.
void validate_graph(const CsrView &g);

// v(n) for every vertex, following the valence rule above.
std::vector<Index> compute_valence(const CsrView &g, bool count_diagonal);

// True when p holds every value of [0, n) exactly once.
bool is_permutation(const std::vector<Index> &p, Index n);

} // namespace pgk::rcm

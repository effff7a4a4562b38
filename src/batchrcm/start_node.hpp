// Start nodes (roots) for Reverse Cuthill-McKee, and the component plan that every backend
// shares, so the serial reference, the multicore batch version and the device version all
// order the same components from the same roots in the same sequence.
#pragma once

#include "src/common/csr.hpp"
#include "src/batchrcm/rcm.hpp"

#include <vector>

namespace pgk::rcm {

// Pseudo-peripheral node of the component of `seed` (the graph must be symmetric). Vertices
// whose entry in `excluded` is nonzero are treated as absent; the seed must not be excluded.
//  Peripheral (the paper, Sec. III-d): BFS from the seed; restart from the vertex of the last
//    level with the lowest valence, ties to the smallest vertex id; stop as soon as a BFS has
//    no more levels than the one before, and return the root of that last BFS. The choice
//    depends only on level sets, not on the BFS visiting order, so a parallel BFS (the device
//    version) finds the same node.
//  GeorgeLiu (SPARSPAK FNROOT): BFS from the seed; stop at once if it has 1 level or as many
//    levels as vertices; else restart from the first vertex, in BFS order, of minimum degree in
//    the last level (degree = neighbours not excluded, diagonal per count_diagonal); stop when
//    the number of levels does not grow and return the root of that last BFS.
//  Given: returns the seed.
// Each round strictly increases the number of levels, so both finders terminate; the worst
// case is (diameter) BFS passes, as in SPARSPAK.
Index find_start_node(const CsrView &g, Index seed, StartNode method, bool count_diagonal = true,
                      const std::vector<char> *excluded = nullptr);

// The roots in the order their components are ordered, with each component's vertex count.
struct ComponentPlan {
  std::vector<Index> roots;
  std::vector<Index> sizes;
};

// Component order (documented choice, as in SPARSPAK/PETSc genrcm): with StartNode::Given the
// component of opts.given_start comes first, rooted there. Then, repeatedly, the smallest vertex
// id not yet in a planned component seeds the next component, whose root is found with
// GeorgeLiu when opts.start is GeorgeLiu and with Peripheral otherwise.
// threads > 1 expands BFS levels of at least min_parallel_level vertices on that many threads
// (Peripheral and Given only): the same plan, faster on large graphs.
ComponentPlan plan_components(const CsrView &g, const Options &opts, int threads = 1, Index min_parallel_level = 4096);

} // namespace pgk::rcm

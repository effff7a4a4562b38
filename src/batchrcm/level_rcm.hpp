// Level-synchronous Reverse Cuthill-McKee on the host, on one thread or many, with the
// start-node search fused into the ordering. Same permutation as serial_rcm (the reference)
// for StartNode::Peripheral and StartNode::Given, in every run and for every thread count.
//
// Why it is exact. In the Cuthill-McKee order a vertex of level L+1 is the child of its
// neighbour in level L that comes first in the order, and the children of one parent follow
// by ascending valence, ties in the order of the parent's row. So a level is fixed once the
// level before it is: each vertex of the new level takes the smallest key (position of the
// parent, offset in the parent's row) offered to it (an atomic minimum), and the new level is
// sorted by (parent position, valence, offset), a total order. The threads share each level's
// parents, then its children; nothing depends on which thread claims first.
//
// Why the search is fused. The Peripheral rule (start_node.hpp) reads level sets only, and a
// Cuthill-McKee pass has the same level sets as a BFS from the same root. So every BFS of the
// search is a Cuthill-McKee pass, and the last one, from the root the search returns, is kept
// as that component's order: one traversal fewer than searching and then ordering (the
// serial reference makes 2 BFS passes and 1 ordering pass on a mesh; this makes 2 passes).
#pragma once

#include "src/batchrcm/rcm.hpp"
#include "src/common/csr.hpp"

#include <vector>

namespace pgk::rcm {

// True when level_rcm orders g with these options: start Peripheral or Given (GeorgeLiu reads
// the BFS visiting order, not level sets), fewer than 2^32 - 1 vertices and rows of fewer than
// 2^32 entries (a claim packs both in 64 bits). Reads the row pointer once.
bool level_rcm_supports(const CsrView &g, const Options &opts);

// serial_rcm(g, opts) on `threads` threads (0: usable_cores()): symmetry check or pattern(A + A^T)
// as in order_with_plan, then the fused search and ordering. Levels of fewer than
// min_parallel_level parents are expanded by the calling thread. Stats: start_node_seconds is
// the passes that were not kept, ordering_seconds the kept ones and the reversal (components of
// fewer than 1024 vertices are not timed apart and count as start-node time). Throws
// std::invalid_argument where serial_rcm would, and when !level_rcm_supports(g, opts).
std::vector<Index> level_rcm(const CsrView &g, const Options &opts = {}, int threads = 1, Stats *stats = nullptr,
                             Index min_parallel_level = 2048);

} // namespace pgk::rcm

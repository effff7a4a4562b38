// The serial reference of MatOrdering rabbitpp: Rabbit Order one vertex at a time (README.md
// section 2 with K = 1, every merge visible to the next vertex), the dendrogram's post-order
// numbering and the RABBIT++ regrouping. Ground truth for the tests; the multicore and GPU
// backends run the same rules in rounds of K vertices.
#pragma once

#include "src/rabbitpp/rabbitpp.hpp"

namespace pgk::rabbitpp {

// Community detection, K = 1: Dendrogram::round[v] == pos[v].
Dendrogram detect_communities_serial(const Graph &g);

// The whole ordering: graph, communities (serial), Rabbit numbering, regrouping when
// opt.regroup. opt.batch and opt.threads are ignored. perm[new] = old. info may be null.
// Throws like build_graph.
std::vector<Index> rabbitpp_serial(const CsrView &a, const Options &opt, Info *info = nullptr);

} // namespace pgk::rabbitpp

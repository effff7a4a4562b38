// From the dendrogram of community detection to the Rabbit numbering (README.md section 3).
#pragma once

#include "src/rabbitpp/rabbitpp.hpp"

namespace pgk::rabbitpp {

// perm[new] = old: communities (tops) in ascending merge key (round, pos), each numbered by a
// post-order DFS from its top that visits children in descending merge key (newest merge first),
// so the top gets its community's last number.
std::vector<Index> rabbit_permutation(const Dendrogram &d);

// com[v] = the top of v's community.
std::vector<Index> community_of(const Dendrogram &d);

} // namespace pgk::rabbitpp

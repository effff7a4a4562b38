// Serial Reverse Cuthill-McKee: the paper's Alg. 1 with the tie, valence, component and
// reversal rules of rcm.hpp. This is the reference every parallel backend must match
// exactly for the same roots.
#pragma once

#include "src/common/csr.hpp"
#include "src/batchrcm/rcm.hpp"

#include <vector>

namespace pgk::rcm {

// Core ordering from explicit component roots, taken in the given order: each root's
// component is ordered by Alg. 1 and reversed in place. Throws std::invalid_argument if a root
// is out of range or lies in a component already ordered, or if the roots leave a vertex
// unordered. Returns perm[new] = old. Reads opts.count_diagonal_in_valence only.
std::vector<Index> serial_rcm_from_roots(const CsrView &g, const std::vector<Index> &roots, const Options &opts = {});

// plan_components (roots per Options) followed by serial_rcm_from_roots.
std::vector<Index> serial_rcm(const CsrView &g, const Options &opts = {}, Stats *stats = nullptr);

} // namespace pgk::rcm

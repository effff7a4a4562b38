// Symbolic symmetric permutation B = P A P^T (perm[new] = old): B's pattern with sorted rows
// and, for every entry e of A, the position of that entry in B. Refilling B's values after A's
// change is then one scatter, B.values[dst[e]] = A.values[e], on the host or the device.
#pragma once

#include <vector>

#include "src/common/csr.hpp"

namespace pgk {

struct PermutedPattern {
  Csr pattern;            // rows sorted ascending, no values
  std::vector<Index> dst; // nnz(A) entries: where A's entry e lands in B
};

// Requires a square A and a permutation of its rows; throws std::invalid_argument otherwise.
PermutedPattern permute_pattern_symmetric(const CsrView &a, const std::vector<Index> &perm);

} // namespace pgk

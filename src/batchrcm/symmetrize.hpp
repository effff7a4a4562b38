// RCM is defined on an undirected graph. A nonsymmetric sparsity pattern is ordered on the
// pattern of A + A^T, which these helpers build or test for.
#pragma once

#include "src/common/csr.hpp"

namespace pgk::rcm {

// Pattern of A + A^T for a square A: rows sorted ascending, no duplicates, no values; a stored
// diagonal entry is kept (it matters to the valence when it is counted).
Csr symmetrize_pattern(const CsrView &a);

// True when the pattern of a (duplicates ignored) equals the pattern of its transpose.
bool is_structurally_symmetric(const CsrView &a);

} // namespace pgk::rcm

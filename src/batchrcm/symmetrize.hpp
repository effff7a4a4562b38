// RCM is defined on an undirected graph. A nonsymmetric sparsity pattern is ordered on the
// pattern of A + A^T, which these helpers build or test for.
#pragma once

#include "src/common/csr.hpp"

namespace pgk {
class ThreadPool;
}

namespace pgk::rcm {

// Pattern of A + A^T for a square A: rows sorted ascending, no duplicates, no values; a stored
// diagonal entry is kept (it matters to the valence when it is counted). Serial; the reference
// that symmetrize_pattern_parallel is tested against.
Csr symmetrize_pattern(const CsrView &a);

// symmetrize_pattern on the threads of `pool`, array for array the same result for any thread
// count: the transpose is counted and filled per row chunk (its rows then sorted), and each output
// row, the union of a row of A and a row of A^T, is counted in one pass and written in a second.
Csr symmetrize_pattern_parallel(const CsrView &a, ThreadPool &pool);

// True when every row of a is strictly increasing (sorted, no duplicates) and the pattern equals
// its transpose. Then symmetrize_pattern(a) is a itself, row pointer and column indices alike, so
// a can be ordered as is with the same permutation. Throws as validate_graph does; the check itself
// is common's sorted_pattern_is_symmetric (one prefetched binary search per entry above the
// diagonal, on the threads of `pool`, null: the calling thread).
bool is_sorted_symmetric_pattern(const CsrView &a, ThreadPool *pool = nullptr);

// True when the pattern of a (duplicates ignored) equals the pattern of its transpose.
bool is_structurally_symmetric(const CsrView &a);

} // namespace pgk::rcm

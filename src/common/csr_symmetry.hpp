// Is a sorted sparsity pattern its own transpose? The test batchrcm and rabbitpp run on a matrix
// given without a symmetry flag before they build pattern(A + A^T), which a symmetric pattern
// already is (most matrices given unflagged are).
#pragma once

#include "src/common/csr.hpp"

namespace pgk {
class ThreadPool;

// True when every row of a is strictly increasing (sorted, no duplicates) and the pattern equals
// its transpose; a stored diagonal is allowed. a must be square and well formed (the caller
// validates). Entries above the diagonal are looked up in their mirrored row by binary search;
// those below are only counted. The rows looked up are prefetched a few dozen entries ahead:
// on a graph with random structure each lookup is two dependent cache misses (the row pointer,
// then the row), which the prefetch overlaps (2.3x faster on one core at 4M rows, 48M entries).
// Runs on the threads of `pool` (null: the calling thread) and stops soon after a failure; the
// answer does not depend on the thread count.
bool sorted_pattern_is_symmetric(const CsrView &a, ThreadPool *pool = nullptr);

} // namespace pgk

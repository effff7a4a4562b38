// Is a sorted sparsity pattern its own transpose? The test batchrcm and rabbitpp run on a matrix
// given without a symmetry flag before they build pattern(A + A^T), which a symmetric pattern
// already is (most matrices given unflagged are).
#pragma once

#include "src/common/csr.hpp"

namespace pgk {
class ThreadPool;

// True when every row of a is strictly increasing (sorted, no duplicates) and the pattern equals
// its transpose; a stored diagonal is allowed. a must be square and well formed (the caller
// validates). Two checks give the same answer:
// - by blocks, for a matrix of 2^20 entries or more whose rows mostly look up rows far away: each
//   entry above the diagonal is filed (one pass, written in as many streams as there are blocks of
//   16384 rows) under the block of rows that must hold its mirror; then each block meets its
//   mirrors in step with its rows, no search. It needs 8 bytes (32-bit indices) per entry above
//   the diagonal, and falls back on the search where that memory is not there. On a random
//   community graph of 8M rows, 104M entries, 2 threads: 1.6 s -> 0.65-0.9 s; 3.4 s -> 0.95 s on one.
// - by search, otherwise (a mesh numbered by planes looks up rows in a few streams the hardware
//   prefetcher follows: 0.5 s against 1.4-2.6 s by blocks for lap3d27 at 8M rows): entries above
//   the diagonal are looked up in their mirrored row by binary search, prefetched a few dozen
//   entries ahead where a chunk's lookups look random (2.3x faster on one core at 4M rows).
// Runs on the threads of `pool` (null: the calling thread); the answer does not depend on the
// thread count.
bool sorted_pattern_is_symmetric(const CsrView &a, ThreadPool *pool = nullptr);

namespace detail {
// The two checks, whatever the matrix (tests; small blocks of 2^block_shift rows on small
// matrices; 0 <= block_shift <= 30).
bool sorted_pattern_is_symmetric_by_blocks(const CsrView &a, ThreadPool *pool, int block_shift);
bool sorted_pattern_is_symmetric_by_search(const CsrView &a, ThreadPool *pool);
} // namespace detail

} // namespace pgk

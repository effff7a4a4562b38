#include "src/common/csr_symmetry.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "src/common/prefault.hpp"
#include "src/common/thread_pool.hpp"

namespace pgk {
namespace {

// Rows per task: a few thousand amortize the handout; a hub row still leaves other chunks.
constexpr std::int64_t kRowChunk = 4096;
// Prefetch distances in entries: the row pointer of the entry kFar ahead, then the row itself
// kNear ahead (its pointer has arrived by then). Tens of entries keep ~16 misses in flight.
constexpr Index kFar = 32, kNear = 16;
// Rows sampled per chunk, and the distance beyond which a looked-up row is taken as not cached.
constexpr Index kSampleRows = 64, kLocalRows = 65536;
// log2 of the rows a block of the blocked check: the cursors of a block (64 KiB) and its rows stay
// in a core's caches while its mirrors stream past.
constexpr int kBlockShift = 14;
// Entries from which a matrix with random lookups takes the blocked check (below, both are quick).
constexpr std::int64_t kMinBlockedEntries = std::int64_t{1} << 20;

struct ChunkResult {
  bool ok = true;
  std::int64_t below_minus_above = 0;
};

// Whether rows [lo, hi) look up rows at random: over their first kSampleRows rows, at least half
// of the entries above the diagonal point more than kLocalRows rows ahead. A mesh numbered by
// planes looks up rows in a few increasing streams that the hardware prefetcher follows, and the
// software prefetch would only add work (lap3d7 at 8M rows: 0.081 -> 0.107 s on one core).
bool random_lookups(const CsrView &a, Index lo, Index hi) {
  std::int64_t upper = 0, far = 0;
  for (Index i = lo; i < std::min<Index>(hi, lo + kSampleRows); ++i)
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      upper += a.colidx[k] > i;
      far += a.colidx[k] > i + kLocalRows;
    }
  return 2 * far >= upper && far > 0;
}

// Rows [lo, hi): every row strictly increasing, every entry above the diagonal mirrored.
template <bool Prefetch> ChunkResult check_rows(const CsrView &a, Index lo, Index hi, const std::atomic<bool> &failed) {
  const Index *rowptr = a.rowptr, *col = a.colidx;
  const Index far_end = rowptr[hi] - kFar, near_end = rowptr[hi] - kNear;
  ChunkResult r;
  for (Index i = lo; i < hi; ++i) {
    const Index b = rowptr[i], e = rowptr[i + 1];
    for (Index k = b; k < e; ++k) {
      if (Prefetch && k < far_end) prefetch(rowptr + col[k + kFar]);
      if (Prefetch && k < near_end && col[k + kNear] > i) prefetch(col + rowptr[col[k + kNear]]);
      const Index j = col[k];
      // An unsorted row j fails its own check, so a wrong answer of this search only ever
      // turns an answer that is false anyway to false.
      if ((k != b && j <= col[k - 1]) || (j > i && !std::binary_search(col + rowptr[j], col + rowptr[j + 1], i))) {
        r.ok = false;
        return r;
      }
      r.below_minus_above += (j < i) - (j > i);
    }
    if ((i & 1023) == 0 && failed.load(std::memory_order_relaxed)) return r; // another chunk failed
  }
  return r;
}

// An entry (i, j) above the diagonal filed under the block of rows holding j: its mirror (j, i)
// must be in row j = the block's first row + row_in_block.
struct Mirror {
  std::uint32_t row_in_block;
  Index col;
};

// The rows of the slice [lo, hi) of the entries (for_slices over [0, nnz): parts of about equal
// entry counts, a hub row whole): the rows that begin in it, the empty rows at the end with the last.
std::pair<Index, Index> rows_of_entries(const CsrView &a, std::int64_t lo, std::int64_t hi) {
  const Index n = a.nrows;
  const auto first_row_from = [&](std::int64_t x) {
    return static_cast<Index>(std::lower_bound(a.rowptr, a.rowptr + n, static_cast<Index>(x)) - a.rowptr);
  };
  return {lo == 0 ? 0 : first_row_from(lo), hi == a.rowptr[n] ? n : first_row_from(hi)};
}

// Where the entries above row i's diagonal begin in its sorted row [b, e); below - above added to
// `balance`. One scan over the entries below (mispredicted once a row, where a test of each entry
// against the diagonal mispredicts on every other entry of a random row).
Index upper_begin(const Index *col, Index i, Index b, Index e, std::int64_t &balance) {
  Index k = b;
  while (k < e && col[k] < i) ++k;
  balance += k - b;
  k += (k < e && col[k] == i);
  balance -= e - k;
  return k;
}

// Rows [lo, hi): false unless strictly increasing; the entries above the diagonal counted per
// block of their column (count[block]); below - above added to `balance`.
bool count_rows(const CsrView &a, Index lo, Index hi, int block_shift, std::int64_t *count, std::int64_t &balance) {
  const Index *rowptr = a.rowptr, *col = a.colidx;
  for (Index i = lo; i < hi; ++i) {
    const Index b = rowptr[i], e = rowptr[i + 1];
    bool increasing = true;
    for (Index k = b + 1; k < e; ++k) increasing &= col[k - 1] < col[k];
    if (!increasing) return false;
    for (Index k = upper_begin(col, i, b, e, balance); k < e; ++k) ++count[col[k] >> block_shift];
  }
  return true;
}

// Rows [lo, hi): each entry above the diagonal filed as a Mirror at place[block of its column]++.
void file_rows(const CsrView &a, Index lo, Index hi, int block_shift, std::int64_t *place, Mirror *mirrors) {
  const Index *rowptr = a.rowptr, *col = a.colidx, in_block = (Index{1} << block_shift) - 1;
  std::int64_t unused = 0;
  for (Index i = lo; i < hi; ++i)
    for (Index k = upper_begin(col, i, rowptr[i], rowptr[i + 1], unused); k < rowptr[i + 1]; ++k)
      mirrors[place[col[k] >> block_shift]++] = {static_cast<std::uint32_t>(col[k] & in_block), i};
}

// Rows [r0, r1) against the mirrors filed under them. Row j's mirrors arrive in increasing column
// order (the parts are laid out in row order, each filed in row order), as do the entries below
// row j's diagonal: one cursor a row meets them in step, with no search. Every mirror met by its
// own entry below the diagonal, with as many entries below as above, is the symmetric pattern.
bool check_block(const CsrView &a, Index r0, Index r1, const Mirror *m, const Mirror *end, std::vector<Index> &cursor) {
  cursor.assign(a.rowptr + r0, a.rowptr + r1 + 1);
  for (; m != end; ++m) {
    Index &p = cursor[m->row_in_block];
    if (p == a.rowptr[r0 + m->row_in_block + 1] || a.colidx[p] != m->col) return false;
    ++p;
  }
  return true;
}

} // namespace

namespace detail {

bool sorted_pattern_is_symmetric_by_blocks(const CsrView &a, ThreadPool *pool, int block_shift) {
  const Index n = a.nrows;
  if (n == 0) return true;
  const Index block_rows = Index{1} << block_shift;
  const std::int64_t blocks = (n + block_rows - 1) / block_rows;
  const int parts = pool ? pool->threads() : 1;
  // [part][block]: the counts, then where the part's next mirror of that block goes.
  std::vector<std::int64_t> place(static_cast<std::size_t>(parts * blocks), 0), balance(parts, 0);
  std::vector<std::uint8_t> sorted(static_cast<std::size_t>(parts), 1);
  const std::int64_t nnz = a.rowptr[n];
  for_slices(pool, 0, nnz, kSliceGrain, [&](int t, std::int64_t first, std::int64_t last) {
    const auto [lo, hi] = rows_of_entries(a, first, last);
    sorted[t] = count_rows(a, lo, hi, block_shift, place.data() + t * blocks, balance[t]);
  });
  std::int64_t below_minus_above = 0;
  for (int t = 0; t < parts; ++t) {
    if (!sorted[t]) return false;
    below_minus_above += balance[t];
  }
  if (below_minus_above != 0) return false;
  std::vector<std::int64_t> block_begin(static_cast<std::size_t>(blocks) + 1, 0);
  for (std::int64_t b = 0, total = 0; b < blocks; ++b) { // block-major: block b holds part 0's, then part 1's, ...
    block_begin[b] = total;
    for (int t = 0; t < parts; ++t) total += std::exchange(place[t * blocks + b], total);
    block_begin[b + 1] = total;
  }
  const std::size_t total = static_cast<std::size_t>(block_begin[blocks]);
  std::unique_ptr<Mirror[]> mirrors(new (std::nothrow) Mirror[total]);
  if (!mirrors) return sorted_pattern_is_symmetric_by_search(a, pool); // needs no memory
  if (pool) prefault(mirrors.get(), total * sizeof(Mirror), *pool);
  for_slices(pool, 0, nnz, kSliceGrain, [&](int t, std::int64_t first, std::int64_t last) {
    const auto [lo, hi] = rows_of_entries(a, first, last);
    file_rows(a, lo, hi, block_shift, place.data() + t * blocks, mirrors.get());
  });
  std::atomic<bool> failed{false};
  std::vector<std::vector<Index>> cursor(static_cast<std::size_t>(parts));
  const auto check = [&](int t, std::int64_t b) {
    if (failed.load(std::memory_order_relaxed)) return;
    const Index r0 = static_cast<Index>(b * block_rows), r1 = std::min<Index>(n, r0 + block_rows);
    if (!check_block(a, r0, r1, mirrors.get() + block_begin[b], mirrors.get() + block_begin[b + 1], cursor[t]))
      failed.store(true, std::memory_order_relaxed);
  };
  if (pool) pool->parallel_dynamic(0, blocks, 1, check);
  else
    for (std::int64_t b = 0; b < blocks; ++b) check(0, b);
  return !failed.load();
}

bool sorted_pattern_is_symmetric_by_search(const CsrView &a, ThreadPool *pool) {
  const Index n = a.nrows;
  if (n == 0) return true;
  // With sorted duplicate-free rows, every upper entry found mirrored below and as many entries
  // below as above means the mirror map is a bijection: the pattern is symmetric.
  std::atomic<bool> failed{false};
  std::atomic<std::int64_t> below_minus_above{0};
  const auto chunk = [&](int, std::int64_t begin, std::int64_t end) {
    if (failed.load(std::memory_order_relaxed)) return;
    const Index lo = static_cast<Index>(begin), hi = static_cast<Index>(end);
    const ChunkResult r =
        random_lookups(a, lo, hi) ? check_rows<true>(a, lo, hi, failed) : check_rows<false>(a, lo, hi, failed);
    if (!r.ok) failed.store(true, std::memory_order_relaxed);
    below_minus_above.fetch_add(r.below_minus_above, std::memory_order_relaxed);
  };
  if (pool) pool->parallel_ranges(n, kRowChunk, chunk);
  else chunk(0, 0, n);
  return !failed.load() && below_minus_above.load() == 0;
}

} // namespace detail

namespace {

// Whether most of the search's lookups would be random: kSamples windows of rows spread over the
// matrix, each judged as a chunk of the search judges its own rows.
bool mostly_random(const CsrView &a) {
  constexpr int kSamples = 32;
  int random = 0;
  for (int s = 0; s < kSamples; ++s) {
    const Index lo = static_cast<Index>(static_cast<std::int64_t>(a.nrows) * s / kSamples);
    random += random_lookups(a, lo, a.nrows);
  }
  return 2 * random >= kSamples;
}

} // namespace

bool sorted_pattern_is_symmetric(const CsrView &a, ThreadPool *pool) {
  if (a.nrows > 0 && a.rowptr[a.nrows] >= kMinBlockedEntries && mostly_random(a))
    return detail::sorted_pattern_is_symmetric_by_blocks(a, pool, kBlockShift);
  return detail::sorted_pattern_is_symmetric_by_search(a, pool);
}

} // namespace pgk

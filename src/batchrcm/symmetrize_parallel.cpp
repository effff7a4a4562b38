// The host path's symmetric-pattern handling on the thread pool (symmetrize.hpp): the symmetry
// check that lets a symmetric pattern be ordered as is, and pattern(A + A^T) when it is not.
// Both give the same answer for any thread count: the check is an AND and a sum over rows, and
// every array written here is either counted first (sizes independent of the schedule) or sorted
// per row after an unordered fill.
#include "src/batchrcm/symmetrize.hpp"

#include "src/batchrcm/rcm.hpp"
#include "src/common/csr_symmetry.hpp"
#include "src/common/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

namespace pgk::rcm {
namespace {

// Rows per task: rows are short (tens of entries), so a few thousand amortize the handout, and
// a hub row still leaves other chunks to the other threads.
constexpr std::int64_t kRowChunk = 4096;

// f(thread, lo, hi) for consecutive row ranges [lo, hi) covering [0, n), on the pool's threads.
template <class F> void for_row_chunks(ThreadPool &pool, Index n, F &&f) {
  pool.parallel_ranges(n, kRowChunk, [&](int t, std::int64_t lo, std::int64_t hi) {
    f(t, static_cast<Index>(lo), static_cast<Index>(hi));
  });
}

struct Pattern {
  std::vector<Index> ptr;
  std::vector<Index> col;
};

// Pattern of A^T with sorted rows (duplicates of A stay duplicates). The counts are atomic
// increments, whose sum does not depend on the order; the fill goes through atomic cursors, whose
// order does, so each row is sorted afterwards, which makes the result the serial one.
Pattern transpose_parallel(const CsrView &a, ThreadPool &pool) {
  const Index n = a.nrows;
  std::unique_ptr<std::atomic<Index>[]> cursor(new std::atomic<Index>[static_cast<std::size_t>(n) + 1]);
  for_row_chunks(pool, n, [&](int, Index lo, Index hi) {
    for (Index i = lo; i < hi; ++i) cursor[i].store(0, std::memory_order_relaxed);
  });
  for_row_chunks(pool, n, [&](int, Index lo, Index hi) {
    for (Index e = a.rowptr[lo]; e < a.rowptr[hi]; ++e) cursor[a.colidx[e]].fetch_add(1, std::memory_order_relaxed);
  });
  Pattern t;
  t.ptr.resize(static_cast<std::size_t>(n) + 1);
  t.ptr[0] = 0;
  for (Index i = 0; i < n; ++i) {
    t.ptr[i + 1] = t.ptr[i] + cursor[i].load(std::memory_order_relaxed);
    cursor[i].store(t.ptr[i], std::memory_order_relaxed);
  }
  t.col.resize(static_cast<std::size_t>(t.ptr[n]));
  for_row_chunks(pool, n, [&](int, Index lo, Index hi) {
    for (Index i = lo; i < hi; ++i)
      for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
        t.col[cursor[a.colidx[e]].fetch_add(1, std::memory_order_relaxed)] = i;
  });
  for_row_chunks(pool, n, [&](int, Index lo, Index hi) {
    for (Index i = lo; i < hi; ++i) // one thread fills in row order: the rows are sorted already
      if (!std::is_sorted(t.col.begin() + t.ptr[i], t.col.begin() + t.ptr[i + 1]))
        std::sort(t.col.begin() + t.ptr[i], t.col.begin() + t.ptr[i + 1]);
  });
  return t;
}

// Row i of a as a sorted range: the stored row when it is sorted already (PETSc's are), else a
// sorted copy in buf. Duplicates may remain; merge_union skips them.
std::pair<const Index *, const Index *> sorted_row(const CsrView &a, Index i, std::vector<Index> &buf) {
  const Index *b = a.colidx + a.rowptr[i], *e = a.colidx + a.rowptr[i + 1];
  if (std::is_sorted(b, e)) return {b, e};
  buf.assign(b, e);
  std::sort(buf.begin(), buf.end());
  return {buf.data(), buf.data() + buf.size()};
}

// Each value of the union of two sorted ranges (either may hold duplicates) once, ascending, to
// out; returns how many.
template <class Out> Index merge_union(const Index *a, const Index *ae, const Index *b, const Index *be, Out &&out) {
  Index count = 0, last = 0;
  const auto emit = [&](Index x) {
    if (count > 0 && x == last) return;
    out(x);
    last = x;
    ++count;
  };
  while (a != ae && b != be) emit(*b < *a ? *b++ : *a++);
  while (a != ae) emit(*a++);
  while (b != be) emit(*b++);
  return count;
}

} // namespace

Csr symmetrize_pattern_parallel(const CsrView &a, ThreadPool &pool) {
  validate_graph(a);
  const Index n = a.nrows;
  if (a.nnz_host() > std::numeric_limits<Index>::max() / 2)
    throw std::length_error("symmetrize_pattern: 2 * nnz exceeds the Index range");
  const Pattern t = transpose_parallel(a, pool);
  std::vector<std::vector<Index>> buf(static_cast<std::size_t>(pool.threads()));
  Csr s;
  s.nrows = s.ncols = n;
  s.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  // Pass 1: the size of every output row; pass 2 writes each row at its offset.
  for_row_chunks(pool, n, [&](int th, Index lo, Index hi) {
    for (Index i = lo; i < hi; ++i) {
      const auto [b, e] = sorted_row(a, i, buf[th]);
      s.rowptr[i + 1] = merge_union(b, e, t.col.data() + t.ptr[i], t.col.data() + t.ptr[i + 1], [](Index) {});
    }
  });
  for (Index i = 0; i < n; ++i) s.rowptr[i + 1] += s.rowptr[i];
  s.colidx.resize(static_cast<std::size_t>(s.rowptr[n]));
  for_row_chunks(pool, n, [&](int th, Index lo, Index hi) {
    for (Index i = lo; i < hi; ++i) {
      const auto [b, e] = sorted_row(a, i, buf[th]);
      Index *dst = s.colidx.data() + s.rowptr[i];
      merge_union(b, e, t.col.data() + t.ptr[i], t.col.data() + t.ptr[i + 1], [&](Index x) { *dst++ = x; });
    }
  });
  return s;
}

bool is_sorted_symmetric_pattern(const CsrView &a, ThreadPool *pool) {
  validate_graph(a);
  return sorted_pattern_is_symmetric(a, pool);
}

} // namespace pgk::rcm

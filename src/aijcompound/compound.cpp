// Compound CSR construction, validation, structure detection and expansion.
#include "src/aijcompound/compound.hpp"

#include "src/common/prefault.hpp"
#include "src/common/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <stdexcept>
#include <string>

namespace pgk::aijcompound {

const char *kind_name(EntryKind kind) {
  switch (kind) {
  case EntryKind::block: return "block";
  case EntryKind::complex: return "complex";
  case EntryKind::quaternion: return "quaternion";
  }
  return "?";
}

void check_kind(EntryKind kind, int bs) {
  const bool ok = kind == EntryKind::block        ? bs >= 2 && bs <= kMaxBs
                  : kind == EntryKind::complex    ? bs == 2
                  : kind == EntryKind::quaternion ? bs == 4
                                                  : false;
  if (!ok)
    throw std::invalid_argument(std::string("aijcompound: entry kind ") + kind_name(kind) +
                                " does not support block size " + std::to_string(bs));
}

namespace {

// Columns of block row i in range and strictly ascending.
bool block_row_ok(const CompoundCsr &a, Index i) {
  for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
    const Index c = a.colidx[e];
    if (c < 0 || c >= a.nbcols || (e > a.rowptr[i] && c <= a.colidx[e - 1])) return false;
  }
  return true;
}

bool rows_ok(const CompoundCsr &a, int threads) {
  std::atomic<bool> ok{true};
  ThreadPool pool(threads);
  pool.parallel_for(0, a.nbrows, 4096, [&](std::int64_t i) {
    if (!block_row_ok(a, static_cast<Index>(i))) ok.store(false, std::memory_order_relaxed);
  });
  return ok.load();
}

} // namespace

void validate(const CompoundCsr &a, int threads) {
  check_kind(a.kind, a.bs);
  auto fail = [](const std::string &what) { throw std::invalid_argument("aijcompound: " + what); };
  if (a.nbrows < 0 || a.nbcols < 0) fail("negative size");
  if (a.rowptr.size() != static_cast<std::size_t>(a.nbrows) + 1 || a.rowptr[0] != 0) fail("bad row pointer");
  for (Index i = 0; i < a.nbrows; ++i)
    if (a.rowptr[i + 1] < a.rowptr[i]) fail("row pointer decreases at block row " + std::to_string(i));
  if (a.colidx.size() != static_cast<std::size_t>(a.nnzb())) fail("colidx size differs from rowptr[nbrows]");
  if (a.values.size() != static_cast<std::size_t>(a.nnzb()) * static_cast<std::size_t>(a.esize()))
    fail("values size differs from nnzb * entry size");
  if (threads > 1 && a.nnzb() >= (Index(1) << 16) && rows_ok(a, threads)) return;
  for (Index i = 0; i < a.nbrows; ++i)
    if (!block_row_ok(a, i))
      fail("block row " + std::to_string(i) + ": columns out of range or not strictly ascending");
}

namespace {

// Below this many scalars a conversion runs on the calling thread: starting workers costs more.
constexpr Index kParallelMinNnz = Index(1) << 16;

int threads_for(Index work, int threads) { return work < kParallelMinNnz ? 1 : std::max(threads, 1); }

// Whether the columns of scalar row r are in range and strictly ascending.
bool row_ok(const CsrView &a, Index r) {
  for (Index p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
    const Index c = a.colidx[p];
    if (c < 0 || c >= a.ncols || (p > a.rowptr[r] && c <= a.colidx[p - 1])) return false;
  }
  return true;
}

// The block columns of block row bi, ascending and unique, handed to emit(): a merge of its bs
// scalar rows, whose block columns never decrease, so no sort and no per-column marker array
// (one division per block: the smallest scalar column left gives the next block).
template <class Emit> void merge_block_row(const CsrView &a, int bs, Index bi, Emit &&emit) {
  Index pos[kMaxBs], end[kMaxBs];
  for (int i = 0; i < bs; ++i) pos[i] = a.rowptr[bi * bs + i], end[i] = a.rowptr[bi * bs + i + 1];
  for (;;) {
    Index next = -1;
    for (int i = 0; i < bs; ++i)
      if (pos[i] < end[i] && (next < 0 || a.colidx[pos[i]] < next)) next = a.colidx[pos[i]];
    if (next < 0) return;
    const Index b = next / bs, stop = (b + 1) * bs;
    emit(b);
    for (int i = 0; i < bs; ++i)
      while (pos[i] < end[i] && a.colidx[pos[i]] < stop) ++pos[i];
  }
}

// Block row bi's block columns (at out.colidx[out.rowptr[bi]..]) and its scalars into the dense
// column-major blocks (zeroed by the caller): each row walks the row's blocks with one cursor.
void fill_block_row(const CsrView &a, int bs, Index bi, CompoundCsr &out) {
  const std::size_t bb = static_cast<std::size_t>(bs) * bs;
  Index *cols = out.colidx.data();
  Index k = out.rowptr[bi];
  merge_block_row(a, bs, bi, [&](Index b) { cols[k++] = b; });
  for (int i = 0; i < bs; ++i) {
    const Index r = bi * bs + i;
    Index e = out.rowptr[bi];
    for (Index p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
      const Index c = a.colidx[p];
      while ((cols[e] + 1) * bs <= c) ++e;
      out.values[static_cast<std::size_t>(e) * bb + static_cast<std::size_t>(c - cols[e] * bs) * bs + i] = a.values[p];
    }
  }
}

// The bs-blocking of a scalar CSR as a block-kind CompoundCsr (dense column-major blocks, missing
// scalars 0). Returns false, leaving out unspecified, when a row's columns are unsorted or out of
// range, values are missing, or the sizes are not multiples of bs: detect_* answer "no" then, and
// from_scalar throws. Two passes over block rows, split among `threads` (counts, then columns and
// values); every block row is written by one thread, so the result does not depend on `threads`.
bool block_pattern(const CsrView &a, int bs, CompoundCsr &out, int threads) {
  if (a.nrows < 0 || a.ncols < 0 || a.nrows % bs != 0 || a.ncols % bs != 0) return false;
  if (a.nrows > 0 && (!a.rowptr || (a.rowptr[a.nrows] > 0 && !a.values))) return false; // no values: only if no entries
  out.kind = EntryKind::block;
  out.bs = bs;
  out.nbrows = a.nrows / bs;
  out.nbcols = a.ncols / bs;
  out.rowptr.assign(static_cast<std::size_t>(out.nbrows) + 1, 0);
  ThreadPool pool(threads_for(a.nrows > 0 ? a.rowptr[a.nrows] : 0, threads));
  std::atomic<bool> ok{true};
  pool.parallel_for(0, out.nbrows, 1024, [&](std::int64_t bi) {
    for (Index r = bi * bs; r < (bi + 1) * bs; ++r)
      if (!row_ok(a, r)) ok.store(false, std::memory_order_relaxed);
    Index n = 0;
    merge_block_row(a, bs, static_cast<Index>(bi), [&n](Index) { ++n; });
    out.rowptr[bi + 1] = n;
  });
  if (!ok.load()) return false;
  for (Index bi = 0; bi < out.nbrows; ++bi) out.rowptr[bi + 1] += out.rowptr[bi];
  const std::size_t nvalues = static_cast<std::size_t>(out.nnzb()) * bs * bs;
  out.colidx.resize(static_cast<std::size_t>(out.nnzb()));
  out.values.clear();
  out.values.reserve(nvalues);
  prefault(out.values.data(), nvalues * sizeof(double), pool); // the serial zero fill below then faults nothing
  out.values.assign(nvalues, 0.0);
  pool.parallel_for(0, out.nbrows, 1024, [&](std::int64_t bi) { fill_block_row(a, bs, static_cast<Index>(bi), out); });
  return true;
}

// The complex/quaternion entry of a dense column-major block: its first column, if the whole
// block has the kind's form exactly; false otherwise.
bool entry_of_block(EntryKind kind, int bs, const double *dense, double *entry) {
  for (int c = 0; c < entry_size(kind, bs); ++c) entry[c] = dense[c];
  for (int j = 0; j < bs; ++j)
    for (int i = 0; i < bs; ++i)
      if (!(expanded(kind, bs, entry, 1, i, j) == dense[j * bs + i])) return false;
  return true;
}

// Converts a block-kind blocking to `kind` in place; false when a block lacks the form.
bool to_kind(CompoundCsr &c, EntryKind kind, int threads) {
  if (kind == EntryKind::block) return true;
  const int es = entry_size(kind, c.bs);
  const std::size_t bb = static_cast<std::size_t>(c.bs) * c.bs;
  std::vector<double> vals(static_cast<std::size_t>(c.nnzb()) * es);
  std::atomic<bool> ok{true};
  ThreadPool pool(threads_for(c.nnzb() * c.bs, threads));
  pool.parallel_for(0, c.nnzb(), 4096, [&](std::int64_t e) {
    if (!entry_of_block(kind, c.bs, c.values.data() + e * bb, vals.data() + e * es))
      ok.store(false, std::memory_order_relaxed);
  });
  if (!ok.load()) return false;
  c.values.swap(vals);
  c.kind = kind;
  return true;
}

bool detect(const CsrView &a, EntryKind kind, int bs, int threads) {
  CompoundCsr c;
  return block_pattern(a, bs, c, threads) && to_kind(c, kind, threads);
}

} // namespace

CompoundCsr from_scalar(const CsrView &a, EntryKind kind, int bs, int threads) {
  check_kind(kind, bs);
  CompoundCsr c;
  if (!block_pattern(a, bs, c, threads))
    throw std::invalid_argument("aijcompound: the scalar CSR is not a valid matrix with sizes that are multiples of " +
                                std::to_string(bs) + " (sorted columns, values present)");
  if (!to_kind(c, kind, threads))
    throw std::invalid_argument(std::string("aijcompound: a block does not have the ") + kind_name(kind) + " form");
  return c;
}

bool has_form(const CompoundCsr &c, EntryKind kind, int threads) {
  if (c.kind != EntryKind::block) throw std::invalid_argument("aijcompound: has_form needs block entries");
  check_kind(kind, c.bs);
  if (kind == EntryKind::block) return true;
  const std::size_t bb = static_cast<std::size_t>(c.bs) * c.bs;
  std::atomic<bool> ok{true};
  ThreadPool pool(threads_for(c.nnzb() * c.bs, threads));
  pool.parallel_for(0, c.nnzb(), 4096, [&](std::int64_t e) {
    double entry[4];
    if (!entry_of_block(kind, c.bs, c.values.data() + e * bb, entry)) ok.store(false, std::memory_order_relaxed);
  });
  return ok.load();
}

bool convert_kind(CompoundCsr &c, EntryKind kind, int threads) {
  if (c.kind != EntryKind::block) throw std::invalid_argument("aijcompound: convert_kind needs block entries");
  check_kind(kind, c.bs);
  return to_kind(c, kind, threads);
}

bool detect_complex(const CsrView &a, int threads) { return detect(a, EntryKind::complex, 2, threads); }
bool detect_quaternion(const CsrView &a, int threads) { return detect(a, EntryKind::quaternion, 4, threads); }

std::int64_t expanded_nnz(const CompoundCsr &c) { return static_cast<std::int64_t>(c.nnzb()) * c.bs * c.bs; }

// Block row bi's scalar rows start at bs^2 rowptr[bi] (every stored block gives bs scalars to each
// of its bs rows), so each block row is written without reading another's output.
void expand_into(const CompoundCsr &c, Index *rowptr, Index *colidx, double *values, int threads) {
  validate(c, threads);
  if (expanded_nnz(c) > std::numeric_limits<Index>::max())
    throw std::invalid_argument("aijcompound: the expansion has " + std::to_string(expanded_nnz(c)) +
                                " scalars, more than this build's index type holds (64-bit indices needed)");
  const int bs = c.bs;
  rowptr[0] = 0;
  ThreadPool pool(threads_for(expanded_nnz(c), threads));
  pool.parallel_for(0, c.nbrows, 1024, [&](std::int64_t b) {
    const Index bi = static_cast<Index>(b), first = c.rowptr[bi], len = c.rowptr[bi + 1] - first;
    for (int i = 0; i < bs; ++i) {
      Index p = first * bs * bs + i * len * bs;
      for (Index e = first; e < first + len; ++e)
        for (int j = 0; j < bs; ++j, ++p) {
          colidx[p] = c.colidx[e] * bs + j;
          values[p] = expanded(c.kind, bs, c.entry(e), 1, i, j);
        }
      rowptr[bi * bs + i + 1] = p;
    }
  });
}

Csr expand(const CompoundCsr &c) {
  Csr s;
  s.nrows = c.nbrows * c.bs;
  s.ncols = c.nbcols * c.bs;
  s.rowptr.resize(static_cast<std::size_t>(s.nrows) + 1);
  if (expanded_nnz(c) <= std::numeric_limits<Index>::max()) s.colidx.resize(static_cast<std::size_t>(expanded_nnz(c)));
  s.values.resize(s.colidx.size());
  expand_into(c, s.rowptr.data(), s.colidx.data(), s.values.data());
  return s;
}

} // namespace pgk::aijcompound

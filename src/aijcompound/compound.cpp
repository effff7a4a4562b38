// Compound CSR construction, validation, structure detection and expansion.
#include "src/aijcompound/compound.hpp"

#include <algorithm>
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
  const bool ok = kind == EntryKind::block        ? bs >= 2 && bs <= 8
                  : kind == EntryKind::complex    ? bs == 2
                  : kind == EntryKind::quaternion ? bs == 4
                                                  : false;
  if (!ok)
    throw std::invalid_argument(std::string("aijcompound: entry kind ") + kind_name(kind) +
                                " does not support block size " + std::to_string(bs));
}

void validate(const CompoundCsr &a) {
  check_kind(a.kind, a.bs);
  auto fail = [](const std::string &what) { throw std::invalid_argument("aijcompound: " + what); };
  if (a.nbrows < 0 || a.nbcols < 0) fail("negative size");
  if (a.rowptr.size() != static_cast<std::size_t>(a.nbrows) + 1 || a.rowptr[0] != 0) fail("bad row pointer");
  for (Index i = 0; i < a.nbrows; ++i)
    if (a.rowptr[i + 1] < a.rowptr[i]) fail("row pointer decreases at block row " + std::to_string(i));
  if (a.colidx.size() != static_cast<std::size_t>(a.nnzb())) fail("colidx size differs from rowptr[nbrows]");
  if (a.values.size() != static_cast<std::size_t>(a.nnzb()) * static_cast<std::size_t>(a.esize()))
    fail("values size differs from nnzb * entry size");
  for (Index i = 0; i < a.nbrows; ++i)
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      const Index c = a.colidx[e];
      if (c < 0 || c >= a.nbcols || (e > a.rowptr[i] && c <= a.colidx[e - 1]))
        fail("block row " + std::to_string(i) + ": columns out of range or not strictly ascending");
    }
}

namespace {

// The bs-blocking of a scalar CSR as a block-kind CompoundCsr (dense column-major blocks, missing
// scalars 0). Returns false, leaving out unspecified, when a row's columns are unsorted or out of
// range, values are missing, or the sizes are not multiples of bs: detect_* answer "no" then, and
// from_scalar throws.
bool block_pattern(const CsrView &a, int bs, CompoundCsr &out) {
  if (a.nrows < 0 || a.ncols < 0 || a.nrows % bs != 0 || a.ncols % bs != 0) return false;
  if (a.nrows > 0 && (!a.rowptr || (a.rowptr[a.nrows] > 0 && !a.values))) return false; // no values: only if no entries
  out.kind = EntryKind::block;
  out.bs = bs;
  out.nbrows = a.nrows / bs;
  out.nbcols = a.ncols / bs;
  out.rowptr.assign(1, 0);
  out.colidx.clear();
  out.values.clear();
  std::vector<Index> mark(static_cast<std::size_t>(out.nbcols), -1), slot(static_cast<std::size_t>(out.nbcols));
  const std::size_t bb = static_cast<std::size_t>(bs) * bs;
  for (Index bi = 0; bi < out.nbrows; ++bi) {
    const std::size_t first = out.colidx.size();
    for (Index r = bi * bs; r < (bi + 1) * bs; ++r)
      for (Index p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
        const Index c = a.colidx[p];
        if (c < 0 || c >= a.ncols || (p > a.rowptr[r] && c <= a.colidx[p - 1])) return false;
        if (mark[c / bs] != bi) mark[c / bs] = bi, out.colidx.push_back(c / bs);
      }
    std::sort(out.colidx.begin() + static_cast<std::ptrdiff_t>(first), out.colidx.end());
    for (std::size_t e = first; e < out.colidx.size(); ++e) slot[out.colidx[e]] = static_cast<Index>(e);
    out.values.resize(out.colidx.size() * bb, 0.0);
    for (Index r = bi * bs; r < (bi + 1) * bs; ++r)
      for (Index p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
        const Index c = a.colidx[p];
        out.values[slot[c / bs] * bb + (c % bs) * bs + (r - bi * bs)] = a.values[p];
      }
    out.rowptr.push_back(static_cast<Index>(out.colidx.size()));
  }
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
bool to_kind(CompoundCsr &c, EntryKind kind) {
  if (kind == EntryKind::block) return true;
  const int es = entry_size(kind, c.bs);
  const std::size_t bb = static_cast<std::size_t>(c.bs) * c.bs;
  std::vector<double> vals(static_cast<std::size_t>(c.nnzb()) * es);
  for (Index e = 0; e < c.nnzb(); ++e)
    if (!entry_of_block(kind, c.bs, c.values.data() + e * bb, vals.data() + e * es)) return false;
  c.values.swap(vals);
  c.kind = kind;
  return true;
}

bool detect(const CsrView &a, EntryKind kind, int bs) {
  CompoundCsr c;
  return block_pattern(a, bs, c) && to_kind(c, kind);
}

} // namespace

CompoundCsr from_scalar(const CsrView &a, EntryKind kind, int bs) {
  check_kind(kind, bs);
  CompoundCsr c;
  if (!block_pattern(a, bs, c))
    throw std::invalid_argument("aijcompound: the scalar CSR is not a valid matrix with sizes that are multiples of " +
                                std::to_string(bs) + " (sorted columns, values present)");
  if (!to_kind(c, kind))
    throw std::invalid_argument(std::string("aijcompound: a block does not have the ") + kind_name(kind) + " form");
  return c;
}

bool detect_complex(const CsrView &a) { return detect(a, EntryKind::complex, 2); }
bool detect_quaternion(const CsrView &a) { return detect(a, EntryKind::quaternion, 4); }

Csr expand(const CompoundCsr &c) {
  validate(c);
  Csr s;
  s.nrows = c.nbrows * c.bs;
  s.ncols = c.nbcols * c.bs;
  s.rowptr.reserve(static_cast<std::size_t>(s.nrows) + 1);
  s.colidx.reserve(static_cast<std::size_t>(c.nnzb()) * c.bs * c.bs);
  s.values.reserve(s.colidx.capacity());
  for (Index bi = 0; bi < c.nbrows; ++bi)
    for (int i = 0; i < c.bs; ++i) {
      for (Index e = c.rowptr[bi]; e < c.rowptr[bi + 1]; ++e)
        for (int j = 0; j < c.bs; ++j) {
          s.colidx.push_back(c.colidx[e] * c.bs + j);
          s.values.push_back(expanded(c.kind, c.bs, c.entry(e), 1, i, j));
        }
      s.rowptr.push_back(static_cast<Index>(s.colidx.size()));
    }
  return s;
}

} // namespace pgk::aijcompound

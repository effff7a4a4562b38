// The compound CSR of Mat aijcompound (issue 10): block rows, sorted unique block column indices
// and, per stored block, one compound entry (src/aijcompound/entry.hpp) stored contiguously.
// Built from and expanded back to the scalar CSR of src/common/csr.hpp; the serial reference
// every device layout is tested against. Vectors use PETSc's interlaced layout: block row I owns
// scalars I*bs .. I*bs+bs-1.
#pragma once

#include "src/aijcompound/entry.hpp"
#include "src/common/csr.hpp"

#include <vector>

namespace pgk::aijcompound {

struct CompoundCsr {
  EntryKind kind = EntryKind::block;
  int bs = 2;       // edge of the real block an entry stands for (k, 2 or 4)
  Index nbrows = 0; // block rows: the scalar matrix has nbrows * bs rows
  Index nbcols = 0;
  std::vector<Index> rowptr{0}; // nbrows + 1
  std::vector<Index> colidx;    // block columns, ascending and unique within a row
  std::vector<double> values;   // nnzb() * esize(), entry e at values[e * esize()]

  int esize() const { return entry_size(kind, bs); }
  Index nnzb() const { return rowptr.empty() ? 0 : rowptr.back(); }
  const double *entry(Index e) const { return values.data() + e * esize(); }
  double *entry(Index e) { return values.data() + e * esize(); }
};

// Throws std::invalid_argument when the arrays are inconsistent (sizes, row pointer, column range
// or order, kind/bs). Every function taking a CompoundCsr from outside calls it. `threads` > 1
// checks the rows on that many threads first (the message is the serial one: the first bad row).
void validate(const CompoundCsr &a, int threads = 1);

// The compound CSR of a scalar CSR (sorted columns) with block size bs. A block is stored when any
// of its scalars is stored; scalars not stored count as 0. For complex and quaternion the entry is
// read from the block's first column (a, b) or (w, x, y, z); the block must have that exact form
// (detect_*), else std::invalid_argument. nrows and ncols must be multiples of bs.
// `threads` (the host passes over the rows; large matrices only) never changes the result.
CompoundCsr from_scalar(const CsrView &a, EntryKind kind, int bs, int threads = 1);

// A block-kind c (from_scalar with EntryKind::block) converted in place to `kind` when every
// stored block has its exact form (as detect_*); false, c unchanged, when one does not. Lets a
// caller block a matrix once and then choose the kind (MatConvert's -mat_aijcompound_entry auto).
bool convert_kind(CompoundCsr &c, EntryKind kind, int threads = 1);
// Whether every stored block of a block-kind c has the exact form of `kind` (convert_kind's test,
// without converting: for callers that must agree with other ranks first).
bool has_form(const CompoundCsr &c, EntryKind kind, int threads = 1);

// Whether every block of the bs-2 (bs-4) blocking of a has the complex (quaternion) form exactly
// (== on doubles, so 0 and -0 match and a NaN never does). False, not an error, when the sizes
// are not multiples of 2 (4) or a row's columns are unsorted.
bool detect_complex(const CsrView &a, int threads = 1);
bool detect_quaternion(const CsrView &a, int threads = 1);

// The scalar CSR of the expanded matrix: every stored block becomes bs x bs stored scalars
// (explicit zeros kept), so from_scalar(expand(c)) == c, and expand(from_scalar(a)) == a when
// every block of a is complete.
Csr expand(const CompoundCsr &c);
// The same into caller-owned arrays of nbrows*bs + 1, expanded_nnz(c) and expanded_nnz(c)
// entries (a PETSc matrix built on them without a copy); block rows split over `threads`, each
// scalar written once from its own position, so the arrays are the same for any thread count.
// expanded_nnz may exceed what Index holds (32-bit indices): expand_into and expand then throw
// std::invalid_argument.
std::int64_t expanded_nnz(const CompoundCsr &c);
void expand_into(const CompoundCsr &c, Index *rowptr, Index *colidx, double *values, int threads = 1);

} // namespace pgk::aijcompound

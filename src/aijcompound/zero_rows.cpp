// Reference of MatZeroRows / MatZeroRowsColumns on the compound CSR.
#include "src/aijcompound/zero_rows.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace pgk::aijcompound {

namespace {

// Position of block column bi in block row bi, or -1.
Index diagonal_entry(const CompoundCsr &a, Index bi) {
  const auto first = a.colidx.begin() + a.rowptr[bi], last = a.colidx.begin() + a.rowptr[bi + 1];
  const auto it = std::lower_bound(first, last, bi);
  return it != last && *it == bi ? static_cast<Index>(it - a.colidx.begin()) : -1;
}

} // namespace

namespace {

// Bit i of the mask of block row bi: scalar row bi*bs + i is among the rows (bs <= kMaxBs = 8 bits).
std::vector<unsigned> row_masks(Index nbrows, int bs, const Index *rows, Index n) {
  std::vector<unsigned> mask(static_cast<std::size_t>(nbrows), 0u);
  for (Index k = 0; k < n; ++k) {
    if (rows[k] < 0 || rows[k] >= nbrows * bs)
      throw std::invalid_argument("aijcompound: zero_rows: row " + std::to_string(rows[k]) + " is out of range [0, " +
                                  std::to_string(nbrows * bs) + ")");
    mask[rows[k] / bs] |= 1u << (rows[k] % bs);
  }
  return mask;
}

} // namespace

bool covers_whole_block_rows(int bs, const Index *rows, Index n) {
  std::vector<Index> r(rows, rows + n);
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  for (std::size_t k = 0; k < r.size();) { // each touched block row must appear bs times
    const Index bi = r[k] / bs;
    std::size_t end = k;
    while (end < r.size() && r[end] / bs == bi) ++end;
    if (end - k != static_cast<std::size_t>(bs)) return false;
    k = end;
  }
  return true;
}

void zero_rows(CompoundCsr &a, const Index *rows, Index n, double diag) {
  validate(a);
  const std::vector<unsigned> mask = row_masks(a.nbrows, a.bs, rows, n);
  const unsigned full = (1u << a.bs) - 1u;
  for (Index bi = 0; bi < a.nbrows; ++bi) { // every check before the first change
    if (!mask[bi]) continue;
    if (a.kind != EntryKind::block && mask[bi] != full)
      throw std::invalid_argument("aijcompound: zero_rows: the rows cover part of block row " + std::to_string(bi) +
                                  ", where a " + kind_name(a.kind) +
                                  " entry cannot keep its form (convert to real blocks first)");
    if (diag != 0.0 && (bi >= a.nbcols || diagonal_entry(a, bi) < 0))
      throw std::invalid_argument("aijcompound: zero_rows: block row " + std::to_string(bi) +
                                  " has no diagonal block stored, so its rows cannot take a nonzero diagonal");
  }
  for (Index bi = 0; bi < a.nbrows; ++bi) {
    if (!mask[bi]) continue;
    const Index d = bi < a.nbcols ? diagonal_entry(a, bi) : -1;
    for (Index e = a.rowptr[bi]; e < a.rowptr[bi + 1]; ++e) {
      double *v = a.entry(e);
      if (a.kind != EntryKind::block) { // whole block row: the entry becomes 0, or diag (its real part)
        std::fill(v, v + a.esize(), 0.0);
        if (e == d) v[0] = diag;
        continue;
      }
      for (int i = 0; i < a.bs; ++i) {
        if (!(mask[bi] >> i & 1u)) continue;
        for (int j = 0; j < a.bs; ++j) v[j * a.bs + i] = 0.0; // row i of the column-major block
        if (e == d) v[i * a.bs + i] = diag;
      }
    }
  }
}

void eliminate_columns(CompoundCsr &a, const unsigned char *mask, const double *x, double *b) {
  validate(a);
  const int bs = a.bs;
  if (a.kind != EntryKind::block)
    for (Index bj = 0; bj < a.nbcols; ++bj)
      for (int c = 1; c < bs; ++c)
        if (!mask[bj * bs + c] != !mask[bj * bs])
          throw std::invalid_argument("aijcompound: eliminate_columns: the columns cover part of block column " +
                                      std::to_string(bj) + ", where a " + kind_name(a.kind) +
                                      " entry cannot keep its form (convert to real blocks first)");
  for (Index bi = 0; bi < a.nbrows; ++bi)
    for (Index e = a.rowptr[bi]; e < a.rowptr[bi + 1]; ++e) {
      const Index bj = a.colidx[e];
      bool any = false;
      for (int c = 0; c < bs; ++c) any = any || mask[bj * bs + c];
      if (!any) continue;
      double *v = a.entry(e);
      if (b && x) // b_i -= a_ij x_j over the masked columns, before they are zeroed
        for (int r = 0; r < bs; ++r)
          for (int c = 0; c < bs; ++c)
            if (mask[bj * bs + c]) b[bi * bs + r] -= expanded(a.kind, bs, v, 1, r, c) * x[bj * bs + c];
      if (a.kind != EntryKind::block) std::fill(v, v + a.esize(), 0.0);
      else
        for (int c = 0; c < bs; ++c)
          if (mask[bj * bs + c]) std::fill(v + c * bs, v + (c + 1) * bs, 0.0); // column c, column-major
    }
}

} // namespace pgk::aijcompound

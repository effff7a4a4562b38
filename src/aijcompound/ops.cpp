// Reference operations on the compound CSR.
#include "src/aijcompound/ops.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pgk::aijcompound {

namespace {

// The sum of block row bi into acc (bs accumulators from +0.0): the one row loop of the CSR
// reference.
void row_sum(const CompoundCsr &a, Index bi, const double *x, double *acc) {
  for (int i = 0; i < a.bs; ++i) acc[i] = 0.0;
  for (Index e = a.rowptr[bi]; e < a.rowptr[bi + 1]; ++e)
    apply_entry(a.kind, a.bs, a.entry(e), 1, x + a.colidx[e] * a.bs, acc);
}

// Position of block column bi in block row bi, or -1.
Index diagonal_entry(const CompoundCsr &a, Index bi) {
  const auto first = a.colidx.begin() + a.rowptr[bi], last = a.colidx.begin() + a.rowptr[bi + 1];
  const auto it = std::lower_bound(first, last, bi);
  return it != last && *it == bi ? static_cast<Index>(it - a.colidx.begin()) : -1;
}

} // namespace

void mult(const CompoundCsr &a, const double *x, double *y) {
  check_kind(a.kind, a.bs); // bounds acc; the full validate is O(nnz) and left to the builders
  double acc[kMaxBs];
  for (Index bi = 0; bi < a.nbrows; ++bi) {
    row_sum(a, bi, x, acc);
    for (int i = 0; i < a.bs; ++i) y[bi * a.bs + i] = acc[i];
  }
}

void mult_add(const CompoundCsr &a, const double *x, const double *z, double *y) {
  check_kind(a.kind, a.bs);
  double acc[kMaxBs];
  for (Index bi = 0; bi < a.nbrows; ++bi) {
    row_sum(a, bi, x, acc);
    for (int i = 0; i < a.bs; ++i) y[bi * a.bs + i] = acc[i] + z[bi * a.bs + i];
  }
}

void transpose_entry(EntryKind kind, int bs, const double *in, double *out) {
  if (kind == EntryKind::block) {
    for (int j = 0; j < bs; ++j)
      for (int i = 0; i < bs; ++i) out[i * bs + j] = in[j * bs + i];
    return;
  }
  // Conjugate: the real part stays, the imaginary parts change sign (negation is exact).
  out[0] = in[0];
  for (int c = 1; c < entry_size(kind, bs); ++c) out[c] = -in[c];
}

Transpose transpose(const CompoundCsr &a) {
  validate(a);
  Transpose t;
  CompoundCsr &at = t.at;
  at.kind = a.kind;
  at.bs = a.bs;
  at.nbrows = a.nbcols;
  at.nbcols = a.nbrows;
  at.rowptr.assign(static_cast<std::size_t>(a.nbcols) + 1, 0);
  for (Index e = 0; e < a.nnzb(); ++e) ++at.rowptr[a.colidx[e] + 1];
  for (Index j = 0; j < a.nbcols; ++j) at.rowptr[j + 1] += at.rowptr[j];
  std::vector<Index> next(at.rowptr.begin(), at.rowptr.end() - 1);
  at.colidx.resize(static_cast<std::size_t>(a.nnzb()));
  t.source.resize(static_cast<std::size_t>(a.nnzb()));
  // Rows of a in ascending order, so every row of at comes out with ascending columns.
  for (Index bi = 0; bi < a.nbrows; ++bi)
    for (Index e = a.rowptr[bi]; e < a.rowptr[bi + 1]; ++e) {
      const Index p = next[a.colidx[e]]++;
      at.colidx[p] = bi;
      t.source[p] = e;
    }
  at.values.resize(a.values.size());
  refresh_values(a, t);
  return t;
}

void refresh_values(const CompoundCsr &a, Transpose &t) {
  if (a.values.size() != t.at.values.size() || a.kind != t.at.kind || a.bs != t.at.bs)
    throw std::invalid_argument("aijcompound: refresh_values on a transpose of another pattern");
  for (Index p = 0; p < t.at.nnzb(); ++p) transpose_entry(a.kind, a.bs, a.entry(t.source[p]), t.at.entry(p));
}

void diagonal(const CompoundCsr &a, double *d) {
  for (Index bi = 0; bi < a.nbrows; ++bi) {
    const Index e = bi < a.nbcols ? diagonal_entry(a, bi) : -1;
    for (int i = 0; i < a.bs; ++i) d[bi * a.bs + i] = e < 0 ? 0.0 : expanded(a.kind, a.bs, a.entry(e), 1, i, i);
  }
}

bool invert_block(int bs, double *block) {
  double m[kMaxBs][2 * kMaxBs]; // [A | I], row-major
  for (int i = 0; i < bs; ++i)
    for (int j = 0; j < bs; ++j) m[i][j] = block[j * bs + i], m[i][bs + j] = i == j ? 1.0 : 0.0;
  for (int c = 0; c < bs; ++c) {
    int p = c;
    for (int r = c + 1; r < bs; ++r)
      if (std::fabs(m[r][c]) > std::fabs(m[p][c])) p = r;
    if (m[p][c] == 0.0) return false;
    if (p != c)
      for (int j = 0; j < 2 * bs; ++j) std::swap(m[p][j], m[c][j]);
    const double piv = m[c][c];
    for (int j = 0; j < 2 * bs; ++j) m[c][j] /= piv;
    for (int r = 0; r < bs; ++r) {
      const double f = m[r][c];
      if (r == c || f == 0.0) continue;
      for (int j = 0; j < 2 * bs; ++j) m[r][j] -= f * m[c][j];
    }
  }
  for (int i = 0; i < bs; ++i)
    for (int j = 0; j < bs; ++j) block[j * bs + i] = m[i][bs + j];
  return true;
}

void invert_block_diagonal(const CompoundCsr &a, double *inv) {
  validate(a);
  if (a.nbrows != a.nbcols) throw std::invalid_argument("aijcompound: invert_block_diagonal needs a square matrix");
  const int bs = a.bs;
  for (Index bi = 0; bi < a.nbrows; ++bi) {
    double *block = inv + bi * bs * bs;
    const Index e = diagonal_entry(a, bi);
    for (int j = 0; j < bs; ++j)
      for (int i = 0; i < bs; ++i) block[j * bs + i] = e < 0 ? 0.0 : expanded(a.kind, bs, a.entry(e), 1, i, j);
    if (!invert_block(bs, block))
      throw std::domain_error("aijcompound: zero pivot in the diagonal block of block row " + std::to_string(bi) +
                              (e < 0 ? " (block missing)" : ""));
  }
}

void scale(CompoundCsr &a, double alpha) {
  for (double &v : a.values) v *= alpha;
}

void shift(CompoundCsr &a, double alpha) {
  validate(a);
  const Index n = std::min(a.nbrows, a.nbcols);
  std::vector<Index> diag(static_cast<std::size_t>(n));
  for (Index bi = 0; bi < n; ++bi)
    if ((diag[bi] = diagonal_entry(a, bi)) < 0)
      throw std::invalid_argument("aijcompound: shift: block row " + std::to_string(bi) + " has no diagonal block");
  for (Index bi = 0; bi < n; ++bi) {
    double *v = a.entry(diag[bi]);
    if (a.kind == EntryKind::block)
      for (int i = 0; i < a.bs; ++i) v[i * a.bs + i] += alpha;
    else v[0] += alpha; // the real part sits on the whole diagonal of [a -b; b a] and L(q)
  }
}

namespace {

// For complex/quaternion: whether s is constant within every block (null counts as constant).
bool blockwise_constant(const double *s, Index nb, int bs) {
  if (!s) return true;
  for (Index b = 0; b < nb; ++b)
    for (int i = 1; i < bs; ++i)
      if (!(s[b * bs + i] == s[b * bs])) return false;
  return true;
}

} // namespace

void diagonal_scale(CompoundCsr &a, const double *l, const double *r) {
  validate(a);
  const int bs = a.bs, es = a.esize();
  if (a.kind != EntryKind::block && !(blockwise_constant(l, a.nbrows, bs) && blockwise_constant(r, a.nbcols, bs)))
    throw std::invalid_argument(std::string("aijcompound: diagonal_scale with scalings that vary inside a block "
                                            "breaks the ") +
                                kind_name(a.kind) + " form; convert to the block kind first");
  for (Index bi = 0; bi < a.nbrows; ++bi)
    for (Index e = a.rowptr[bi]; e < a.rowptr[bi + 1]; ++e) {
      double *v = a.entry(e);
      const Index bj = a.colidx[e];
      for (int c = 0; c < es; ++c) {
        // block: component c is row c % bs, column c / bs; complex/quaternion: one factor per block.
        const int i = a.kind == EntryKind::block ? c % bs : 0, j = a.kind == EntryKind::block ? c / bs : 0;
        if (l) v[c] = l[bi * bs + i] * v[c];
        if (r) v[c] = v[c] * r[bj * bs + j];
      }
    }
}

void axpy(CompoundCsr &y, double alpha, const CompoundCsr &x) {
  validate(y);
  validate(x);
  if (y.kind != x.kind || y.bs != x.bs || y.nbrows != x.nbrows || y.nbcols != x.nbcols || y.rowptr != x.rowptr ||
      y.colidx != x.colidx)
    throw std::invalid_argument("aijcompound: axpy needs the same entry kind, block size and pattern");
  for (std::size_t p = 0; p < y.values.size(); ++p) y.values[p] += alpha * x.values[p];
}

} // namespace pgk::aijcompound

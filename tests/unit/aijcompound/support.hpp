// Helpers of the aijcompound unit tests: deterministic random compound matrices (src/common/rng)
// and scalar-CSR products of the expanded matrix, the independent reference.
#pragma once

#include "src/aijcompound/compound.hpp"
#include "src/aijcompound/symmetric.hpp"
#include "src/common/rng.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace pgk::aijcompound::test {

using Vector = std::vector<double>;

struct Shape {
  EntryKind kind;
  int bs;
};
// Every kind and block size the reference supports.
inline std::vector<Shape> all_shapes() {
  std::vector<Shape> s;
  for (int k = 2; k <= 8; ++k) s.push_back({EntryKind::block, k});
  s.push_back({EntryKind::complex, 2});
  s.push_back({EntryKind::quaternion, 4});
  return s;
}

// A random compound matrix: every 5th block row (3, 8, ...) empty, the others with 0..maxlen
// blocks at distinct random columns (every 7th row long, up to 4 * maxlen, so ELL pads), values
// uniform in [-1, 1). with_diagonal: every block row < nbcols also holds its diagonal block,
// boosted by 2 * bs on the scalar diagonal so the diagonal blocks are well conditioned.
inline CompoundCsr random_compound(Shape shape, Index nbrows, Index nbcols, std::uint64_t seed, Index maxlen = 6,
                                   bool with_diagonal = false) {
  SplitMix64 rng(seed);
  CompoundCsr a;
  a.kind = shape.kind;
  a.bs = shape.bs;
  a.nbrows = nbrows;
  a.nbcols = nbcols;
  const int es = a.esize();
  for (Index r = 0; r < nbrows; ++r) {
    std::vector<Index> cols;
    if (r % 5 != 3 && nbcols > 0) {
      const Index len =
          static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(r % 7 == 0 ? 4 * maxlen : maxlen) + 1));
      for (Index t = 0; t < len; ++t)
        cols.push_back(static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(nbcols))));
    }
    if (with_diagonal && r < nbcols) cols.push_back(r);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (Index c : cols) {
      a.colidx.push_back(c);
      for (int k = 0; k < es; ++k) a.values.push_back(2.0 * rng.uniform() - 1.0);
      if (with_diagonal && c == r) {
        double *v = a.values.data() + a.values.size() - es;
        if (shape.kind == EntryKind::block)
          for (int i = 0; i < shape.bs; ++i) v[i * shape.bs + i] += 2.0 * shape.bs;
        else v[0] += 2.0 * shape.bs;
      }
    }
    a.rowptr.push_back(static_cast<Index>(a.colidx.size()));
  }
  return a;
}

inline Vector random_vector(Index n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  Vector v(static_cast<std::size_t>(n));
  for (double &x : v) x = 2.0 * rng.uniform() - 1.0;
  return v;
}

// y = S x on a scalar CSR: per row from +0.0, columns in stored order.
inline Vector scalar_mult(const Csr &s, const Vector &x) {
  Vector y(static_cast<std::size_t>(s.nrows), 0.0);
  for (Index i = 0; i < s.nrows; ++i) {
    double acc = 0.0;
    for (Index p = s.rowptr[i]; p < s.rowptr[i + 1]; ++p) acc += s.values[p] * x[s.colidx[p]];
    y[i] = acc;
  }
  return y;
}

// The scalar transpose (rows ascending within each column).
inline Csr scalar_transpose(const Csr &s) {
  Csr t;
  t.nrows = s.ncols;
  t.ncols = s.nrows;
  t.rowptr.assign(static_cast<std::size_t>(s.ncols) + 1, 0);
  for (Index p = 0; p < s.nnz(); ++p) ++t.rowptr[s.colidx[p] + 1];
  for (Index j = 0; j < s.ncols; ++j) t.rowptr[j + 1] += t.rowptr[j];
  std::vector<Index> next(t.rowptr.begin(), t.rowptr.end() - 1);
  t.colidx.resize(static_cast<std::size_t>(s.nnz()));
  t.values.resize(static_cast<std::size_t>(s.nnz()));
  for (Index i = 0; i < s.nrows; ++i)
    for (Index p = s.rowptr[i]; p < s.rowptr[i + 1]; ++p) {
      const Index q = next[s.colidx[p]]++;
      t.colidx[q] = i;
      t.values[q] = s.values[p];
    }
  return t;
}

// Dense row-major copy of a scalar CSR (small test matrices only).
inline Vector dense(const Csr &s) {
  Vector d(static_cast<std::size_t>(s.nrows * s.ncols), 0.0);
  for (Index i = 0; i < s.nrows; ++i)
    for (Index p = s.rowptr[i]; p < s.rowptr[i + 1]; ++p) d[i * s.ncols + s.colidx[p]] = s.values[p];
  return d;
}

// max_i |a_i - b_i| / max(max_i |b_i|, tiny): the relative error the 1e-13 bounds.
inline double rel_error(const Vector &a, const Vector &b) {
  double num = 0, den = 1e-300;
  for (std::size_t i = 0; i < a.size(); ++i)
    num = std::max(num, std::abs(a[i] - b[i])), den = std::max(den, std::abs(b[i]));
  return num / den;
}

inline bool same_bits(const Vector &a, const Vector &b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return false;
  return true;
}

inline bool same(const CompoundCsr &a, const CompoundCsr &b) {
  return a.kind == b.kind && a.bs == b.bs && a.nbrows == b.nbrows && a.nbcols == b.nbcols && a.rowptr == b.rowptr &&
         a.colidx == b.colidx && a.values == b.values;
}

// `full` with every third stored scalar dropped (position + row not a multiple of 3): blocks stored
// only in part, as elast3d's.
inline Csr drop_every_third(const Csr &full) {
  Csr part;
  part.nrows = full.nrows;
  part.ncols = full.ncols;
  for (Index i = 0; i < full.nrows; ++i) {
    for (Index p = full.rowptr[i]; p < full.rowptr[i + 1]; ++p)
      if ((p + i) % 3 != 0) part.colidx.push_back(full.colidx[p]), part.values.push_back(full.values[p]);
    part.rowptr.push_back(static_cast<Index>(part.colidx.size()));
  }
  return part;
}

// A symmetric (in the expansion) matrix from a random one: the upper triangle and diagonal of a,
// with a's lower entries moved up (transposed) where the upper one is missing, mirrored below.
inline CompoundCsr symmetrize(const CompoundCsr &a) {
  const int es = a.esize();
  std::map<std::pair<Index, Index>, std::vector<double>> upper;
  std::vector<double> t(static_cast<std::size_t>(es));
  for (Index r = 0; r < a.nbrows; ++r)
    for (Index e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e) {
      const Index c = a.colidx[e];
      if (c >= r) upper[{r, c}].assign(a.entry(e), a.entry(e) + es);
      else if (!upper.count({c, r})) {
        transposed_entry(a.kind, a.bs, a.entry(e), 1, t.data());
        upper[{c, r}] = t;
      }
    }
  std::map<std::pair<Index, Index>, std::vector<double>> all = upper;
  for (const auto &[rc, v] : upper)
    if (rc.first != rc.second) {
      transposed_entry(a.kind, a.bs, v.data(), 1, t.data());
      all[{rc.second, rc.first}] = t;
    }
  CompoundCsr s;
  s.kind = a.kind;
  s.bs = a.bs;
  s.nbrows = s.nbcols = a.nbrows;
  s.rowptr.assign(static_cast<std::size_t>(a.nbrows) + 1, 0);
  for (const auto &[rc, v] : all) {
    ++s.rowptr[rc.first + 1];
    s.colidx.push_back(rc.second);
    s.values.insert(s.values.end(), v.begin(), v.end());
  }
  for (Index r = 0; r < s.nbrows; ++r) s.rowptr[r + 1] += s.rowptr[r];
  return s;
}

inline CompoundCsr random_symmetric(Shape sh, Index n, std::uint64_t seed) {
  return symmetrize(random_compound(sh, n, n, seed, 6, true));
}

// The first strictly lower entry, or -1.
inline Index first_lower(const CompoundCsr &a) {
  for (Index r = 0; r < a.nbrows; ++r)
    if (a.rowptr[r] < a.rowptr[r + 1] && a.colidx[a.rowptr[r]] < r) return a.rowptr[r];
  return -1;
}

} // namespace pgk::aijcompound::test

// Flat layouts of the device schemes and their sequential emulations; see flat.hpp.
#include "src/carpcg/flat.hpp"

#include "src/carpcg/sweep.hpp"

namespace pgk::carpcg {

TransposeMap transpose_map(const CsrView &pattern) {
  const Index n = pattern.ncols, nnz = pattern.nnz_host();
  TransposeMap t;
  t.colptr.assign(static_cast<std::size_t>(n) + 1, 0);
  t.rows.resize(static_cast<std::size_t>(nnz));
  t.entry.resize(static_cast<std::size_t>(nnz));
  for (Index k = 0; k < nnz; ++k) ++t.colptr[static_cast<std::size_t>(pattern.colidx[k]) + 1];
  for (Index j = 0; j < n; ++j) t.colptr[j + 1] += t.colptr[j];
  std::vector<Index> next(t.colptr.begin(), t.colptr.end() - 1);
  for (Index i = 0; i < pattern.nrows; ++i) // rows in order: each column's rows come out ascending
    for (Index k = pattern.rowptr[i]; k < pattern.rowptr[i + 1]; ++k) {
      const Index p = next[static_cast<std::size_t>(pattern.colidx[k])]++;
      t.rows[p] = i;
      t.entry[p] = k;
    }
  return t;
}

void cimmino_transposed(const CsrView &a, const TransposeMap &t, const double *norms2, const double *b, double lambda,
                        const double *x, const double *base, double *coef, double *out) {
  for (Index i = 0; i < a.nrows; ++i) {
    double dot = 0;
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) dot += a.values[k] * x[a.colidx[k]];
    coef[i] = norms2[i] == 0 ? 0.0 : lambda * (((b ? b[i] : 0.0) - dot) / norms2[i]);
  }
  for (Index j = 0; j < a.ncols; ++j) {
    double s = 0;
    for (Index p = t.colptr[j]; p < t.colptr[j + 1]; ++p) s += coef[t.rows[p]] * a.values[t.entry[p]];
    out[j] = base ? base[j] + s : s;
  }
}

FlatBlocks flatten(const BlockPlan &plan, const CsrView &pattern) {
  const Index n = pattern.ncols;
  FlatBlocks f;
  f.row_ptr.assign(1, 0);
  f.col_ptr.assign(1, 0);
  f.local_col.assign(static_cast<std::size_t>(pattern.nnz_host()), 0);
  f.gather_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  std::vector<Index> slot(static_cast<std::size_t>(n), -1);
  for (Index k = 0; k < plan.nblocks(); ++k) {
    const std::vector<Index> &rows = plan.rows(k), &cols = plan.cols(k);
    for (std::size_t s = 0; s < cols.size(); ++s) {
      slot[static_cast<std::size_t>(cols[s])] = static_cast<Index>(s);
      ++f.gather_ptr[static_cast<std::size_t>(cols[s]) + 1];
    }
    for (const Index i : rows) // every column of the block's rows is one of its cols
      for (Index e = pattern.rowptr[i]; e < pattern.rowptr[i + 1]; ++e)
        f.local_col[static_cast<std::size_t>(e)] = slot[static_cast<std::size_t>(pattern.colidx[e])];
    f.rows.insert(f.rows.end(), rows.begin(), rows.end());
    f.cols.insert(f.cols.end(), cols.begin(), cols.end());
    f.row_ptr.push_back(static_cast<Index>(f.rows.size()));
    f.col_ptr.push_back(static_cast<Index>(f.cols.size()));
  }
  for (Index j = 0; j < n; ++j) f.gather_ptr[j + 1] += f.gather_ptr[j];
  f.gather_pos.resize(f.cols.size());
  std::vector<Index> next(f.gather_ptr.begin(), f.gather_ptr.end() - 1);
  for (std::size_t p = 0; p < f.cols.size(); ++p) // blocks in order: each unknown's copies in block order
    f.gather_pos[static_cast<std::size_t>(next[static_cast<std::size_t>(f.cols[p])]++)] = static_cast<Index>(p);
  return f;
}

void carp_half_flat(const CsrView &a, const FlatBlocks &f, const double *norms2, const double *b, double lambda,
                    bool backward, const double *x, double *copies, double *y) {
  for (Index k = 0; k < f.nblocks(); ++k) {
    double *copy = copies + f.col_ptr[k];
    for (Index t = f.col_ptr[k]; t < f.col_ptr[k + 1]; ++t) copies[t] = x[f.cols[t]];
    // The block's rows on its copy, addressed through the block-local columns.
    const CsrView local{a.nrows, f.col_ptr[k + 1] - f.col_ptr[k], a.rowptr, f.local_col.data(), a.values};
    sweep(local, norms2, b, lambda, f.rows.data() + f.row_ptr[k], f.row_ptr[k + 1] - f.row_ptr[k], backward, copy);
  }
  for (Index j = 0; j < a.ncols; ++j) {
    const Index lo = f.gather_ptr[j], hi = f.gather_ptr[j + 1];
    double s = 0;
    for (Index p = lo; p < hi; ++p) s += copies[f.gather_pos[p]];
    y[j] = hi > lo ? s / static_cast<double>(hi - lo) : x[j];
  }
}

} // namespace pgk::carpcg

// Flat layouts of the device schemes and their sequential emulations; see flat.hpp.
#include "src/carpcg/flat.hpp"

#include "src/carpcg/sweep.hpp"
#include "src/common/prefault.hpp"
#include "src/common/thread_pool.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace pgk::carpcg {

namespace {

// Below this many stored entries the flat arrays are built on the calling thread.
constexpr Index kParallelMin = Index(1) << 16;
constexpr std::int64_t kBlocksPerChunk = 64;

} // namespace

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

FlatBlocks flatten(const BlockPlan &plan, const CsrView &pattern, int threads) {
  const Index n = pattern.ncols, nb = plan.nblocks();
  const std::vector<Index> &mult = plan.multiplicity();
  if (mult.size() != static_cast<std::size_t>(n) ||
      plan.local_col().size() != static_cast<std::size_t>(pattern.nnz_host()))
    throw std::invalid_argument("carpcg: flatten needs the matrix its block plan was built from");
  ThreadPool pool(pattern.nnz_host() < kParallelMin ? 1 : threads);
  FlatBlocks f;
  f.row_ptr.assign(static_cast<std::size_t>(nb) + 1, 0);
  f.col_ptr.assign(static_cast<std::size_t>(nb) + 1, 0);
  for (Index k = 0; k < nb; ++k) {
    f.row_ptr[k + 1] = f.row_ptr[k] + static_cast<Index>(plan.rows(k).size());
    f.col_ptr[k + 1] = f.col_ptr[k] + static_cast<Index>(plan.cols(k).size());
  }
  f.rows = prefaulted_vector<Index>(static_cast<std::size_t>(f.row_ptr[nb]), 0, pool);
  f.cols = prefaulted_vector<Index>(static_cast<std::size_t>(f.col_ptr[nb]), 0, pool);
  pool.parallel_for(0, nb, kBlocksPerChunk, [&](std::int64_t k) {
    std::copy(plan.rows(k).begin(), plan.rows(k).end(), f.rows.begin() + f.row_ptr[k]);
    std::copy(plan.cols(k).begin(), plan.cols(k).end(), f.cols.begin() + f.col_ptr[k]);
  });
  // |L_j| copies of unknown j, gathered in block order: a counting sort of cols by unknown. Each
  // thread owns a range of unknowns and reads all of cols in order, placing the copies of its own
  // unknowns: each unknown's positions come out ascending, the same for any thread count (the
  // reads are repeated per thread; the scattered writes, the slow part, are shared out).
  f.gather_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (Index j = 0; j < n; ++j) f.gather_ptr[j + 1] = f.gather_ptr[j] + mult[static_cast<std::size_t>(j)];
  f.gather_pos = prefaulted_vector<Index>(f.cols.size(), 0, pool);
  pool.run([&](int t, int nt) {
    const Index lo = static_cast<Index>(static_cast<long long>(n) * t / nt);
    const Index hi = static_cast<Index>(static_cast<long long>(n) * (t + 1) / nt);
    std::vector<Index> next(f.gather_ptr.begin() + lo, f.gather_ptr.begin() + hi);
    const Index *cols = f.cols.data(), count = static_cast<Index>(f.cols.size());
    Index *pos = f.gather_pos.data(), *at = next.data();
    for (Index p = 0; p < count; ++p) {
      const Index j = cols[p];
      if (j >= lo && j < hi) pos[at[j - lo]++] = p;
    }
  });
  return f;
}

void carp_half_flat(const CsrView &a, const FlatBlocks &f, const Index *local_col, const double *norms2,
                    const double *b, double lambda, bool backward, const double *x, double *copies, double *y) {
  for (Index k = 0; k < f.nblocks(); ++k) {
    double *copy = copies + f.col_ptr[k];
    for (Index t = f.col_ptr[k]; t < f.col_ptr[k + 1]; ++t) copies[t] = x[f.cols[t]];
    // The block's rows on its copy, addressed through the block-local columns.
    const CsrView local{a.nrows, f.col_ptr[k + 1] - f.col_ptr[k], a.rowptr, local_col, a.values};
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

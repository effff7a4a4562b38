// Element operations of the device graph build (graph.cu): the input check, G = pattern(A + A^T)
// without the diagonal with weights in {1, 2}, strengths, and the processing order's keys.
// Host/device (ops_common.hpp); the results equal src/rabbitpp/graph.cpp's build_graph.
#pragma once

#include "kernels/rabbitpp/ops_common.hpp"

namespace pgk::cuda::rabbitpp_ops {

// The input check's findings (CsrView a of n rows): smallest offending rows, n where none.
struct CsrRecord {
  Index rowptr0 = 0, nnz = 0; // rowptr[0], rowptr[n]
  Index first_decrease = 0;   // rowptr[i + 1] < rowptr[i]
  Index first_bad_column = 0; // a column outside [0, ncols)
  Index first_unsorted = 0;   // columns not strictly increasing (unsorted or duplicate)
};

PGK_RB_HD void init_record(const CsrView &a, CsrRecord *rec) {
  rec->rowptr0 = a.rowptr[0];
  rec->nnz = a.rowptr[a.nrows];
  rec->first_decrease = rec->first_bad_column = rec->first_unsorted = a.nrows;
}

// Row i's extent when it can be read safely (0 <= b <= e <= nnz); a decreasing row pointer is
// recorded. Returns false for a row whose entries must not be read.
PGK_RB_HD bool row_extent(const CsrView &a, Index nnz, Index i, CsrRecord *rec, Index *b, Index *e) {
  *b = a.rowptr[i];
  *e = a.rowptr[i + 1];
  if (*e < *b) min_exact(&rec->first_decrease, i);
  return *b >= 0 && *e >= *b && *e <= nnz;
}

// Entry k (in [b, e)) of row i.
PGK_RB_HD void check_entry(const CsrView &a, Index i, Index k, Index b, CsrRecord *rec) {
  const Index j = a.colidx[k];
  if (j < 0 || j >= a.ncols) min_exact(&rec->first_bad_column, i);
  if (k > b && j <= a.colidx[k - 1]) min_exact(&rec->first_unsorted, i);
}

// 1 if row i of A (sorted) stores the diagonal.
PGK_RB_HD Index diagonal_flag(const CsrView &a, Index i) {
  return sorted_contains(a.colidx, a.rowptr[i], a.rowptr[i + 1], i) ? 1 : 0;
}

// Row i's entry count in G: its count in S = pattern(A + A^T) (diagonal kept) minus the diagonal
// (which S holds exactly when A does). Written at count[i]; count[n] = 0 (exclusive scan: G's row
// pointer, count[n] = nnz(G)).
PGK_RB_HD void graph_degree(const Index *s_rowptr, const Index *adiag, Index n, Index i, Index *count) {
  count[i] = i < n ? s_rowptr[i + 1] - s_rowptr[i] - adiag[i] : 0;
}

// Entry k of S's row i into G (skipped when it is the diagonal): same column, weight
// [a_ij stored] + [a_ji stored] (2 when A is structurally symmetric, S = A). G's rows keep S's
// order (sorted) without the diagonal.
PGK_RB_HD void graph_entry(const CsrView &a, const Index *s_rowptr, const Index *s_colidx, const Index *adiag,
                           bool symmetric, Index i, Index k, const Index *g_rowptr, Index *g_colidx,
                           std::uint8_t *g_weight) {
  const Index j = s_colidx[k];
  if (j == i) return;
  const Index pos = g_rowptr[i] + (k - s_rowptr[i]) - (adiag[i] != 0 && j > i ? 1 : 0);
  g_colidx[pos] = j;
  if (symmetric) {
    g_weight[pos] = 2;
  } else {
    const bool ij = sorted_contains(a.colidx, a.rowptr[i], a.rowptr[i + 1], j);
    const bool ji = sorted_contains(a.colidx, a.rowptr[j], a.rowptr[j + 1], i);
    g_weight[pos] = static_cast<std::uint8_t>((ij ? 1 : 0) + (ji ? 1 : 0));
  }
}

// The column of entry k of A counted in indeg (column counts = in-degrees, diagonal included).
PGK_RB_HD void count_column(const CsrView &a, Index k, Index *indeg) { add_exact(&indeg[a.colidx[k]], Index(1)); }

// str(i) = sum of w over G's row i = off-diagonal entries of row i of A + those of column i.
PGK_RB_HD Wide vertex_strength(const CsrView &a, const Index *adiag, const Index *indeg, Index i) {
  const Wide d = adiag[i];
  return (static_cast<Wide>(a.rowptr[i + 1] - a.rowptr[i]) - d) + (static_cast<Wide>(indeg[i]) - d);
}

// The processing order's sort key: the degree in G (a stable sort keeps ids ascending).
using UIndex = std::make_unsigned_t<Index>;
PGK_RB_HD UIndex degree_key(const Index *g_rowptr, Index i) {
  return static_cast<UIndex>(g_rowptr[i + 1] - g_rowptr[i]);
}

} // namespace pgk::cuda::rabbitpp_ops

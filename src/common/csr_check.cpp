#include "src/common/csr_check.hpp"

#include <cmath>

namespace pgk {

CsrCheck check_csr(const CsrView &a) {
  CsrCheck r;
  if (a.nrows == 0) return r;
  if (a.rowptr[0] != 0) ++r.bad_rowptr;
  const Index nnz = a.rowptr[a.nrows];
  for (Index i = 0; i < a.nrows; ++i) {
    const Index b = a.rowptr[i], e = a.rowptr[i + 1];
    if (e < b || b < 0 || e > nnz) {
      ++r.bad_rowptr;
      continue;
    }
    if (b == e) ++r.empty_rows;
    bool sorted = true, has_diag = false;
    for (Index k = b; k < e; ++k) {
      const Index j = a.colidx[k];
      if (j < 0 || j >= a.ncols) ++r.bad_colidx;
      if (k > b && j <= a.colidx[k - 1]) sorted = false;
      if (j == i) has_diag = true;
      if (a.values && !std::isfinite(a.values[k])) ++r.nonfinite;
    }
    if (!sorted) ++r.unsorted_rows;
    if (i < a.ncols && !has_diag) ++r.missing_diagonal;
  }
  return r;
}

} // namespace pgk

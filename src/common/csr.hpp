// Compressed sparse row storage shared by every host algorithm in src/.
// Knows nothing of PETSc: the index width is fixed at build time to match the PETSc the
// library is built against (PGK_INDEX_64 when PETSc uses 64-bit indices), so PETSc's own
// arrays can be handed to these algorithms, and to the device kernels, without conversion.
#pragma once

#include <cstdint>
#include <vector>

namespace pgk {

#if defined(PGK_INDEX_64)
using Index = std::int64_t;
#else
using Index = std::int32_t;
#endif

// Host-owned CSR matrix. Column indices are sorted ascending within each row and unique,
// unless a function documents otherwise. `values` may be empty for a pattern-only graph.
struct Csr {
  Index nrows = 0;
  Index ncols = 0;
  std::vector<Index> rowptr{0}; // nrows + 1 entries, rowptr[0] == 0
  std::vector<Index> colidx;    // rowptr[nrows] entries
  std::vector<double> values;   // empty, or rowptr[nrows] entries

  Index nnz() const { return rowptr.empty() ? 0 : rowptr.back(); }
};

// Non-owning view of CSR arrays that may live in host or device memory: the layout of
// PETSc's SeqAIJ storage with a full (uncompressed) row pointer.
struct CsrView {
  Index nrows = 0;
  Index ncols = 0;
  const Index *rowptr = nullptr;
  const Index *colidx = nullptr;
  const double *values = nullptr; // may be null for a pattern

  Index nnz_host() const { return rowptr ? rowptr[nrows] : 0; } // host views only
};

inline CsrView view_of(const Csr &a) {
  CsrView v;
  v.nrows = a.nrows;
  v.ncols = a.ncols;
  v.rowptr = a.rowptr.data();
  v.colidx = a.colidx.data();
  v.values = a.values.empty() ? nullptr : a.values.data();
  return v;
}

} // namespace pgk

#include "src/batchrcm/symmetrize.hpp"

#include "src/batchrcm/rcm.hpp"
#include "src/common/csr_build.hpp"

#include <algorithm>
#include <vector>

namespace pgk::rcm {
namespace {

// Transposed pattern by a counting pass. Rows of the transpose come out sorted because the
// source rows are visited in ascending order; duplicates of A stay duplicates.
struct Pattern {
  std::vector<Index> ptr;
  std::vector<Index> col;
};

Pattern transpose_pattern(const CsrView &a) {
  const auto n = static_cast<std::size_t>(a.nrows);
  Pattern t;
  t.ptr.assign(n + 1, 0);
  const Index nnz = a.nnz_host();
  for (Index e = 0; e < nnz; ++e) ++t.ptr[static_cast<std::size_t>(a.colidx[e]) + 1];
  for (std::size_t i = 0; i < n; ++i) t.ptr[i + 1] += t.ptr[i];
  t.col.resize(static_cast<std::size_t>(nnz));
  std::vector<Index> fill(t.ptr.begin(), t.ptr.end() - 1);
  for (Index i = 0; i < a.nrows; ++i)
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
      t.col[static_cast<std::size_t>(fill[static_cast<std::size_t>(a.colidx[e])]++)] = i;
  return t;
}

// Sorted, duplicate-free copy of row i of a into buf.
void sorted_row(const CsrView &a, Index i, std::vector<Index> &buf) {
  buf.assign(a.colidx + a.rowptr[i], a.colidx + a.rowptr[i + 1]);
  std::sort(buf.begin(), buf.end());
  buf.erase(std::unique(buf.begin(), buf.end()), buf.end());
}

} // namespace

Csr symmetrize_pattern(const CsrView &a) {
  validate_graph(a); // RCM's own input errors first; the pattern itself is the shared helper's
  return pgk::symmetrize_pattern(a);
}

bool is_structurally_symmetric(const CsrView &a) {
  validate_graph(a);
  const Pattern t = transpose_pattern(a);
  std::vector<Index> row;
  for (Index i = 0; i < a.nrows; ++i) {
    sorted_row(a, i, row);
    auto tb = t.col.begin() + t.ptr[static_cast<std::size_t>(i)];
    auto te = t.col.begin() + t.ptr[static_cast<std::size_t>(i) + 1];
    // The transposed row is sorted already; compare it to row i with its duplicates skipped.
    std::size_t k = 0;
    for (auto it = tb; it != te; ++it) {
      if (it != tb && *it == *(it - 1)) continue;
      if (k >= row.size() || row[k] != *it) return false;
      ++k;
    }
    if (k != row.size()) return false;
  }
  return true;
}

} // namespace pgk::rcm

#include "src/common/permute_pattern.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace pgk {

PermutedPattern permute_pattern_symmetric(const CsrView &a, const std::vector<Index> &perm) {
  const Index n = a.nrows;
  if (a.ncols != n || static_cast<Index>(perm.size()) != n)
    throw std::invalid_argument("permute_pattern_symmetric: needs a square matrix and a permutation of its rows");
  std::vector<Index> inverse(n, -1);
  for (Index k = 0; k < n; ++k) {
    if (perm[k] < 0 || perm[k] >= n || inverse[perm[k]] != -1)
      throw std::invalid_argument("permute_pattern_symmetric: not a permutation");
    inverse[perm[k]] = k;
  }
  PermutedPattern r;
  Csr &b = r.pattern;
  b.nrows = b.ncols = n;
  b.rowptr.assign(n + 1, 0);
  for (Index k = 0; k < n; ++k) b.rowptr[k + 1] = b.rowptr[k] + (a.rowptr[perm[k] + 1] - a.rowptr[perm[k]]);
  b.colidx.resize(b.rowptr[n]);
  r.dst.resize(a.rowptr[n]);
  std::vector<std::pair<Index, Index>> row; // (new column, entry of A)
  for (Index k = 0; k < n; ++k) {
    const Index i = perm[k];
    row.clear();
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) row.emplace_back(inverse[a.colidx[e]], e);
    std::sort(row.begin(), row.end());
    for (size_t t = 0; t < row.size(); ++t) {
      b.colidx[b.rowptr[k] + t] = row[t].first;
      r.dst[row[t].second] = b.rowptr[k] + static_cast<Index>(t);
    }
  }
  return r;
}

} // namespace pgk

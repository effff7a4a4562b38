#include "src/common/envelope.hpp"

#include <algorithm>
#include <stdexcept>

namespace pgk {

Envelope envelope(const CsrView &a, const std::vector<Index> &perm) {
  Envelope e;
  const bool identity = perm.empty();
  if (!identity && static_cast<Index>(perm.size()) != a.nrows)
    throw std::invalid_argument("envelope: permutation size differs from the row count");
  std::vector<Index> inverse;
  if (!identity) {
    inverse.assign(a.nrows, 0);
    for (Index k = 0; k < a.nrows; ++k) inverse[perm[k]] = k;
  }
  for (Index knew = 0; knew < a.nrows; ++knew) {
    const Index i = identity ? knew : perm[knew];
    Index first = knew;
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      const Index j = a.colidx[k];
      const Index jnew = identity || j >= a.nrows ? j : inverse[j];
      e.bandwidth = std::max(e.bandwidth, jnew > knew ? jnew - knew : knew - jnew);
      first = std::min(first, jnew);
    }
    e.profile += static_cast<std::int64_t>(knew) - first;
  }
  return e;
}

} // namespace pgk

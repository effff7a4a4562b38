#include "src/trilf/coverage.hpp"

#include <cmath>
#include <stdexcept>

namespace pgk::trilf {
namespace {

inline double mag(const CsrView &a, Index e) { return a.values ? std::fabs(a.values[e]) : 1.0; }

// Sum of |a_ij| over stored off-diagonal entries for which keep(i, j) holds, / omega_G.
template <class Keep> double share(const CsrView &a, Keep keep) {
  double total = 0, kept = 0;
  for (Index i = 0; i < a.nrows; ++i)
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      const Index j = a.colidx[e];
      if (j == i) continue;
      total += mag(a, e);
      if (keep(i, j)) kept += mag(a, e);
    }
  return total > 0 ? kept / total : 1.0;
}

} // namespace

double offdiagonal_weight(const CsrView &a) {
  double total = 0;
  for (Index i = 0; i < a.nrows; ++i)
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
      if (a.colidx[e] != i) total += mag(a, e);
  return total;
}

double coverage_identity(const CsrView &a) {
  return share(a, [](Index i, Index j) { return j == i - 1 || j == i + 1; });
}

double coverage_neighbours(const CsrView &a, const std::vector<Index> &nbr, int n) {
  if (n < 1 || nbr.size() != static_cast<std::size_t>(a.nrows) * static_cast<std::size_t>(n))
    throw std::invalid_argument("trilf coverage: neighbour list does not match the matrix");
  return share(a, [&](Index i, Index j) {
    const Index *s = nbr.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(n);
    for (int k = 0; k < n; ++k)
      if (s[k] == j) return true;
    return false;
  });
}

double coverage(const CsrView &a, const PathOrder &order) {
  if (order.iperm.size() != static_cast<std::size_t>(a.nrows))
    throw std::invalid_argument("trilf coverage: path order does not match the matrix");
  // path_of[k]: index of the path holding permuted position k.
  std::vector<Index> path_of(order.perm.size());
  for (Index p = 0; p < order.npaths(); ++p)
    for (Index k = order.path_start[static_cast<std::size_t>(p)]; k < order.path_start[static_cast<std::size_t>(p) + 1];
         ++k)
      path_of[static_cast<std::size_t>(k)] = p;
  return share(a, [&](Index i, Index j) {
    const Index ki = order.iperm[static_cast<std::size_t>(i)];
    const Index kj = order.iperm[static_cast<std::size_t>(j)];
    return (ki - kj == 1 || kj - ki == 1) &&
           path_of[static_cast<std::size_t>(ki)] == path_of[static_cast<std::size_t>(kj)];
  });
}

double coverage(const CsrView &a, const BlockOrder &order) {
  std::vector<Index> block_of(static_cast<std::size_t>(a.nrows), -1);
  for (std::size_t s = 0; s < order.slots.size(); ++s)
    if (order.slots[s] >= 0) {
      if (order.slots[s] >= a.nrows)
        throw std::invalid_argument("trilf coverage: block order does not match the matrix");
      block_of[static_cast<std::size_t>(order.slots[s])] = static_cast<Index>(s / 2);
    }
  std::vector<Index> path_of(static_cast<std::size_t>(order.nblocks()));
  for (Index p = 0; p < order.npaths(); ++p)
    for (Index k = order.path_start[static_cast<std::size_t>(p)]; k < order.path_start[static_cast<std::size_t>(p) + 1];
         ++k)
      path_of[static_cast<std::size_t>(k)] = p;
  for (const Index b : block_of)
    if (b < 0) throw std::invalid_argument("trilf coverage: block order misses a row");
  return share(a, [&](Index i, Index j) {
    const Index bi = block_of[static_cast<std::size_t>(i)];
    const Index bj = block_of[static_cast<std::size_t>(j)];
    if (bi == bj) return true;
    return (bi - bj == 1 || bj - bi == 1) &&
           path_of[static_cast<std::size_t>(bi)] == path_of[static_cast<std::size_t>(bj)];
  });
}

} // namespace pgk::trilf

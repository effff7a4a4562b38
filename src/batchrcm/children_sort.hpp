// The one sort RCM needs: the children of one parent by ascending valence, stable, so that
// equal valences keep their order in the parent's row (the documented tie rule). Every
// backend must use a stable sort here, or ties would depend on the sort implementation.
#pragma once

#include <algorithm>
#include <cstddef>

namespace pgk::rcm::detail {

// Most parents have a handful of children; insertion sort beats std::stable_sort's buffer
// allocation there. Both are stable.
template <class It, class Key> void stable_sort_by_key(It first, It last, Key key) {
  const std::ptrdiff_t n = last - first;
  if (n < 2) return;
  if (n <= 16) {
    for (It i = first + 1; i != last; ++i) {
      auto x = *i;
      const auto kx = key(x);
      It j = i;
      for (; j != first && kx < key(*(j - 1)); --j) *j = *(j - 1); // strict <: stable
      *j = x;
    }
    return;
  }
  std::stable_sort(first, last, [&](const auto &a, const auto &b) { return key(a) < key(b); });
}

} // namespace pgk::rcm::detail

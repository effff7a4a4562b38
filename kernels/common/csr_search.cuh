// Search in a sorted CSR row: the position of a column, or whether it is there. Columns must be
// sorted ascending and unique within the row (PETSc's AIJ storage, the patterns built here).
// One binary search (search_sorted) behind every entry point.
#pragma once

#include "src/common/csr.hpp"

namespace pgk::cuda {

namespace csr_search_detail {

// Binary search for `col` in colidx[lo, hi): on a hit calls hit(position) and returns true.
// With Probe, position `guess` (< hi) is tried first when guess >= lo: a hit ends the search, a
// miss still halves the bracket; the position found is the same (the columns are unique).
template <bool Probe, class Hit>
__device__ __forceinline__ bool search_sorted(const Index *colidx, Index lo, Index hi, Index col, Index guess,
                                              Hit hit) {
  bool found = false;
  if (Probe && guess >= lo) {
    const Index c = colidx[guess];
    if (c == col) {
      hit(guess);
      found = true;
      lo = hi; // done
    } else if (c < col) {
      lo = guess + 1;
    } else {
      hi = guess;
    }
  }
  while (lo < hi) {
    const Index mid = lo + (hi - lo) / 2;
    const Index c = colidx[mid];
    if (c == col) {
      hit(mid);
      found = true;
      break;
    }
    if (c < col) lo = mid + 1;
    else hi = mid;
  }
  return found;
}

} // namespace csr_search_detail

// Is `col` in colidx[lo, hi)? On a hit, hit(position) is called first. Taking the hit as a
// callback (rather than returning the position) lets the caller load at the hit the way the
// kernels were tuned (their register counts depend on it).
template <class Hit>
__device__ __forceinline__ bool find_in_range(const Index *colidx, Index lo, Index hi, Index col, Hit hit) {
  return csr_search_detail::search_sorted<false>(colidx, lo, hi, col, 0, hit);
}

// find_in_range, probing position `guess` (< hi) first: cheaper when the guess is usually
// right (e.g. the mirrored position of a_ij in row j, where a_ji sits when rows i and j have the
// same offsets, as in a stencil's interior).
template <class Hit>
__device__ __forceinline__ bool find_in_range_from(const Index *colidx, Index lo, Index hi, Index col, Index guess,
                                                   Hit hit) {
  return csr_search_detail::search_sorted<true>(colidx, lo, hi, col, guess, hit);
}

// Position of `col` in the sorted row `row` of (rowptr, colidx), or -1.
__device__ __forceinline__ Index find_in_row(const Index *rowptr, const Index *colidx, Index row, Index col) {
  Index pos = -1;
  find_in_range(colidx, rowptr[row], rowptr[row + 1], col, [&](Index p) { pos = p; });
  return pos;
}

// Whether entry e = (i, j), j != i, of a sorted pattern lacks its transpose (j, i): the one test
// of pattern(A + A^T) (symmetrize_pattern.cu) and of the device RCM's symmetry check. Row j is
// probed first at e's offset in row i counted from its end, where a stencil's interior rows keep
// the transpose; the answer does not depend on the probe. j must be in [0, n).
__device__ __forceinline__ bool transpose_missing(const Index *rowptr, const Index *colidx, Index i, Index e) {
  const Index j = colidx[e];
  if (j == i) return false;
  const Index lo = rowptr[j], hi = rowptr[j + 1], guess = lo + (rowptr[i + 1] - 1 - e);
  return !find_in_range_from(colidx, lo, hi, i, guess < hi ? guess : Index(-1), [](Index) {});
}

} // namespace pgk::cuda

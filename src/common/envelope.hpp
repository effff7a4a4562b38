// Bandwidth and profile of a matrix as it would be after a symmetric permutation, computed
// without building the permuted matrix: how an ordering reports its quality.
#pragma once

#include <cstdint>
#include <vector>

#include "src/common/csr.hpp"

namespace pgk {

struct Envelope {
  Index bandwidth = 0;      // max |i - j| over stored entries
  std::int64_t profile = 0; // sum over rows i of i - min(j in row i, i), as pgk::profile
};

// perm[new] = old; an empty perm means the identity (then equal to bandwidth()/profile()).
Envelope envelope(const CsrView &a, const std::vector<Index> &perm = {});

struct EnvelopeChange {
  Envelope before, after;
};

// envelope(a) and envelope(a, perm) together, as an ordering's report needs them: one pass over
// the rows of a in their stored order (the permuted row is only looked up, so the column indices
// stream instead of being gathered row by row in the new order), split over `threads` threads
// (<= 0: the hardware's). Maxima and sums of integers: the same result for any thread count.
EnvelopeChange envelope_change(const CsrView &a, const std::vector<Index> &perm, int threads);

} // namespace pgk

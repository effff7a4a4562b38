// The affine maps of trilf's apply scans (tridiag.cu: path order; lanes.cu: four lanes): both
// triangular solves are recurrences x_t = a_t x_{t-1} + b_t, scanned as maps under composition.
#pragma once

#include "src/common/csr.hpp"

namespace pgk::cuda::trilf::detail {

constexpr int kScanThreads = 256, kScanItems = 8, kTile = kScanThreads * kScanItems;
// A row's sensitivity to its tile's carry-in is the product of the multipliers since the tile
// start: it decays geometrically along a long path (|m| ~ 0.4 on ANISO2) and only reaches 0 by
// underflow, after ~700 rows, so a fix pass would touch a third of every tile. Sensitivities
// at most 2^-60 are dropped instead: what they would add is below 2^-60 |carry|, under a
// hundredth of one rounding unit of the carry, and the cut-off is fixed, so results stay
// deterministic.
constexpr double kSensitivityDrop = 0x1p-60;

struct Affine {
  double a, b; // x -> a x + b
};
// first, then second. A constant map (a == 0) absorbs whatever came before, exactly; this
// also keeps 0 * inf out of long products.
__device__ inline Affine compose(const Affine &f, const Affine &s) {
  if (s.a == 0) return s;
  return Affine{f.a == 0 ? 0.0 : s.a * f.a, s.a * f.b + s.b};
}
struct MaxIndex {
  __device__ Index operator()(Index x, Index y) const { return x > y ? x : y; }
};
struct Compose {
  __device__ Affine operator()(const Affine &f, const Affine &s) const { return compose(f, s); }
};

} // namespace pgk::cuda::trilf::detail

// Long tridiagonal paths for the tests of the scan LU (src/trilf/scan_lu.hpp): the host
// emulation's unit tests (scan_lu.cpp) and the device's (tests/gpu/trilf/scan_lu.cpp).
#pragma once

#include "src/common/csr.hpp"
#include "src/common/rng.hpp"
#include "src/trilf/tridiag.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pgk::trilf::test {

// T on paths of the given lengths, in order, and the identity permutation.
struct PathSet {
  std::string name;
  Tridiagonal t;
  std::vector<Index> path_start{0};
  std::vector<Index> perm;
};

enum class Coupling {
  Anisotropic, // l = u = -(1 + r/100), a = |l| + |u| + 2 eps (1 + r): a strong line, weak rest
  Upwind,      // l = -(1 + peclet), u = -1, a = |l| + |u| + eps: first-order upwind convection
  Central,     // l = -(1 + peclet/2), u = peclet/2 - 1 > 0: l u < 0, a = 2 + eps
};

// r: uniform in [0, 1) from `seed`, one draw per row.
inline PathSet make_paths(std::string name, const std::vector<Index> &lengths, Coupling kind, double eps,
                          std::uint64_t seed, double peclet = 3.0) {
  PathSet p;
  p.name = std::move(name);
  Index n = 0;
  for (const Index len : lengths) p.path_start.push_back(n += len);
  const auto un = static_cast<std::size_t>(n);
  p.t.lower.assign(un, 0.0);
  p.t.diag.assign(un, 0.0);
  p.t.upper.assign(un, 0.0);
  SplitMix64 rng(seed);
  for (std::size_t k = 0; k < un; ++k) {
    const double r = rng.uniform();
    double l = -1, u = -1, a = 0;
    if (kind == Coupling::Anisotropic) {
      l = u = -(1 + r / 100);
      a = 2 * (1 + r / 100) + 2 * eps * (1 + r);
    } else if (kind == Coupling::Upwind) {
      l = -(1 + peclet);
      a = 2 + peclet + eps * (1 + r);
    } else {
      l = -(1 + peclet / 2);
      u = peclet / 2 - 1;
      a = 2 + eps * (1 + r);
    }
    p.t.lower[k] = l;
    p.t.upper[k] = u;
    p.t.diag[k] = a;
  }
  for (std::size_t q = 0; q + 1 < p.path_start.size(); ++q) {
    p.t.lower[static_cast<std::size_t>(p.path_start[q])] = 0;
    p.t.upper[static_cast<std::size_t>(p.path_start[q + 1] - 1)] = 0;
  }
  p.perm.resize(un);
  for (std::size_t k = 0; k < un; ++k) p.perm[k] = static_cast<Index>(k);
  return p;
}

// Lengths that cross tile boundaries (2048 rows) everywhere: one long path, short ones around it,
// long ones that start mid-tile, and a total that is not a multiple of a tile.
inline std::vector<Index> mixed_lengths(Index longest) {
  return {3, longest, 1, 700, 1023, 1024, 2047, 5000, 1, 2, longest / 3 + 77, 9};
}

// The test sets: anisotropic lines (eps from 1e-3 to 1e-10, the last nearly singular), upwind
// and central convection; 10^4..4.5 10^5 rows per long path.
inline std::vector<PathSet> long_path_sets() {
  std::vector<PathSet> v;
  v.push_back(make_paths("aniso eps 1e-3, one 100000-row path", {100000}, Coupling::Anisotropic, 1e-3, 1));
  v.push_back(make_paths("aniso eps 1e-6, mixed", mixed_lengths(60000), Coupling::Anisotropic, 1e-6, 2));
  v.push_back(make_paths("aniso eps 1e-10, one 100000-row path", {100000}, Coupling::Anisotropic, 1e-10, 3));
  v.push_back(make_paths("upwind peclet 100, mixed", mixed_lengths(30000), Coupling::Upwind, 1e-3, 4, 100.0));
  v.push_back(make_paths("upwind peclet 0.5, 10000 rows", {10000, 10000}, Coupling::Upwind, 1e-8, 5, 0.5));
  v.push_back(make_paths("central cell peclet 3, mixed", mixed_lengths(40000), Coupling::Central, 0.5, 6, 3.0));
  // 342 tiles: the tile carries take two chunks of kScanThreads tiles.
  v.push_back(make_paths("aniso eps 1e-8, 700001 rows", {250000, 1, 450000}, Coupling::Anisotropic, 1e-8, 7));
  return v;
}

// Pivots by the recurrence in long double: the yardstick for both double computations.
inline std::vector<long double> pivots_long_double(const Tridiagonal &t) {
  std::vector<long double> d(t.diag.size());
  for (std::size_t k = 0; k < d.size(); ++k) {
    const long double update =
        k > 0 && t.lower[k] != 0 ? static_cast<long double>(t.lower[k]) / d[k - 1] * t.upper[k - 1] : 0.0L;
    d[k] = t.diag[k] - update;
  }
  return d;
}

// Largest |x_k - y_k| / |y_k| (0 where both are 0, infinite where only y_k is).
template <class X, class Y> double max_rel_diff(const std::vector<X> &x, const std::vector<Y> &y) {
  double worst = 0;
  for (std::size_t k = 0; k < x.size() && k < y.size(); ++k) {
    const long double d = std::fabs(static_cast<long double>(x[k]) - static_cast<long double>(y[k]));
    if (d == 0) continue;
    worst = std::max(worst, y[k] != 0 ? static_cast<double>(d / std::fabs(static_cast<long double>(y[k]))) : HUGE_VAL);
  }
  return x.size() == y.size() ? worst : HUGE_VAL;
}

} // namespace pgk::trilf::test

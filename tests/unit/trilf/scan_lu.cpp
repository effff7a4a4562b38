// The host emulation of the device's speculative scan LU (src/trilf/scan_lu.hpp, factor_scan)
// against the reference factor(): bit for bit on paths shorter than kScanMinPath and where a
// path is redone from its head; within rounding on long paths (anisotropic and convection
// coefficients, 10^4..10^5 rows), with the reference's splits, replacements and errors.
//
// Measured (this file's printouts): relative pivot and multiplier difference to the reference
// <= 2.2e-14 on every set here (2.9e-15 on the generated problems), which is the reference's own
// error: on the long paths' rows, against the recurrence in long double, the scan's pivots are
// within 1.2e-16, the loop's within 2.2e-14 (the 100,000-row nearly singular anisotropic line,
// eps = 1e-10). The tests allow 1e-12.
#include "tests/unit/trilf/long_paths.hpp"
#include "tests/unit/trilf/support.hpp"

#include "src/trilf/scan_lu.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace pgk::trilf::test {
namespace {

constexpr double kTol = 1e-12; // relative, pivots and multipliers, scan against the loop

bool same_bits(const std::vector<double> &x, const std::vector<double> &y) {
  if (x.size() != y.size()) return false;
  for (std::size_t k = 0; k < x.size(); ++k)
    if (std::memcmp(&x[k], &y[k], sizeof(double)) != 0) return false;
  return true;
}

void expect_same_factor(const TridiagonalFactor &got, const TridiagonalFactor &want) {
  EXPECT_TRUE(same_bits(got.pivot, want.pivot));
  EXPECT_TRUE(same_bits(got.mult, want.mult));
  EXPECT_TRUE(same_bits(got.effective.lower, want.effective.lower));
  EXPECT_TRUE(same_bits(got.effective.diag, want.effective.diag));
  EXPECT_TRUE(same_bits(got.effective.upper, want.effective.upper));
  EXPECT_EQ(got.splits, want.splits);
  EXPECT_EQ(got.replaced, want.replaced);
}

// Scan against the loop: counts and T~ equal, pivots and multipliers within kTol; the rows of
// paths shorter than kScanMinPath bit for bit. Returns the largest relative pivot difference.
double expect_close_factor(const TridiagonalFactor &got, const TridiagonalFactor &want,
                           const std::vector<Index> &path_start) {
  EXPECT_EQ(got.splits, want.splits);
  EXPECT_EQ(got.replaced, want.replaced);
  EXPECT_TRUE(same_bits(got.effective.lower, want.effective.lower));
  EXPECT_TRUE(same_bits(got.effective.upper, want.effective.upper));
  EXPECT_LE(max_rel_diff(got.effective.diag, want.effective.diag), kTol);
  const double dp = max_rel_diff(got.pivot, want.pivot), dm = max_rel_diff(got.mult, want.mult);
  EXPECT_LE(dp, kTol);
  EXPECT_LE(dm, kTol);
  for (std::size_t p = 0; p + 1 < path_start.size(); ++p) {
    const Index h = path_start[p], end = path_start[p + 1];
    if (end - h >= kScanMinPath) continue;
    for (Index k = h; k < end; ++k) {
      const auto uk = static_cast<std::size_t>(k);
      if (std::memcmp(&got.pivot[uk], &want.pivot[uk], sizeof(double)) != 0 ||
          std::memcmp(&got.mult[uk], &want.mult[uk], sizeof(double)) != 0) {
        ADD_FAILURE() << "short path row " << k << ": pivot " << got.pivot[uk] << " vs " << want.pivot[uk];
        return std::max(dp, dm);
      }
    }
  }
  return std::max(dp, dm);
}

TEST(TrilfScanLu, LongPathsAgreeWithTheLoopWithinRounding) {
  for (const PathSet &s : long_path_sets()) {
    SCOPED_TRACE(s.name);
    const TridiagonalFactor ref = factor(s.t, s.perm);
    const TridiagonalFactor scan = factor_scan(s.t, s.perm, s.path_start, PivotOptions());
    const double d = expect_close_factor(scan, ref, s.path_start);
    // Against the recurrence in long double, on the rows of the long paths (the scan's): the scan
    // is no less accurate than the loop it replaces.
    const std::vector<long double> exact = pivots_long_double(s.t);
    std::vector<double> scan_rows, loop_rows;
    std::vector<long double> exact_rows;
    for (std::size_t p = 0; p + 1 < s.path_start.size(); ++p)
      if (s.path_start[p + 1] - s.path_start[p] >= kScanMinPath)
        for (auto k = static_cast<std::size_t>(s.path_start[p]); k < static_cast<std::size_t>(s.path_start[p + 1]);
             ++k) {
          scan_rows.push_back(scan.pivot[k]);
          loop_rows.push_back(ref.pivot[k]);
          exact_rows.push_back(exact[k]);
        }
    const double es = max_rel_diff(scan_rows, exact_rows), er = max_rel_diff(loop_rows, exact_rows);
    EXPECT_LE(es, er + 1e-15);
    std::printf("%-40s scan vs loop %.2e | long paths against long double: scan %.2e, loop %.2e\n", s.name.c_str(), d,
                es, er);
  }
}

TEST(TrilfScanLu, EveryPathByTheScanStillAgrees) {
  // min_path 1: the scan for every path, short ones and single rows included.
  for (const PathSet &s : long_path_sets()) {
    SCOPED_TRACE(s.name);
    const TridiagonalFactor ref = factor(s.t, s.perm);
    const TridiagonalFactor scan = factor_scan(s.t, s.perm, s.path_start, PivotOptions(), 1);
    EXPECT_LE(max_rel_diff(scan.pivot, ref.pivot), kTol);
    EXPECT_LE(max_rel_diff(scan.mult, ref.mult), kTol);
    EXPECT_EQ(scan.splits, ref.splits);
    EXPECT_EQ(scan.replaced, ref.replaced);
  }
}

TEST(TrilfScanLu, ShortPathsAreTheLoopBitForBit) {
  // The usual matrices: every path shorter than kScanMinPath, so the scan never runs.
  for (const char *spec_text : {"aniso2d:nx=37,ny=29,variant=2", "convdiff2d:n=40,peclet=50", "lap3d7:n=12"}) {
    SCOPED_TRACE(spec_text);
    const Csr a = spec(spec_text);
    const PathOrder order = order_paths(extract_linear_forest(view_of(a), FactorOptions()));
    ASSERT_LT(order.longest, kScanMinPath);
    const Tridiagonal t = assemble(view_of(a), order);
    expect_same_factor(factor_scan(t, order.perm, order.path_start, PivotOptions()), factor(t, order.perm));
  }
  // The scan never used (min_path beyond every path) on the long sets: the loop exactly.
  const PathSet s = make_paths("aniso", mixed_lengths(20000), Coupling::Anisotropic, 1e-3, 11);
  expect_same_factor(factor_scan(s.t, s.perm, s.path_start, PivotOptions(), 1 << 30), factor(s.t, s.perm));
}

TEST(TrilfScanLu, GeneratedProblemsWithLongPaths) {
  // The pipeline's own forests: snake-like paths of 10^4..3 10^4 rows.
  for (const char *spec_text :
       {"aniso2d:nx=2000,ny=200,variant=1", "aniso2d5:nx=4000,ny=25,ax=1,ay=1e-6", "convdiff2d:n=900,peclet=20000"}) {
    SCOPED_TRACE(spec_text);
    const Csr a = spec(spec_text);
    const PathOrder order = order_paths(extract_linear_forest(view_of(a), FactorOptions()));
    EXPECT_GE(order.longest, 10000);
    const Tridiagonal t = assemble(view_of(a), order);
    const TridiagonalFactor ref = factor(t, order.perm);
    const double d =
        expect_close_factor(factor_scan(t, order.perm, order.path_start, PivotOptions()), ref, order.path_start);
    std::printf("%-40s longest path %lld: scan vs loop %.2e\n", spec_text, static_cast<long long>(order.longest), d);
  }
}

TEST(TrilfScanLu, ForcedSplitIsTheLoopsSplit) {
  PathSet s = make_paths("aniso", {3000, 40000, 500}, Coupling::Anisotropic, 1e-4, 21);
  const Index k = 3000 + 12345; // mid-path, mid-tile
  const auto uk = static_cast<std::size_t>(k);
  const TridiagonalFactor before = factor(s.t, s.perm);
  // The loop's update at k, exactly: d'_k = a_k - update = 0, a split.
  s.t.diag[uk] = (s.t.lower[uk] / before.pivot[uk - 1]) * s.t.upper[uk - 1];
  const TridiagonalFactor ref = factor(s.t, s.perm);
  ASSERT_EQ(ref.splits, 1);
  const TridiagonalFactor scan = factor_scan(s.t, s.perm, s.path_start, PivotOptions());
  expect_close_factor(scan, ref, s.path_start);
  EXPECT_EQ(scan.mult[uk], 0.0);
  EXPECT_EQ(scan.effective.lower[uk], 0.0);
  EXPECT_EQ(scan.effective.upper[uk - 1], 0.0);
}

TEST(TrilfScanLu, ReplacedPivotsAreTheLoops) {
  // Mid-path: no coupling to k-1 in this row (l_k = 0, u_{k-1} kept) and a zero diagonal.
  PathSet s = make_paths("upwind", {50000, 7}, Coupling::Upwind, 1e-3, 31, 10.0);
  const auto uk = std::size_t{23456};
  s.t.lower[uk] = 0;
  s.t.diag[uk] = 0;
  const TridiagonalFactor ref = factor(s.t, s.perm);
  ASSERT_EQ(ref.replaced, 1);
  const TridiagonalFactor scan = factor_scan(s.t, s.perm, s.path_start, PivotOptions());
  expect_close_factor(scan, ref, s.path_start);
  EXPECT_EQ(scan.pivot[uk], ref.pivot[uk]); // sign(a_k) s_k, exactly
  // At a head: the whole path is redone by the loop from its first row, so bit for bit.
  PathSet h = make_paths("aniso", {30000}, Coupling::Anisotropic, 1e-3, 32);
  h.t.diag[0] = 0;
  const TridiagonalFactor href = factor(h.t, h.perm);
  ASSERT_EQ(href.replaced, 1);
  expect_same_factor(factor_scan(h.t, h.perm, h.path_start, PivotOptions()), href);
}

TEST(TrilfScanLu, ErrorsNameTheLoopsRow) {
  PathSet s = make_paths("aniso", {5, 20000}, Coupling::Anisotropic, 1e-3, 41);
  s.t.lower[9000] = 1e308; // m = 1e308 / d' with d' < 1... overflows
  s.t.diag[9000] = 1e308;
  std::string want, got;
  try {
    factor(s.t, s.perm);
  } catch (const std::domain_error &e) {
    want = e.what();
  }
  try {
    factor_scan(s.t, s.perm, s.path_start, PivotOptions());
  } catch (const std::domain_error &e) {
    got = e.what();
  }
  EXPECT_NE(want.find("overflows at permuted row 9000"), std::string::npos) << want;
  EXPECT_EQ(got, want);
  EXPECT_THROW(factor_scan(s.t, s.perm, {0, 5}, PivotOptions()), std::invalid_argument);
}

} // namespace
} // namespace pgk::trilf::test

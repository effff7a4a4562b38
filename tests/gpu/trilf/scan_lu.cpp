// The device's speculative scan LU (kernels/trilf/scan_lu.cu, tridiag.cu) on long paths: its
// pivots and multipliers must equal the host emulation's (pgk::trilf::factor_scan, the same
// scan shape and operations) bit for bit, and the reference loop's (factor) within 1e-12
// relative, with the reference's splits, replacements and error messages; paths shorter than
// kScanMinPath, and every path when the scan is switched off, the reference's bit for bit. Sets:
// tests/unit/trilf/long_paths.hpp (anisotropic and convection paths of 10^4..10^5 rows, a
// forced split, replaced pivots), and the whole device pipeline on a generated problem whose
// forest has 30,000-row paths.
#include "kernels/trilf/internal.hpp"
#include "kernels/trilf/pc_gpu.hpp"
#include "src/trilf/pc.hpp"
#include "src/matgen/generators.hpp"
#include "src/trilf/scan_lu.hpp"
#include "tests/gpu/trilf/trilf_test.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

using pgk::Index;
namespace tl = pgk::trilf;
namespace dt = pgk::cuda::trilf;
using namespace pgk::test::trilf_test;
using tl::test::PathSet;

constexpr double kTol = 1e-12;
constexpr Index kNever = std::numeric_limits<Index>::max(); // min_path: the scan switched off

struct DeviceLu {
  std::vector<double> pivot, mult;
  Index splits = 0, replaced = 0;
};

// T and its path order on the device, factor_tridiagonal, the factors back.
DeviceLu device_factor(const PathSet &s, Index min_path, double tau = tl::PivotOptions().rel_tol) {
  const std::size_t n = s.t.diag.size();
  dt::DeviceTridiagonal t;
  t.n = static_cast<Index>(n);
  t.lower.upload(s.t.lower.data(), n, nullptr);
  t.diag.upload(s.t.diag.data(), n, nullptr);
  t.upper.upload(s.t.upper.data(), n, nullptr);
  dt::DevicePathOrder order;
  std::vector<Index> head(n);
  for (std::size_t p = 0; p + 1 < s.path_start.size(); ++p) {
    for (Index k = s.path_start[p]; k < s.path_start[p + 1]; ++k) head[static_cast<std::size_t>(k)] = s.path_start[p];
    order.longest = std::max(order.longest, s.path_start[p + 1] - s.path_start[p]);
  }
  order.npaths = static_cast<Index>(s.path_start.size()) - 1;
  order.perm.upload(s.perm.data(), n, nullptr);
  order.iperm.upload(s.perm.data(), n, nullptr); // the identity
  order.path_head.upload(head.data(), n, nullptr);
  dt::factor_tridiagonal(t, order, tau, nullptr, min_path);
  return DeviceLu{t.pivot.download(nullptr), t.mult.download(nullptr), t.splits, t.replaced};
}

void check_set(const PathSet &s) {
  const tl::TridiagonalFactor ref = tl::factor(s.t, s.perm);
  for (const Index min_path : {tl::kScanMinPath, Index{1}, kNever}) {
    SCOPED_TRACE("min_path " + std::to_string(min_path));
    const tl::TridiagonalFactor emu = tl::factor_scan(s.t, s.perm, s.path_start, tl::PivotOptions(), min_path);
    const DeviceLu d = device_factor(s, min_path);
    EXPECT_TRUE(pgk::test::SameBits(d.pivot, emu.pivot, "pivots (host emulation)"));
    EXPECT_TRUE(pgk::test::SameBits(d.mult, emu.mult, "multipliers (host emulation)"));
    if (min_path == kNever) {
      EXPECT_TRUE(pgk::test::SameBits(d.pivot, ref.pivot, "pivots (reference, no scan)"));
    }
    EXPECT_LE(max_rel_diff(d.pivot, ref.pivot), kTol);
    EXPECT_LE(max_rel_diff(d.mult, ref.mult), kTol);
    EXPECT_EQ(d.splits, ref.splits);
    EXPECT_EQ(d.replaced, ref.replaced);
    if (min_path == tl::kScanMinPath) {
      const DeviceLu again = device_factor(s, min_path);
      EXPECT_TRUE(pgk::test::SameBits(again.pivot, d.pivot, "second run"));
      std::printf("%-40s device vs loop: pivots %.2e, multipliers %.2e\n", s.name.c_str(),
                  max_rel_diff(d.pivot, ref.pivot), max_rel_diff(d.mult, ref.mult));
    }
  }
}

class GpuTrilfScanLu : public pgk::test::GpuTest {};

TEST_F(GpuTrilfScanLu, LongPathsMatchEmulationAndReference) {
  for (const PathSet &s : tl::test::long_path_sets()) {
    SCOPED_TRACE(s.name);
    check_set(s);
  }
}

TEST_F(GpuTrilfScanLu, SplitsAndReplacementsAreTheReferences) {
  PathSet split = tl::test::make_paths("forced split", {3000, 40000, 500}, tl::test::Coupling::Anisotropic, 1e-4, 21);
  const std::size_t k = 3000 + 12345;
  const tl::TridiagonalFactor before = tl::factor(split.t, split.perm);
  split.t.diag[k] = (split.t.lower[k] / before.pivot[k - 1]) * split.t.upper[k - 1]; // d'_k = 0 in the loop
  ASSERT_EQ(tl::factor(split.t, split.perm).splits, 1);
  check_set(split);
  PathSet mid = tl::test::make_paths("replaced mid-path", {50000, 7}, tl::test::Coupling::Upwind, 1e-3, 31, 10.0);
  mid.t.lower[23456] = 0;
  mid.t.diag[23456] = 0;
  ASSERT_EQ(tl::factor(mid.t, mid.perm).replaced, 1);
  check_set(mid);
  PathSet head = tl::test::make_paths("replaced at the head", {30000}, tl::test::Coupling::Anisotropic, 1e-3, 32);
  head.t.diag[0] = 0;
  check_set(head);
}

TEST_F(GpuTrilfScanLu, OverflowIsReportedAtTheReferencesRow) {
  PathSet s = tl::test::make_paths("overflow", {5, 20000}, tl::test::Coupling::Anisotropic, 1e-3, 41);
  s.t.lower[9000] = 1e308;
  s.t.diag[9000] = 1e308;
  const std::optional<HostError> want = host_error([&] { tl::factor(s.t, s.perm); });
  ASSERT_TRUE(want);
  expect_same_error(*want, [&] { device_factor(s, tl::kScanMinPath); });
}

// The device pipeline (TrilfDevice) on a problem with 30,000-row paths: pivots and multipliers
// are the emulation's bit for bit and the reference's within kTol; apply as the host's solve.
TEST_F(GpuTrilfScanLu, PipelineWithLongPaths) {
  const pgk::Csr a = pgk::gen::generate(pgk::gen::parse_spec("aniso2d:nx=2000,ny=200,variant=1"));
  const tl::Options opt;
  const Reference ref(pgk::view_of(a), opt);
  ASSERT_GE(ref.order.longest, 10000);
  const pgk::test::DeviceCsr d(a);
  pgk::cuda::TrilfDevice dev;
  dev.setup(d.view, opt, nullptr);
  EXPECT_TRUE(pgk::test::SameIndices(dev.permutation(), ref.order.perm, "permutation"));
  EXPECT_TRUE(pgk::test::SameBits(dev.pivots(), ref.scan.pivot, "pivots (host emulation)"));
  EXPECT_TRUE(pgk::test::SameBits(dev.multipliers(), ref.scan.mult, "multipliers (host emulation)"));
  EXPECT_LE(max_rel_diff(dev.pivots(), ref.tf.pivot), kTol);
  EXPECT_LE(max_rel_diff(dev.multipliers(), ref.tf.mult), kTol);
  EXPECT_EQ(dev.info().splits, ref.tf.splits);
  EXPECT_EQ(dev.info().replaced, ref.tf.replaced);
  const std::vector<double> b = pgk::test::random_vector(static_cast<std::size_t>(a.nrows), 5);
  std::vector<double> x(b.size());
  tl::solve(ref.tf, b.data(), x.data());
  EXPECT_TRUE(pgk::test::Close(device_apply(dev, b, false), x, 1e-12, "apply"));
  std::printf("pipeline, longest path %lld: device vs loop %.2e; lu %.3f ms\n",
              static_cast<long long>(ref.order.longest), max_rel_diff(dev.pivots(), ref.tf.pivot), dev.times().lu);
}

} // namespace

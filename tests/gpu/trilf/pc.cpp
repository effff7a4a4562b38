// Device PC trilf, scalar variant (kernels/trilf/pc_gpu.hpp, primitives.hpp), against the host
// reference (src/trilf/*.hpp) on every corpus matrix with values: the device's weight graph,
// [0,n]-factor (n = 1..8), forest, permutation, T, pivots, multipliers, splits/replacements and
// info must equal the reference's bit for bit (pivots and multipliers: those of the reference's
// emulation of the device's scan LU, factor_scan, which equal the reference's bit for bit on
// paths shorter than kScanMinPath and within rounding on longer ones); apply and apply_transpose must agree with
// pgk::trilf::solve / solve_transpose to the entry's tolerance (1e-12 relative, 2-norm; 1e-9
// for the matrices built to produce tiny pivots), wherever the host's own solve is accurate;
// two setups and two applies must be bit-identical; update_values must give the reference's T
// and pivots. A matrix the reference refuses must be refused with the same message.
// Error paths, the block variant through TrilfDevice and the cuSPARSE solver: pc_errors.cpp.
#include "kernels/trilf/pc_gpu.hpp"
#include "kernels/trilf/primitives.hpp"
#include "src/common/rng.hpp"
#include "src/trilf/factor.hpp"
#include "src/trilf/paths.hpp"
#include "src/trilf/pc.hpp"
#include "src/trilf/scan_lu.hpp"
#include "src/trilf/tridiag.hpp"
#include "src/trilf/weights.hpp"
#include "tests/gpu/trilf/trilf_test.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using pgk::Csr;
using pgk::CsrView;
using pgk::Index;
using pgk::test::CorpusEntry;
namespace tl = pgk::trilf;
namespace dt = pgk::cuda::trilf;
using namespace pgk::test::trilf_test;

// ---- weights and factors --------------------------------------------------------------------

// Device W (on A's or the symmetrized pattern, zeros for non-edges) equals the host's W.
void check_weights(const pgk::test::DeviceCsr &d, const Csr &a, tl::Weight kind, dt::DeviceWeightGraph &w) {
  dt::build_weight_graph(d.view, kind, w, nullptr);
  const Csr ref = tl::weight_graph(pgk::view_of(a), kind);
  const Csr dw = pgk::test::download(w.view);
  Csr got;
  got.nrows = got.ncols = a.nrows;
  got.rowptr.assign(1, 0);
  for (Index i = 0; i < a.nrows; ++i) {
    for (Index e = dw.rowptr[i]; e < dw.rowptr[i + 1]; ++e) {
      ASSERT_GE(dw.values[e], 0.0) << "negative weight at (" << i << ", " << dw.colidx[e] << ")";
      if (dw.values[e] > 0) {
        got.colidx.push_back(dw.colidx[e]);
        got.values.push_back(dw.values[e]);
      }
    }
    got.rowptr.push_back(static_cast<Index>(got.colidx.size()));
  }
  EXPECT_TRUE(pgk::test::SameIndices(got.rowptr, ref.rowptr, "W rowptr"));
  EXPECT_TRUE(pgk::test::SameIndices(got.colidx, ref.colidx, "W colidx"));
  EXPECT_TRUE(pgk::test::SameBits(got.values, ref.values, "W weights"));
}

class GpuTrilfWeights : public pgk::test::GpuTest, public ::testing::WithParamInterface<tl::Weight> {};

TEST_P(GpuTrilfWeights, MatchReference) {
  const int n = pgk::test::for_each_entry(trilf_corpus(), [&](const CorpusEntry &e) {
    const pgk::test::DeviceCsr d(e.matrix());
    dt::DeviceWeightGraph w;
    check_weights(d, e.matrix(), GetParam(), w);
  });
  std::printf("weights %s: %d matrices\n", tl::to_string(GetParam()), n);
}

INSTANTIATE_TEST_SUITE_P(Kinds, GpuTrilfWeights, ::testing::Values(tl::Weight::Abs, tl::Weight::Scaled),
                         [](const ::testing::TestParamInfo<tl::Weight> &p) {
                           return std::string(tl::to_string(p.param));
                         });

// The factor options of a factor test: the weight kind, and the defaults or a charged variant.
struct FactorCase {
  std::string name;
  tl::FactorOptions opt;
};
void PrintTo(const FactorCase &c, std::ostream *os) { *os << c.name; }

std::vector<FactorCase> factor_cases() {
  std::vector<FactorCase> v;
  for (tl::Weight kind : {tl::Weight::Abs, tl::Weight::Scaled}) {
    tl::FactorOptions fo;
    fo.weight = kind;
    v.push_back({std::string(tl::to_string(kind)), fo});
    fo.rounds = 9;
    fo.charge_period = 3;
    fo.charge_offset = 2;
    fo.seed = 99;
    v.push_back({std::string(tl::to_string(kind)) + "_M9_m3_km2_seed99", fo});
  }
  return v;
}

class GpuTrilfFactor : public pgk::test::GpuTest, public ::testing::WithParamInterface<FactorCase> {};

// [0,n]-factor for n = 1..8 on the device W equals the host's on the host W.
TEST_P(GpuTrilfFactor, EveryDegreeMatchesReference) {
  const tl::FactorOptions &fo = GetParam().opt;
  int cases = 0;
  pgk::test::for_each_entry(trilf_corpus(), [&](const CorpusEntry &e) {
    const pgk::test::DeviceCsr d(e.matrix());
    dt::DeviceWeightGraph w;
    dt::build_weight_graph(d.view, fo.weight, w, nullptr);
    const Csr ref_w = tl::weight_graph(pgk::view_of(e.matrix()), fo.weight);
    for (int n = 1; n <= tl::kMaxDegree; ++n) {
      SCOPED_TRACE("n = " + std::to_string(n));
      tl::FactorOptions o = fo;
      o.max_degree = n;
      const tl::Factor ref = tl::parallel_factor(pgk::view_of(ref_w), o);
      dt::DeviceFactor f;
      dt::parallel_factor(w.view, o, f, nullptr);
      EXPECT_TRUE(pgk::test::SameIndices(f.nbr.download(nullptr), ref.nbr, "factor slots"));
      EXPECT_EQ(f.rounds_run, ref.rounds_run);
      EXPECT_EQ(f.maximal, ref.maximal);
      EXPECT_EQ(f.edges, ref.edges());
      EXPECT_EQ(f.n, n);
      ++cases;
    }
  });
  std::printf("factor %s: %d cases\n", GetParam().name.c_str(), cases);
}

INSTANTIATE_TEST_SUITE_P(Options, GpuTrilfFactor, ::testing::ValuesIn(factor_cases()),
                         [](const ::testing::TestParamInfo<FactorCase> &p) { return p.param.name; });

// ---- the full pipeline ------------------------------------------------------------------------

bool close(double x, double y) { return std::fabs(x - y) <= 1e-12 * std::max(1.0, std::fabs(y)); }

// tol_to_reference: largest relative difference allowed between the device's pivots and
// multipliers and the reference's (0: not compared, for the matrices built to have tiny pivots).
void compare_setup(const pgk::cuda::TrilfDevice &dev, const Reference &ref, Index n, double tol_to_reference) {
  EXPECT_TRUE(pgk::test::SameIndices(dev.factor_neighbours(), ref.f.nbr, "factor slots"));
  EXPECT_TRUE(pgk::test::SameIndices(dev.forest_neighbours(), ref.forest.nbr, "forest"));
  EXPECT_TRUE(pgk::test::SameIndices(dev.permutation(), ref.order.perm, "permutation"));
  const tl::Tridiagonal t = dev.tridiagonal();
  EXPECT_TRUE(pgk::test::SameBits(t.lower, ref.t.lower, "T lower"));
  EXPECT_TRUE(pgk::test::SameBits(t.diag, ref.t.diag, "T diagonal"));
  EXPECT_TRUE(pgk::test::SameBits(t.upper, ref.t.upper, "T upper"));
  // Paths of at least kScanMinPath rows are factored by the scan (src/trilf/scan_lu.hpp): bit for
  // bit its host emulation, and the reference's pivots within rounding; shorter paths are the
  // reference's bit for bit (the emulation's, tests/unit/trilf/scan_lu.cpp).
  EXPECT_TRUE(pgk::test::SameBits(dev.pivots(), ref.scan.pivot, "pivots"));
  EXPECT_TRUE(pgk::test::SameBits(dev.multipliers(), ref.scan.mult, "multipliers"));
  if (tol_to_reference > 0) {
    EXPECT_LE(max_rel_diff(dev.pivots(), ref.tf.pivot), tol_to_reference) << "pivots against the reference's";
    EXPECT_LE(max_rel_diff(dev.multipliers(), ref.tf.mult), tol_to_reference) << "multipliers against the reference's";
  }
  const tl::SetupInfo &di = dev.info(), &ri = ref.pc.info();
  EXPECT_EQ(di.forest.rounds_run, ri.forest.rounds_run);
  EXPECT_EQ(di.forest.maximal, ri.forest.maximal);
  EXPECT_EQ(di.forest.factor_edges, ri.forest.factor_edges);
  EXPECT_EQ(di.forest.cycles_broken, ri.forest.cycles_broken);
  EXPECT_EQ(di.forest.forest_edges, ri.forest.forest_edges);
  EXPECT_EQ(di.npaths, ri.npaths);
  EXPECT_EQ(di.longest, ri.longest);
  EXPECT_EQ(di.splits, ri.splits);
  EXPECT_EQ(di.replaced, ri.replaced);
  EXPECT_TRUE(close(di.c_id, ri.c_id)) << "c_id " << di.c_id << " vs " << ri.c_id;
  EXPECT_TRUE(close(di.c_pi, ri.c_pi)) << "c_pi " << di.c_pi << " vs " << ri.c_pi;
  EXPECT_EQ(dev.size(), n);
  EXPECT_TRUE(dev.ready());
}

int g_ill = 0; // setups with an ill-conditioned T~: applies not compared with the host

// Apply and apply_transpose against the host solves; apply twice (determinism); a second setup
// (identical everything); update_values with new values.
void check_applies(pgk::cuda::TrilfDevice &dev, const Reference &ref, const CorpusEntry &e, const CsrView &dv,
                   const tl::Options &opt, bool with_values) {
  const Csr &a = e.matrix();
  const auto n = static_cast<std::size_t>(a.nrows);
  const std::vector<double> b = pgk::test::random_vector(n, 17 + n);
  std::vector<double> x(n), xt(n);
  // The host solves with the factor the device holds (ref.scan: the reference's on paths shorter
  // than kScanMinPath). On long ill-conditioned paths the two factors' solutions differ by more
  // than 1e-12 although both are accurate (5e-12 on path:n=5000, host residuals 1.5e-12).
  tl::solve(ref.scan, b.data(), x.data());
  tl::solve_transpose(ref.scan, b.data(), xt.data());
  const std::vector<double> z1 = device_apply(dev, b, false), z2 = device_apply(dev, b, false);
  const std::vector<double> zt = device_apply(dev, b, true);
  const bool well = host_solve_accurate(ref.scan, b, x);
  g_ill += !well;
  if (well) {
    EXPECT_TRUE(pgk::test::Close(z1, x, e.apply_tol(), "apply"));
    EXPECT_TRUE(pgk::test::Close(zt, xt, e.apply_tol(), "apply_transpose"));
  }
  EXPECT_TRUE(pgk::test::SameBits(z1, z2, "apply run to run"));

  pgk::cuda::TrilfDevice dev2;
  dev2.setup(dv, opt, nullptr);
  EXPECT_TRUE(pgk::test::SameIndices(dev2.forest_neighbours(), dev.forest_neighbours(), "second setup: forest"));
  EXPECT_TRUE(pgk::test::SameIndices(dev2.permutation(), dev.permutation(), "second setup: permutation"));
  EXPECT_TRUE(pgk::test::SameBits(dev2.pivots(), dev.pivots(), "second setup: pivots"));
  EXPECT_TRUE(pgk::test::SameBits(device_apply(dev2, b, false), z1, "second setup: apply"));

  if (!with_values || n == 0) return;
  Csr a2 = a;
  pgk::SplitMix64 rng(5 + n);
  for (double &v : a2.values) v *= 0.5 + rng.uniform();
  tl::Preconditioner pc2 = ref.pc;
  pc2.update_values(pgk::view_of(a2));
  const tl::Tridiagonal t2 = tl::assemble(pgk::view_of(a2), ref.order);
  const tl::TridiagonalFactor tf2 = tl::factor_scan(t2, ref.order.perm, ref.order.path_start, opt.pivot);
  const pgk::test::DeviceCsr d2(a2);
  dev.update_values(d2.view, nullptr);
  const tl::Tridiagonal g2 = dev.tridiagonal();
  EXPECT_TRUE(pgk::test::SameBits(g2.diag, t2.diag, "update_values: T diagonal"));
  EXPECT_TRUE(pgk::test::SameBits(g2.lower, t2.lower, "update_values: T lower"));
  EXPECT_TRUE(pgk::test::SameBits(g2.upper, t2.upper, "update_values: T upper"));
  EXPECT_TRUE(pgk::test::SameBits(dev.pivots(), tf2.pivot, "update_values: pivots"));
  EXPECT_EQ(dev.info().splits, pc2.info().splits);
  EXPECT_EQ(dev.info().replaced, pc2.info().replaced);
  EXPECT_TRUE(pgk::test::SameIndices(dev.permutation(), ref.order.perm, "update_values: permutation kept"));
  std::vector<double> x2(n);
  tl::solve(tf2, b.data(), x2.data());
  if (well) {
    EXPECT_TRUE(pgk::test::Close(device_apply(dev, b, false), x2, e.apply_tol(), "apply after update_values"));
  }
}

// Full pipeline, one option set; with_values false hands the device a pattern (values null).
void check_pipeline(const CorpusEntry &e, const tl::Options &opt, bool with_values) {
  Csr pattern = e.matrix();
  if (!with_values) pattern.values.clear();
  const CsrView av = pgk::view_of(pattern);
  const pgk::test::DeviceCsr d(e.matrix(), with_values);
  std::optional<Reference> ref;
  const std::optional<HostError> refused = host_error([&] { ref.emplace(av, opt); });
  if (refused) { // the device must refuse it the same way
    expect_same_error(*refused, [&] {
      pgk::cuda::TrilfDevice dev;
      dev.setup(d.view, opt, nullptr);
    });
    return;
  }
  pgk::cuda::TrilfDevice dev;
  dev.setup(d.view, opt, nullptr);
  // Well-conditioned entries: the scan's pivots agree with the loop's to 1e-10 relative (2.2e-14
  // measured on the unit tests' long paths; the corpus's 200001-row path is the longest).
  const bool well_posed = e.apply_tol() <= 1e-12 && opt.pivot.rel_tol > 0;
  compare_setup(dev, *ref, pattern.nrows, well_posed ? 1e-10 : 0.0);
  check_applies(dev, *ref, e, d.view, opt, with_values);
}

class GpuTrilfPipeline : public pgk::test::GpuTest, public ::testing::WithParamInterface<NamedOptions> {};

TEST_P(GpuTrilfPipeline, MatchesReference) {
  g_ill = 0;
  const int n =
      pgk::test::for_each_entry(trilf_corpus(), [&](const CorpusEntry &e) { check_pipeline(e, GetParam().opt, true); });
  std::printf("pipeline %s: %d matrices (%d setups with an ill-conditioned T: apply not compared with the host)\n",
              GetParam().name.c_str(), n, g_ill);
}

INSTANTIATE_TEST_SUITE_P(Sets, GpuTrilfPipeline, ::testing::ValuesIn(scalar_option_sets()),
                         [](const ::testing::TestParamInfo<NamedOptions> &p) { return p.param.name; });

// Pattern only (values null, read as ones), default options.
class GpuTrilfPipelinePattern : public pgk::test::GpuTest {};

TEST_F(GpuTrilfPipelinePattern, MatchesReference) {
  g_ill = 0;
  const int n =
      pgk::test::for_each_entry(trilf_corpus(), [&](const CorpusEntry &e) { check_pipeline(e, tl::Options(), false); });
  std::printf("pipeline on patterns: %d matrices (%d ill-conditioned)\n", n, g_ill);
}

} // namespace

// Device block trilf (kernels/trilf/block_pc.hpp) against the host reference
// (src/trilf/block.hpp) on every corpus matrix with values: pairing (both rules), coarse graph (bitwise),
// slots, path starts, assembled blocks (bitwise), factor (splits/replaced, values to rounding),
// SetupInfo, apply / apply_transpose (to the entry's tolerance, where the host's own solve is
// accurate), run-to-run identity and update_values; a matrix the reference refuses is refused
// with the same message. Error paths: NaN in setup and update_values, pivot overflow, bad
// options.
#include "kernels/trilf/block_pc.hpp"
#include "kernels/trilf/primitives.hpp"
#include "src/matgen/generators.hpp"
#include "src/trilf/block.hpp"
#include "src/trilf/coverage.hpp"
#include "src/trilf/weights.hpp"
#include "tests/gpu/trilf/trilf_test.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using pgk::Csr;
using pgk::CsrView;
using pgk::Index;
using pgk::cuda::trilf::BlockPipeline;
using pgk::test::CorpusEntry;
namespace tl = pgk::trilf;
namespace dt = pgk::cuda::trilf;
using namespace pgk::test::trilf_test;

struct Reference {
  tl::Pairing p;
  Csr cg;
  tl::BlockOrder ord;
  tl::BlockTridiagonal t;
  tl::BlockTridiagonalFactor f;
  tl::SetupInfo info;
};

Reference reference(const Csr &a, const tl::Options &opt) {
  Reference r;
  const Csr w = tl::weight_graph(pgk::view_of(a), opt.factor.weight);
  if (opt.pairing == tl::PairRule::Matching) {
    r.p = tl::pair_vertices(pgk::view_of(w), opt.factor);
  } else {
    tl::FactorOptions o2 = opt.factor;
    o2.max_degree = 2;
    r.p = tl::pair_along_paths(
        tl::order_paths(tl::break_cycles(tl::parallel_factor(pgk::view_of(w), o2), pgk::view_of(w))));
  }
  r.cg = tl::coarse_graph(pgk::view_of(w), r.p);
  r.ord = tl::block_linear_forest(pgk::view_of(a), opt.factor, &r.info.block, opt.pairing);
  r.info.npaths = r.ord.npaths();
  r.info.longest = r.ord.longest;
  r.info.c_pi = tl::coverage(pgk::view_of(a), r.ord);
  r.info.c_id = tl::coverage_identity(pgk::view_of(a));
  r.t = tl::assemble_block(pgk::view_of(a), r.ord);
  r.f = tl::factor_block(r.t, r.ord, opt.pivot);
  r.info.splits = r.f.splits;
  r.info.replaced = r.f.replaced;
  return r;
}

// The device pipeline on a: weight graph, then BlockPipeline::setup.
struct Device {
  pgk::test::DeviceCsr a;
  dt::DeviceWeightGraph wg;
  BlockPipeline bp;
  tl::SetupInfo info;
  pgk::cuda::TrilfPhaseTimes times;
  Device(const Csr &m, const tl::Options &opt) : a(m) {
    dt::build_weight_graph(a.view, opt.factor.weight, wg, nullptr);
    bp.setup(a.view, wg.view, opt, nullptr, info, times);
  }
};

// Factor values: the device rounds like the host, so they should be the same bits; bit
// differences are reported, and only differences beyond rounding fail.
void compare_factor(const tl::BlockTridiagonalFactor &d, const tl::BlockTridiagonalFactor &h) {
  EXPECT_EQ(d.splits, h.splits);
  EXPECT_EQ(d.replaced, h.replaced);
  const std::vector<double> *dv[] = {&d.mult, &d.inv_pivot, &d.effective.lower, &d.effective.diag, &d.effective.upper};
  const std::vector<double> *hv[] = {&h.mult, &h.inv_pivot, &h.effective.lower, &h.effective.diag, &h.effective.upper};
  const char *names[] = {"mult", "inv_pivot", "lower~", "diag~", "upper~"};
  for (int q = 0; q < 5; ++q) {
    EXPECT_EQ(dv[q]->size(), hv[q]->size()) << names[q] << " size";
    if (dv[q]->size() != hv[q]->size()) continue;
    if (!pgk::test::same_bits(*dv[q], *hv[q]))
      std::printf("  note: %s differs in some bits (rel %.2e)\n", names[q], pgk::test::rel_diff(*dv[q], *hv[q]));
    EXPECT_TRUE(pgk::test::Close(*dv[q], *hv[q], 1e-13, names[q]));
  }
}

void compare_info(const tl::SetupInfo &d, const tl::SetupInfo &h) {
  const auto &db = d.block, &hb = h.block;
  EXPECT_EQ(db.pairs, hb.pairs);
  EXPECT_EQ(db.ghosts, hb.ghosts);
  EXPECT_EQ(db.pairing_rounds, hb.pairing_rounds);
  EXPECT_EQ(db.coarse.rounds_run, hb.coarse.rounds_run);
  EXPECT_EQ(db.coarse.maximal, hb.coarse.maximal);
  EXPECT_EQ(db.coarse.factor_edges, hb.coarse.factor_edges);
  EXPECT_EQ(db.coarse.cycles_broken, hb.coarse.cycles_broken);
  EXPECT_EQ(db.coarse.forest_edges, hb.coarse.forest_edges);
  EXPECT_EQ(d.npaths, h.npaths);
  EXPECT_EQ(d.longest, h.longest);
  EXPECT_EQ(d.splits, h.splits);
  EXPECT_EQ(d.replaced, h.replaced);
  EXPECT_LE(std::fabs(d.c_id - h.c_id), 1e-12) << "c_id " << d.c_id << " vs " << h.c_id;
  EXPECT_LE(std::fabs(d.c_pi - h.c_pi), 1e-12) << "c_pi " << d.c_pi << " vs " << h.c_pi;
  EXPECT_EQ(d.forest.factor_edges, 0) << "info.forest must stay default";
  EXPECT_EQ(d.forest.rounds_run, 0) << "info.forest must stay default";
}

// Whether the host's x solves T~ x = b accurately, T~ = f.effective on the blocks of f.slots
// (ghost rows: x = 0, not compared). The bound, residual <= 1e-6, only excludes solves that
// failed outright (the pivot chains with tau = 0: residuals 0.4 and 11): path:n=200001 (1.6e-9)
// and the zero-diagonal convection matrix with tau = 0 (8e-9) were always compared, and agree.
bool block_solve_accurate(const tl::BlockTridiagonalFactor &f, const std::vector<double> &b,
                          const std::vector<double> &x) {
  const Index nb = f.nblocks();
  auto xs = [&](Index k, int s) {
    const Index row = f.slots[2 * k + s];
    return row < 0 ? 0.0 : x[static_cast<std::size_t>(row)];
  };
  std::vector<double> res(b.size(), 0.0);
  for (Index k = 0; k < nb; ++k)
    for (int r = 0; r < 2; ++r) {
      const Index row = f.slots[2 * k + r];
      if (row < 0) continue;
      double y = 0;
      for (int c = 0; c < 2; ++c) {
        y += f.effective.diag[4 * k + 2 * r + c] * xs(k, c);
        if (k > 0) y += f.effective.lower[4 * k + 2 * r + c] * xs(k - 1, c);
        if (k + 1 < nb) y += f.effective.upper[4 * k + 2 * r + c] * xs(k + 1, c);
      }
      res[static_cast<std::size_t>(row)] = y;
    }
  return pgk::test::rel_diff(res, b) <= 1e-6;
}

struct BlockOptions {
  std::string name;
  tl::Options opt;
  bool full_when_small = false; // run-to-run and update_values in the --small runs too
};
void PrintTo(const BlockOptions &o, std::ostream *os) { *os << o.name; }

// The paper's cfg2 (M = 5, m = 5, k_m = 0); never charged, 12 rounds; charged from round 1 with
// p = 0.3 and a seed; scaled weights, 3 rounds, m = 2, tau = 0 (all with the forest pairing);
// the paper's matching pairing with cfg2 and uncharged. --small takes the first two.
std::vector<BlockOptions> block_option_sets() {
  std::vector<BlockOptions> v;
  tl::Options o;
  v.push_back({"default", o, true});
  o.factor.charge_period = 1; // never charged
  o.factor.rounds = 12;
  v.push_back({"uncharged_M12", o});
  o = tl::Options();
  o.factor.rounds = 11;
  o.factor.charge_offset = 1;
  o.factor.charge_prob = 0.3;
  o.factor.seed = 7;
  v.push_back({"M11_km1_p03_seed7", o});
  o = tl::Options();
  o.factor.weight = tl::Weight::Scaled;
  o.factor.rounds = 3;
  o.factor.charge_period = 2;
  o.pivot.rel_tol = 0;
  v.push_back({"scaled_M3_m2_tau0", o});
  o = tl::Options();
  o.pairing = tl::PairRule::Matching; // the paper's [0,1]-factor pairing
  v.push_back({"matching", o});
  o.factor.charge_period = 1;
  o.factor.rounds = 12;
  v.push_back({"matching_uncharged_M12", o});
  return v;
}

int g_ill = 0;

// Run to run: a second pipeline gives the same bits everywhere. Then new values, same pattern
// (a nonsymmetric perturbation of every entry): update_values against the reference.
void check_rerun_and_update(const CorpusEntry &e, const tl::Options &opt, Device &dev, const Reference &ref,
                            const std::vector<double> &r, const std::vector<double> &z, const std::vector<double> &zt,
                            bool well) {
  const Csr &a = e.matrix();
  const tl::BlockTridiagonalFactor f = dev.bp.factor(nullptr);
  BlockPipeline bp2;
  tl::SetupInfo info2;
  bp2.setup(dev.a.view, dev.wg.view, opt, nullptr, info2, dev.times);
  const tl::BlockTridiagonalFactor f2 = bp2.factor(nullptr);
  EXPECT_TRUE(pgk::test::SameIndices(bp2.slots(nullptr), ref.ord.slots, "second setup: slots"));
  EXPECT_TRUE(pgk::test::SameBits(f2.inv_pivot, f.inv_pivot, "second setup: inv_pivot"));
  EXPECT_TRUE(pgk::test::SameBits(f2.mult, f.mult, "second setup: mult"));
  EXPECT_EQ(info2.c_pi, dev.info.c_pi);
  EXPECT_EQ(info2.c_id, dev.info.c_id);
  EXPECT_TRUE(pgk::test::SameBits(device_apply(bp2, r, false), z, "second setup: apply"));
  EXPECT_TRUE(pgk::test::SameBits(device_apply(bp2, r, true), zt, "second setup: apply_transpose"));
  EXPECT_TRUE(pgk::test::SameBits(device_apply(dev.bp, r, false), z, "apply run to run"));

  Csr b = a;
  for (std::size_t k = 0; k < b.values.size(); ++k) b.values[k] *= 1.0 + 0.25 * std::sin(static_cast<double>(k));
  const pgk::test::DeviceCsr db(b);
  dev.bp.update_values(db.view, nullptr, dev.info, dev.times);
  const tl::BlockTridiagonalFactor fb =
      tl::factor_block(tl::assemble_block(pgk::view_of(b), ref.ord), ref.ord, opt.pivot);
  {
    SCOPED_TRACE("after update_values");
    compare_factor(dev.bp.factor(nullptr), fb);
  }
  EXPECT_EQ(dev.info.splits, fb.splits) << "update info";
  EXPECT_EQ(dev.info.replaced, fb.replaced) << "update info";
  std::vector<double> xb(r.size());
  tl::solve_block(fb, r.data(), xb.data());
  if (well && block_solve_accurate(fb, r, xb)) {
    EXPECT_TRUE(pgk::test::Close(device_apply(dev.bp, r, false), xb, e.apply_tol(), "apply after update_values"));
  }
}

// Setup, every intermediate, apply; with `full`, run-to-run identity and update_values.
void run_case(const CorpusEntry &e, const tl::Options &opt, bool full) {
  const Csr &a = e.matrix();
  std::optional<Reference> ref;
  const std::optional<HostError> refused = host_error([&] { ref = reference(a, opt); });
  if (refused) { // the device must refuse it the same way
    expect_same_error(*refused, [&] { Device dev(a, opt); });
    return;
  }
  Device dev(a, opt);
  EXPECT_TRUE(pgk::test::SameIndices(dev.bp.partner(nullptr), ref->p.partner, "partner"));
  const Csr cg = dev.bp.coarse_graph(nullptr);
  EXPECT_TRUE(pgk::test::SameIndices(cg.rowptr, ref->cg.rowptr, "coarse graph rowptr"));
  EXPECT_TRUE(pgk::test::SameIndices(cg.colidx, ref->cg.colidx, "coarse graph colidx"));
  EXPECT_TRUE(pgk::test::SameBits(cg.values, ref->cg.values, "coarse graph weights"));
  const std::vector<Index> slots = dev.bp.slots(nullptr);
  EXPECT_TRUE(pgk::test::SameIndices(dev.bp.path_start(nullptr), ref->ord.path_start, "path_start"));
  ASSERT_TRUE(pgk::test::SameIndices(slots, ref->ord.slots, "slots")) << "nothing below is comparable";
  const tl::BlockTridiagonal t = dev.bp.assembled(dev.a.view, nullptr);
  EXPECT_TRUE(pgk::test::SameBits(t.lower, ref->t.lower, "assembled lower blocks"));
  EXPECT_TRUE(pgk::test::SameBits(t.diag, ref->t.diag, "assembled diagonal blocks"));
  EXPECT_TRUE(pgk::test::SameBits(t.upper, ref->t.upper, "assembled upper blocks"));
  compare_factor(dev.bp.factor(nullptr), ref->f);
  compare_info(dev.info, ref->info);
  const std::size_t n = static_cast<std::size_t>(a.nrows);
  const std::vector<double> r = pgk::test::random_vector(n, 17 + n);
  std::vector<double> x(n), xt(n);
  tl::solve_block(ref->f, r.data(), x.data());
  tl::solve_block_transpose(ref->f, r.data(), xt.data());
  const std::vector<double> z = device_apply(dev.bp, r, false), zt = device_apply(dev.bp, r, true);
  const bool well = block_solve_accurate(ref->f, r, x);
  g_ill += !well;
  if (well) {
    EXPECT_TRUE(pgk::test::Close(z, x, e.apply_tol(), "apply"));
    EXPECT_TRUE(pgk::test::Close(zt, xt, e.apply_tol(), "apply_transpose"));
  }
  if (full) check_rerun_and_update(e, opt, dev, *ref, r, z, zt, well);
}

class GpuTrilfBlock : public pgk::test::GpuTest, public ::testing::WithParamInterface<BlockOptions> {};

TEST_P(GpuTrilfBlock, MatchesReference) {
  const bool full = !pgk::test::small_corpus() || GetParam().full_when_small;
  g_ill = 0;
  const int n =
      pgk::test::for_each_entry(trilf_corpus(), [&](const CorpusEntry &e) { run_case(e, GetParam().opt, full); });
  std::printf("block %s: %d matrices (%d with an ill-conditioned T: apply not compared with the host)\n",
              GetParam().name.c_str(), n, g_ill);
}

INSTANTIATE_TEST_SUITE_P(Sets, GpuTrilfBlock, ::testing::ValuesIn(block_option_sets()),
                         [](const ::testing::TestParamInfo<BlockOptions> &p) { return p.param.name; });

// ---- error paths: NaN in setup (weights) and in update_values (assembly), pivot overflow ----

Csr spec(const char *s) { return pgk::gen::generate(pgk::gen::parse_spec(s)); }

class GpuTrilfBlockErrors : public pgk::test::GpuTest {
protected:
  void SetUp() override {
    pgk::test::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    a = spec("lap2d5:n=9");
    bad = a;
    bad.values[37] = std::numeric_limits<double>::quiet_NaN();
  }
  // EXPECT that f throws std::domain_error containing want.
  template <class F> void expect_domain(F f, const std::string &want) {
    const std::optional<HostError> got = host_error(f);
    ASSERT_TRUE(got) << "no exception";
    EXPECT_EQ(got->kind, "domain_error") << got->message;
    EXPECT_NE(got->message.find(want), std::string::npos) << "message: " << got->message;
  }
  const tl::Options opt;
  Csr a, bad;
};

TEST_F(GpuTrilfBlockErrors, NanInSetup) {
  const pgk::test::DeviceCsr dbad(bad);
  expect_domain(
      [&] {
        dt::DeviceWeightGraph wg;
        dt::build_weight_graph(dbad.view, opt.factor.weight, wg, nullptr);
      },
      "non-finite");
}

TEST_F(GpuTrilfBlockErrors, NanInUpdateValues) {
  Device dev(a, opt);
  const pgk::test::DeviceCsr dbad(bad);
  Index row = 0;
  while (a.rowptr[static_cast<std::size_t>(row) + 1] <= 37) ++row;
  expect_domain([&] { dev.bp.update_values(dbad.view, nullptr, dev.info, dev.times); },
                "non-finite value nan at (" + std::to_string(row) + ", " + std::to_string(a.colidx[37]) + ")");
}

// [2 -1; -1 2] * 1e-300: det underflows to 0 -> "pivot block overflows", as the reference.
TEST_F(GpuTrilfBlockErrors, PivotOverflow) {
  Csr tiny = spec("path:n=2");
  for (double &v : tiny.values) v *= 1e-300;
  const std::optional<HostError> host = host_error([&] { reference(tiny, opt); });
  ASSERT_TRUE(host) << "the host accepted the tiny pivot block";
  expect_domain([&] { Device dev(tiny, opt); }, host->message);
}

TEST_F(GpuTrilfBlockErrors, BadRelTol) {
  tl::Options o = opt;
  o.pivot.rel_tol = 1.5;
  const pgk::test::DeviceCsr da(a);
  dt::DeviceWeightGraph wg;
  dt::build_weight_graph(da.view, o.factor.weight, wg, nullptr);
  BlockPipeline bp;
  tl::SetupInfo info;
  pgk::cuda::TrilfPhaseTimes times;
  expect_same_error(HostError{"invalid_argument", ""}, [&] { bp.setup(da.view, wg.view, o, nullptr, info, times); });
}

} // namespace

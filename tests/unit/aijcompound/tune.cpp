// The tuner's plan and cache file (src/aijcompound/tune.hpp): the search stays within its product
// budget, the memory cap filters layouts, the cache round-trips and a damaged file is refused with a
// message instead of being half read.
#include "src/aijcompound/tune.hpp"
#include "tests/unit/aijcompound/support.hpp"

#include <gtest/gtest.h>

#include <set>

namespace pgk::aijcompound::test {
namespace {

TEST(AijCompoundTune, SearchStaysWithinTheProductBudget) {
  const CompoundCsr a = random_compound({EntryKind::block, 3}, 300, 300, 11, 8, true);
  const auto stage1 = layout_candidates(a, 1e9); // no cap: every layout
  EXPECT_EQ(stage1.size(), 16u);
  const auto grid = schedule_grid(Outer::ell, Inner::soa);
  const int products = planned_products(stage1.size(), grid.size(), 2);
  EXPECT_LE(products, kMaxTunedProducts) << "stage 1 " << stage1.size() << ", stage 2 " << grid.size() << " per layout";
  std::set<std::string> names;
  for (const Variant &v : grid) {
    EXPECT_LE(v.threads * v.blocks_per_sm, 2048) << describe(v);
    EXPECT_TRUE(names.insert(describe(v)).second) << "duplicate " << describe(v);
  }
}

TEST(AijCompoundTune, MemoryCapExcludesPaddedLayouts) {
  // Every 7th row is 4x longer (support.hpp): ELL pads every row to the longest one.
  const CompoundCsr a = random_compound({EntryKind::quaternion, 4}, 500, 500, 3, 6, true);
  ASSERT_GT(memory_ratio(a, Outer::ell), 1.5);
  const auto strict = allowed_outers(a, 1.0);
  EXPECT_EQ(strict, std::vector<Outer>{Outer::csr});
  for (const Variant &v : layout_candidates(a, 1.0)) EXPECT_EQ(v.outer, Outer::csr);
  EXPECT_EQ(default_variant(a, 1.0).outer, Outer::csr);
  const auto all = allowed_outers(a, 1e9);
  EXPECT_EQ(all.size(), 4u);
  EXPECT_EQ(default_variant(a, 1e9).outer, Outer::ell);
}

TEST(AijCompoundTune, GroupSizeFollowsTheRowLength) {
  EXPECT_EQ(group_for(0), 2);
  EXPECT_EQ(group_for(7), 4);   // 3.5 -> 4
  EXPECT_EQ(group_for(27), 16); // 13.5 -> 16
  EXPECT_EQ(group_for(1000), 32);
  for (double m = 0; m < 200; m += 0.5) {
    const int g = group_for(m);
    EXPECT_TRUE(g >= 2 && g <= 32 && (g & (g - 1)) == 0) << m;
  }
}

TEST(AijCompoundTune, CacheRoundTripsAndKeysByShapeClass) {
  const CompoundCsr a = random_compound({EntryKind::block, 3}, 300, 300, 11, 8, true);
  const CompoundCsr b = random_compound({EntryKind::block, 3}, 310, 310, 12, 8, true); // same class
  const CompoundCsr q = random_compound({EntryKind::quaternion, 4}, 300, 300, 11, 8, true);
  const TuneKey ka = make_key("NVIDIA H100 80GB HBM3", 132, a);
  EXPECT_EQ(ka.gpu, "NVIDIA_H100_80GB_HBM3");
  EXPECT_FALSE(ka < make_key("NVIDIA H100 80GB HBM3", 132, b) || make_key("NVIDIA H100 80GB HBM3", 132, b) < ka);
  const TuneKey kq = make_key("NVIDIA H100 80GB HBM3", 132, q);
  EXPECT_TRUE(ka < kq || kq < ka);

  std::map<TuneKey, TuneResult> entries;
  TuneResult r;
  r.variant = schedule_grid(Outer::sliced32, Inner::soa).back();
  r.gbs = 2456.5;
  entries[ka] = r;
  entries[kq] = TuneResult{};
  std::map<TuneKey, TuneResult> back;
  ASSERT_EQ(parse_cache(format_cache(entries), back), "");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[ka].variant, r.variant);
  EXPECT_EQ(back[ka].gbs, 2456.5);
}

TEST(AijCompoundTune, DamagedCacheIsRefusedWhole) {
  const CompoundCsr a = random_compound({EntryKind::complex, 2}, 100, 100, 5, 4, true);
  std::map<TuneKey, TuneResult> entries{{make_key("gpu", 8, a), TuneResult{}}};
  const std::string good = format_cache(entries);
  std::map<TuneKey, TuneResult> out;
  EXPECT_NE(parse_cache("", out), "");
  EXPECT_NE(parse_cache("garbage\n", out), "");
  EXPECT_NE(parse_cache(good + "gpu 8 complex 2 6 4\n", out), "");                             // truncated line
  EXPECT_NE(parse_cache(good + "gpu 8 octonion 2 6 4 2 CSR AoS static 256 8 1 1\n", out), ""); // bad kind
  EXPECT_NE(parse_cache(good + "gpu 8 block 3 6 4 2 CSR AoS static 256 16 1 1\n", out), "");   // 4096 threads/SM
  EXPECT_NE(parse_cache(good + "gpu 8 block 3 6 4 2 CSR AoS group 256 8 3 1\n", out), "");     // group 3
  EXPECT_NE(parse_cache(good + "gpu 8 block 3 6 4 2 CSR AoS static 256 8 1 1 extra\n", out), "");
  EXPECT_TRUE(out.empty()) << "a refused file must not be half read";
  EXPECT_EQ(parse_cache(good + "\n", out), "");
  EXPECT_EQ(out.size(), 1u);
}

} // namespace
} // namespace pgk::aijcompound::test

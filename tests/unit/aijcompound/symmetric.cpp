// The +SYM layouts (src/aijcompound/symmetric.hpp, layouts.hpp): the symmetry checks, the pattern
// arrays, every outer x inner layout +SYM bit for bit with the CSR reference, the bytes, and the
// tuner's rules.
#include "src/aijcompound/layouts.hpp"
#include "src/aijcompound/ops.hpp"
#include "src/aijcompound/symmetric.hpp"
#include "src/aijcompound/tune.hpp"
#include "tests/unit/aijcompound/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace pgk::aijcompound::test {
namespace {

const Inner kInners[] = {Inner::aos, Inner::soa};
const Outer kOuters[] = {Outer::csr, Outer::ell, Outer::sliced16, Outer::sliced32};

// Three block rows of 2x2 blocks with this pattern; values left to the caller.
CompoundCsr three_block_rows(std::vector<Index> rowptr, std::vector<Index> colidx) {
  CompoundCsr a;
  a.kind = EntryKind::block;
  a.bs = 2;
  a.nbrows = a.nbcols = 3;
  a.rowptr = std::move(rowptr);
  a.colidx = std::move(colidx);
  return a;
}

TEST(AijCompoundSymmetric, EveryLayoutPlusSymEqualsTheCsrReference) {
  for (const Shape &sh : all_shapes())
    for (Index n : {0, 1, 2, 15, 100}) {
      const CompoundCsr a = random_symmetric(sh, n, 2000 + sh.bs + n);
      ASSERT_TRUE(is_symmetric(a)) << kind_name(sh.kind) << " bs " << sh.bs << " n " << n;
      const Vector x = random_vector(n * sh.bs, 21), z = random_vector(n * sh.bs, 22);
      Vector ref(z.size()), ref_add(z.size());
      mult(a, x.data(), ref.data());
      mult_add(a, x.data(), z.data(), ref_add.data());
      for (Outer o : kOuters)
        for (Inner in : kInners) {
          const Packed p = pack(a, o, in, true);
          Vector y(z.size(), 5.0), w(z.size(), 5.0);
          packed_mult(p, x.data(), y.data());
          packed_mult_add(p, x.data(), z.data(), w.data());
          const std::string what = std::string(kind_name(sh.kind)) + " bs " + std::to_string(sh.bs) + " n " +
                                   std::to_string(n) + " " + outer_name(o) + "+SYM-" + inner_name(in);
          EXPECT_LE(rel_error(y, ref), 1e-13) << what; // the pair order: not bit for bit
          EXPECT_LE(rel_error(w, ref_add), 1e-13) << what;
          EXPECT_EQ(p.bytes(), pack(a, o, in).bytes() + sizeof(Index) * (p.lower.size() + p.partner.size())) << what;
        }
    }
}

// The pair order pinned by hand: block row 1 holds (1,0) = 1, (1,1) = 1e16, (1,2) = -1e16 (2x2
// multiples of the identity, x = 1). Row order sums (1 + 1e16) - 1e16 = 0 (1 + 1e16 rounds to 1e16);
// the pair order takes the diagonal, then (1,2), then (1,0): (1e16 - 1e16) + 1 = 1.
TEST(AijCompoundSymmetric, PairOrderFromTheDiagonal) {
  CompoundCsr a = three_block_rows({0, 2, 5, 7}, {0, 1, 0, 1, 2, 1, 2});
  const double big = 1e16;
  for (double d : {2.0, 1.0, 1.0, big, -big, -big, 2.0}) a.values.insert(a.values.end(), {d, 0.0, 0.0, d});
  ASSERT_TRUE(is_symmetric(a));
  const Vector x(6, 1.0);
  Vector row_order(6), pairs(6);
  mult(a, x.data(), row_order.data());
  EXPECT_EQ(row_order[2], 0.0);
  for (Outer o : kOuters) {
    packed_mult(pack(a, o, Inner::aos, true), x.data(), pairs.data());
    EXPECT_EQ(pairs[2], 1.0) << outer_name(o);
    EXPECT_EQ(pairs[3], 1.0) << outer_name(o);
    EXPECT_EQ(pairs[0], row_order[0]) << outer_name(o); // rows 0 and 2: no order difference
    EXPECT_EQ(pairs[4], row_order[4]) << outer_name(o);
  }
}

// The product really reads the partners: a lower entry changed after packing (so the matrix is no
// longer symmetric) does not change the SYM product, while the CSR product moves.
TEST(AijCompoundSymmetric, LowerValuesAreNotRead) {
  CompoundCsr a = random_symmetric({EntryKind::block, 3}, 40, 2100);
  Packed p = pack(a, Outer::csr, Inner::aos, true);
  const Vector x = random_vector(120, 23);
  Vector before(120), after(120), csr(120);
  packed_mult(p, x.data(), before.data());
  const Index e = first_lower(a);
  ASSERT_GE(e, 0);
  for (int c = 0; c < 9; ++c) p.val[e * 9 + c] += 1.0;
  packed_mult(p, x.data(), after.data());
  EXPECT_TRUE(same_bits(before, after));
  for (int c = 0; c < 9; ++c) a.entry(e)[c] += 1.0;
  mult(a, x.data(), csr.data());
  EXPECT_FALSE(same_bits(before, csr));
}

TEST(AijCompoundSymmetric, ChecksRefuseWhatIsNotSymmetric) {
  for (const Shape &sh : all_shapes()) {
    const CompoundCsr s = random_symmetric(sh, 30, 2200 + sh.bs);
    EXPECT_TRUE(is_symmetric(s));
    // one component of one lower entry off by one ulp
    CompoundCsr v = s;
    const Index e = first_lower(v);
    ASSERT_GE(e, 0);
    v.entry(e)[v.esize() - 1] = std::nextafter(v.entry(e)[v.esize() - 1], 2.0);
    std::vector<Index> diag, partner;
    EXPECT_TRUE(symmetric_pattern(v, &diag, &partner));
    EXPECT_FALSE(symmetric_values(v, diag, partner)) << kind_name(sh.kind) << " bs " << sh.bs;
    // a NaN mirrored on both sides is never symmetric
    CompoundCsr nan = s;
    nan.entry(e)[0] = std::nan("");
    nan.entry(partner[e])[0] = std::nan("");
    EXPECT_FALSE(is_symmetric(nan));
    // a random (unsymmetric) pattern: no SYM packing
    const CompoundCsr r = random_compound(sh, 30, 30, 2300 + sh.bs);
    EXPECT_FALSE(symmetric_pattern(r, &diag, &partner));
    EXPECT_THROW(pack(r, Outer::sliced32, Inner::aos, true), std::invalid_argument);
  }
  // not square
  const CompoundCsr rect = random_compound({EntryKind::block, 2}, 10, 12, 2400);
  std::vector<Index> diag, partner;
  EXPECT_FALSE(symmetric_pattern(rect, &diag, &partner));
}

// Complex entries must be Hermitian (the expansion symmetric), not complex symmetric; diagonal
// entries are not checked (the product reads them as they are).
TEST(AijCompoundSymmetric, ComplexMeansHermitian) {
  CompoundCsr a;
  a.kind = EntryKind::complex;
  a.bs = 2;
  a.nbrows = a.nbcols = 2;
  a.rowptr = {0, 2, 4};
  a.colidx = {0, 1, 0, 1};
  a.values = {1, 5, 2, 3, 2, -3, 4, 7}; // (0,0) = 1+5i, (0,1) = 2+3i, (1,0) = 2-3i, (1,1) = 4+7i
  EXPECT_TRUE(is_symmetric(a));
  a.values[5] = 3; // (1,0) = 2+3i: complex symmetric, not Hermitian
  EXPECT_FALSE(is_symmetric(a));
}

TEST(AijCompoundSymmetric, PatternArraysByHand) {
  // 3x3 block pattern: row 0 {0, 2}, row 1 {1}, row 2 {0, 2}; 2x2 blocks.
  CompoundCsr a = three_block_rows({0, 2, 3, 5}, {0, 2, 1, 0, 2});
  a.values.assign(20, 1.0);
  std::vector<Index> diag, partner;
  ASSERT_TRUE(symmetric_pattern(a, &diag, &partner));
  EXPECT_EQ(diag, (std::vector<Index>{0, 2, 4}));
  EXPECT_EQ(partner, (std::vector<Index>{-1, -1, -1, 1, -1}));
  EXPECT_EQ(lower_entries(a, diag), 1);
  // ELL+SYM: slots r + j * 32; row 2's first (lower) entry (2, 0) mirrors (0, 2), row 0 position 1
  const Packed p = pack(a, Outer::ell, Inner::aos, true);
  EXPECT_EQ(p.lower, (std::vector<Index>{0, 0, 1}));
  ASSERT_EQ(p.partner.size(), p.col.size());
  for (std::size_t s = 0; s < p.partner.size(); ++s) EXPECT_EQ(p.partner[s], s == 2 ? 32 : -1) << "slot " << s;
}

TEST(AijCompoundSymmetric, ThreadsDoNotChangeThePatternArrays) {
  const CompoundCsr a = random_symmetric({EntryKind::block, 2}, 30000, 2500);
  ASSERT_GT(a.nnzb(), Index(1) << 16);
  std::vector<Index> d1, p1, d4, p4;
  ASSERT_TRUE(symmetric_pattern(a, &d1, &p1, 1));
  ASSERT_TRUE(symmetric_pattern(a, &d4, &p4, 4));
  EXPECT_EQ(d1, d4);
  EXPECT_EQ(p1, p4);
  EXPECT_TRUE(symmetric_values(a, d4, p4, 4));
}

// The tuner searches the pattern once and packs every +SYM layout from those arrays: the same
// packing as the overload that searches it itself; arrays of another pattern are refused.
TEST(AijCompoundSymmetric, PackFromGivenPatternArraysEqualsPackThatSearches) {
  const CompoundCsr a = random_symmetric({EntryKind::quaternion, 4}, 300, 2700);
  SymmetricPattern sym;
  ASSERT_TRUE(symmetric_pattern(a, &sym.diag, &sym.partner, 2));
  for (Outer o : kOuters)
    for (Inner in : kInners) {
      std::vector<Index> s1, s2;
      const Packed p1 = pack_pattern(a, o, in, &s1, 1, true), p2 = pack_pattern(a, o, in, &s2, 1, sym);
      EXPECT_EQ(s1, s2) << outer_name(o);
      EXPECT_TRUE(p2.symmetric);
      EXPECT_EQ(p1.ptr, p2.ptr) << outer_name(o);
      EXPECT_EQ(p1.col, p2.col) << outer_name(o);
      EXPECT_EQ(p1.lower, p2.lower) << outer_name(o);
      EXPECT_EQ(p1.partner, p2.partner) << outer_name(o);
    }
  const CompoundCsr b = random_symmetric({EntryKind::quaternion, 4}, 301, 2701);
  std::vector<Index> slots;
  EXPECT_THROW(pack_pattern(b, Outer::ell, Inner::aos, &slots, 1, sym), std::invalid_argument);
}

TEST(AijCompoundSymmetric, TunerOffersSymOnlyForSymmetricMatrices) {
  const CompoundCsr a = random_symmetric({EntryKind::block, 3}, 200, 2600);
  auto count_sym = [](const std::vector<Variant> &v) {
    int n = 0;
    for (const Variant &x : v) n += x.symmetric ? 1 : 0;
    return n;
  };
  EXPECT_EQ(count_sym(layout_candidates(a, 2.0)), 0);
  // ELL, SI-32; AoS, static at 2048 and 1024 resident threads a SM, both in the schedule grid too
  std::vector<std::string> sym_stage1;
  for (const Variant &c : layout_candidates(a, 100.0, true))
    if (c.symmetric) {
      sym_stage1.push_back(describe(c));
      const auto grid = schedule_grid(c.outer, c.inner, true);
      EXPECT_EQ(std::count(grid.begin(), grid.end(), c), 1) << describe(c);
    }
  EXPECT_EQ(sym_stage1, (std::vector<std::string>{"ELL+SYM-AoS static 256x8", "ELL+SYM-AoS static 256x4",
                                                  "SI-32+SYM-AoS static 256x8", "SI-32+SYM-AoS static 256x4"}));
  EXPECT_FALSE(default_variant(a, 2.0).symmetric);
  for (const Variant &v : schedule_grid(Outer::ell, Inner::soa, true)) EXPECT_TRUE(v.symmetric);
  Variant v;
  v.outer = Outer::sliced32;
  v.symmetric = true;
  EXPECT_EQ(describe(v), "SI-32+SYM-AoS static 256x8");
}

// The joint search's worst case with +SYM, as the PETSc layer runs it: stage 1 (every layout, 16
// plain + 4 +SYM), then for the two layouts that win it the schedules stage 1 has not timed yet
// (the search skips those), then the finalists.
TEST(AijCompoundSymmetric, SearchWithSymStaysWithinTheProductBudget) {
  const CompoundCsr a = random_symmetric({EntryKind::block, 3}, 200, 2800);
  const std::vector<Variant> stage1 = layout_candidates(a, 1e9, true); // no cap: every layout
  EXPECT_EQ(stage1.size(), 20u);
  std::vector<std::tuple<Outer, Inner, bool>> layouts;
  for (const Variant &v : stage1)
    if (std::find(layouts.begin(), layouts.end(), std::tuple(v.outer, v.inner, v.symmetric)) == layouts.end())
      layouts.emplace_back(v.outer, v.inner, v.symmetric);
  std::vector<int> fresh; // stage-2 schedules per layout that stage 1 did not time
  for (const auto &[outer, inner, sym] : layouts) {
    int n = 0;
    for (const Variant &g : schedule_grid(outer, inner, sym))
      n += std::find(stage1.begin(), stage1.end(), g) == stage1.end() ? 1 : 0;
    fresh.push_back(n);
  }
  std::sort(fresh.rbegin(), fresh.rend());
  ASSERT_GE(fresh.size(), 2u);
  const int worst =
      static_cast<int>(stage1.size() + fresh[0] + fresh[1]) * (1 + kTunedRuns) + kFinalists * kConfirmRuns;
  EXPECT_EQ(worst, 199); // the figure README and bench_aijcompound report
  EXPECT_LE(worst, kMaxTunedProducts);
}

TEST(AijCompoundSymmetric, CacheKeysBySymmetry) {
  const CompoundCsr a = random_symmetric({EntryKind::block, 3}, 200, 2700);
  std::map<TuneKey, TuneResult> entries, back;
  TuneResult sym, csr;
  sym.variant.outer = Outer::sliced32;
  sym.variant.symmetric = true;
  sym.gbs = 2500;
  csr.gbs = 2400;
  entries[make_key("GPU X", 132, a, true)] = sym;
  entries[make_key("GPU X", 132, a, false)] = csr;
  const std::string text = format_cache(entries);
  EXPECT_NE(text.find("block+sym 3"), std::string::npos) << text;
  EXPECT_NE(text.find("SI-32+SYM AoS"), std::string::npos) << text;
  ASSERT_EQ(parse_cache(text, back), "");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_TRUE(back[make_key("GPU X", 132, a, true)].variant == sym.variant);
  EXPECT_TRUE(back[make_key("GPU X", 132, a, false)].variant == csr.variant);
  // a SYM winner under a key that is not symmetric is a damaged file
  std::map<TuneKey, TuneResult> out;
  EXPECT_NE(parse_cache(text + "gpu 8 block 3 6 4 2 SI-32+SYM AoS static 256 8 1 1\n", out), "");
  EXPECT_EQ(parse_cache(text + "gpu 8 block+sym 3 6 4 2 ELL+SYM SoA static 256 8 1 1\n", out), "");
}

} // namespace
} // namespace pgk::aijcompound::test

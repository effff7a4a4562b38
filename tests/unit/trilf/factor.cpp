// PC trilf reference, steps 0 and 1: the weight graph and the [0,n]-factor (Algorithms 1
// and 2 of Klein & Strzodka), including the documented tie and charge rules that a device
// version must reproduce bit for bit.
#include "tests/unit/trilf/support.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <stdexcept>
#include <tuple>

namespace pgk::trilf::test {
namespace {

// charge_positive(0, 1, v, 0.5) for v = 0..63, bit v. Pinned so that a device port of the
// hash can be checked without this library.
constexpr std::uint64_t kGoldenChargeBits = 0x8C80A0696ABD2A7Dull;

Csr from_triplets(Index n, const std::vector<std::tuple<Index, Index, double>> &t) {
  std::vector<Index> r, c;
  std::vector<double> v;
  for (const auto &[i, j, x] : t) {
    r.push_back(i);
    c.push_back(j);
    v.push_back(x);
  }
  return csr_from_coo(n, n, r, c, v);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// ---- weights -----------------------------------------------------------------------------

TEST(TrilfWeights, SymmetricMatrixGivesTwiceAbsWithoutDiagonal) {
  const Csr a = from_triplets(
      3, {{0, 0, 4}, {0, 1, -2}, {1, 0, -2}, {1, 1, 4}, {1, 2, 0.5}, {2, 1, 0.5}, {2, 2, 4}, {0, 2, 0}, {2, 0, 0}});
  const Csr w = weight_graph(view_of(a));
  EXPECT_EQ(w.rowptr, (std::vector<Index>{0, 1, 3, 4}));
  EXPECT_EQ(w.colidx, (std::vector<Index>{1, 0, 2, 1})); // stored zeros are no edges
  EXPECT_EQ(w.values, (std::vector<double>{4, 4, 1, 1}));
}

TEST(TrilfWeights, NonsymmetricIsSymmetrizedAsSumOfBothDirections) {
  // (0,1) only in one direction, (1,2) both with different magnitudes.
  const Csr a = from_triplets(3, {{0, 0, 1}, {0, 1, -3}, {1, 1, 1}, {1, 2, 2}, {2, 1, -0.25}, {2, 2, 1}});
  const Csr w = weight_graph(view_of(a));
  EXPECT_EQ(edge_weight(view_of(w), 0, 1), 3.0);
  EXPECT_EQ(edge_weight(view_of(w), 1, 0), 3.0);
  EXPECT_EQ(edge_weight(view_of(w), 1, 2), 2.25);
  EXPECT_EQ(edge_weight(view_of(w), 2, 1), 2.25);
  EXPECT_EQ(edge_weight(view_of(w), 0, 2), 0.0);
  EXPECT_EQ(w.nnz(), 4);
}

TEST(TrilfWeights, ScaledWeightsAndZeroDiagonalFallback) {
  // Row 2 has no diagonal: its scale is its largest off-diagonal magnitude (|a_21| = 1);
  // row 3 is empty: scale 1.
  const Csr a = from_triplets(4, {{0, 0, 4}, {0, 1, 2}, {0, 3, 0.5}, {1, 0, 2}, {1, 1, 9}, {1, 2, -8}, {2, 1, 1}});
  const Csr w = weight_graph(view_of(a), Weight::Scaled);
  EXPECT_EQ(edge_weight(view_of(w), 0, 1), 4.0 / (2.0 * 3.0));
  EXPECT_EQ(edge_weight(view_of(w), 1, 2), 9.0 / (3.0 * 1.0));
  EXPECT_EQ(edge_weight(view_of(w), 3, 0), 0.5 / (2.0 * 1.0));
  EXPECT_EQ(parse_weight("scaled"), Weight::Scaled);
  EXPECT_EQ(parse_weight("abs"), Weight::Abs);
  EXPECT_THROW(parse_weight("max"), std::invalid_argument);
}

TEST(TrilfWeights, ExactlySymmetricBitsForRandomNonsymmetricMatrices) {
  for (const Weight kind : {Weight::Abs, Weight::Scaled})
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      RandomMatrix r;
      r.n = 120;
      r.seed = seed;
      r.symmetric_pattern = seed % 2 == 0;
      r.symmetric_values = false;
      const Csr a = random_matrix(r);
      const Csr w = weight_graph(view_of(a), kind);
      ASSERT_TRUE(rows_sorted_unique(view_of(w)));
      for (Index i = 0; i < w.nrows; ++i)
        for (Index e = w.rowptr[i]; e < w.rowptr[i + 1]; ++e) {
          ASSERT_NE(w.colidx[e], i);
          ASSERT_GT(w.values[e], 0.0);
          ASSERT_TRUE(same_bits(w.values[e], edge_weight(view_of(w), w.colidx[e], i)));
        }
    }
}

TEST(TrilfWeights, ScaledIsInvariantUnderDiagonalScalingByPowersOfTwo) {
  RandomMatrix r;
  r.n = 80;
  r.symmetric_values = false;
  Csr a = random_matrix(r);
  const Csr w1 = weight_graph(view_of(a), Weight::Scaled);
  // D A D with D = diag(4^k): exact in floating point, and sqrt(16^k) is exact too.
  for (Index i = 0; i < a.nrows; ++i)
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
      a.values[static_cast<std::size_t>(e)] *=
          std::ldexp(1.0, 2 * static_cast<int>(i % 5) + 2 * static_cast<int>(a.colidx[e] % 5));
  const Csr w2 = weight_graph(view_of(a), Weight::Scaled);
  EXPECT_EQ(w1.colidx, w2.colidx);
  EXPECT_EQ(w1.values, w2.values);
}

TEST(TrilfWeights, RejectsNonFiniteAndMalformedInput) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const double bad : {nan, inf, -inf}) {
    const Csr a = from_triplets(2, {{0, 0, 1}, {0, 1, bad}, {1, 1, 1}});
    EXPECT_THROW(weight_graph(view_of(a)), std::domain_error);
  }
  const Csr nan_diag = from_triplets(2, {{0, 0, nan}, {1, 1, 1}});
  EXPECT_THROW(weight_graph(view_of(nan_diag)), std::domain_error);
  Csr unsorted = from_triplets(2, {{0, 0, 1}, {0, 1, 2}, {1, 1, 1}});
  std::swap(unsorted.colidx[0], unsorted.colidx[1]);
  EXPECT_THROW(weight_graph(view_of(unsorted)), std::invalid_argument);
  Csr rect = from_triplets(2, {{0, 0, 1}});
  rect.ncols = 3;
  EXPECT_THROW(weight_graph(view_of(rect)), std::invalid_argument);
  const Csr huge = from_triplets(2, {{0, 1, 1.5e308}, {1, 0, 1.5e308}});
  EXPECT_THROW(weight_graph(view_of(huge)), std::domain_error); // the sum overflows
}

TEST(TrilfWeights, PatternOnlyMatrixHasUnitWeights) {
  Csr a = from_triplets(3, {{0, 1, 5}, {1, 0, 5}, {1, 2, 5}});
  a.values.clear();
  const Csr w = weight_graph(view_of(a));
  EXPECT_EQ(edge_weight(view_of(w), 0, 1), 2.0);
  EXPECT_EQ(edge_weight(view_of(w), 2, 1), 1.0);
}

// ---- charges -----------------------------------------------------------------------------

// The formula of src/trilf/factor.hpp, written out again from the comment.
bool charge_from_doc(std::uint64_t seed, int k, std::int64_t v, double p) {
  auto f = [](std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  const std::uint64_t key = f(seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(k + 1));
  const std::uint64_t h = f(key + 0xD1B54A32D192ED03ull * static_cast<std::uint64_t>(v + 1));
  return static_cast<double>(h >> 11) / 9007199254740992.0 < p;
}

TEST(TrilfCharge, MatchesTheDocumentedFormulaAndProbability) {
  for (const double p : {0.5, 0.25, 0.9}) {
    Index plus = 0;
    const Index n = 40000;
    for (Index v = 0; v < n; ++v) {
      const bool c = charge_positive(7, 3, v, p);
      ASSERT_EQ(c, charge_from_doc(7, 3, v, p));
      plus += c;
    }
    EXPECT_NEAR(static_cast<double>(plus) / n, p, 0.01);
  }
  EXPECT_FALSE(charge_positive(0, 1, 5, 0.0));
  EXPECT_TRUE(charge_positive(0, 1, 5, 1.0));
  // Golden bits (seed 0, round 1, vertices 0..63, p = 1/2), for device implementations.
  std::uint64_t bits = 0;
  for (Index v = 0; v < 64; ++v) bits |= static_cast<std::uint64_t>(charge_positive(0, 1, v, 0.5)) << v;
  EXPECT_EQ(bits, kGoldenChargeBits);
  // Rounds and seeds give different charges.
  Index differ = 0;
  for (Index v = 0; v < 1000; ++v) differ += charge_positive(0, 1, v, 0.5) != charge_positive(0, 2, v, 0.5);
  EXPECT_GT(differ, 400);
}

// ---- one proposal round ------------------------------------------------------------------

// The paper's Table 1: row 4 of A' with (weight, column) (0.2,3) (0.3,5) (0.9,6) (0.4,7)
// (0.5,9); charges 3+ 5- 6- 7+ 9+, vertex 4 is '-'; n = 2.
TEST(TrilfPropose, PaperTable1) {
  std::vector<std::tuple<Index, Index, double>> t;
  const std::pair<Index, double> row[] = {{3, 0.2}, {5, 0.3}, {6, 0.9}, {7, 0.4}, {9, 0.5}};
  for (const auto &[j, x] : row) {
    t.emplace_back(4, j, x);
    t.emplace_back(j, 4, x);
  }
  const Csr w = from_triplets(10, t);
  std::vector<Index> confirmed(20, -1), proposed(20, -2);
  propose(view_of(w), 2, confirmed.data(), nullptr, proposed.data());
  EXPECT_EQ(proposed[8], 6);
  EXPECT_EQ(proposed[9], 9);
  std::vector<std::uint8_t> q(10, 0);
  for (const Index j : {3, 7, 9}) q[static_cast<std::size_t>(j)] = 1;
  propose(view_of(w), 2, confirmed.data(), q.data(), proposed.data());
  EXPECT_EQ(proposed[8], 9);
  EXPECT_EQ(proposed[9], 7);
  // Saturated and already confirmed neighbours are void: 6 saturated, 9 confirmed with 4.
  confirmed[6 * 2] = 1;
  confirmed[6 * 2 + 1] = 2;
  confirmed[4 * 2] = 9;
  confirmed[9 * 2] = 4;
  propose(view_of(w), 2, confirmed.data(), nullptr, proposed.data());
  EXPECT_EQ(proposed[8], 7); // only one free slot, best remaining: (0.4, 7)
  EXPECT_EQ(proposed[9], -1);
}

TEST(TrilfPropose, TiesGoToTheSmallerColumnWhateverTheStorageOrder) {
  // Star: vertex 0 with neighbours 1..6, weights 2 2 3 3 3 1; n = 3 picks 3, 4, 5.
  std::vector<std::tuple<Index, Index, double>> t;
  const double wts[] = {2, 2, 3, 3, 3, 1};
  for (Index j = 1; j <= 6; ++j) {
    t.emplace_back(0, j, wts[j - 1]);
    t.emplace_back(j, 0, wts[j - 1]);
  }
  Csr w = from_triplets(7, t);
  std::vector<Index> confirmed(21, -1), proposed(21, -1);
  propose(view_of(w), 3, confirmed.data(), nullptr, proposed.data());
  EXPECT_EQ(std::vector<Index>(proposed.begin(), proposed.begin() + 3), (std::vector<Index>{3, 4, 5}));
  // Row 0 stored in reverse: the accumulator is defined on values, not on position.
  std::reverse(w.colidx.begin(), w.colidx.begin() + 6);
  std::reverse(w.values.begin(), w.values.begin() + 6);
  propose(view_of(w), 3, confirmed.data(), nullptr, proposed.data());
  EXPECT_EQ(std::vector<Index>(proposed.begin(), proposed.begin() + 3), (std::vector<Index>{3, 4, 5}));
  // n = 4 adds the better of the two 2's: column 1.
  std::vector<Index> c4(28, -1), p4(28, -1);
  propose(view_of(w), 4, c4.data(), nullptr, p4.data());
  EXPECT_EQ(std::vector<Index>(p4.begin(), p4.begin() + 4), (std::vector<Index>{3, 4, 5, 1}));
}

// ---- Algorithm 2 against an independent, naive transcription -----------------------------

std::vector<Index> naive_factor(const Csr &w, const FactorOptions &o, int *rounds) {
  const Index nv = w.nrows;
  const int n = o.max_degree;
  std::vector<std::set<Index>> c(static_cast<std::size_t>(nv));
  *rounds = 0;
  for (int k = 0; k < o.rounds; ++k) {
    const bool charged = k % o.charge_period != o.charge_offset;
    const auto cp = c;
    std::vector<std::vector<Index>> prop(static_cast<std::size_t>(nv));
    std::size_t total = 0;
    for (Index v = 0; v < nv; ++v) {
      std::vector<std::pair<double, Index>> cand; // (-w, j): sorts best first
      for (Index e = w.rowptr[v]; e < w.rowptr[v + 1]; ++e) {
        const Index j = w.colidx[e];
        if (static_cast<int>(cp[static_cast<std::size_t>(j)].size()) == n || cp[static_cast<std::size_t>(v)].count(j))
          continue;
        if (charged && charge_from_doc(o.seed, k, v, o.charge_prob) == charge_from_doc(o.seed, k, j, o.charge_prob))
          continue;
        cand.emplace_back(-w.values[static_cast<std::size_t>(e)], j);
      }
      std::sort(cand.begin(), cand.end());
      const std::size_t want = static_cast<std::size_t>(n) - cp[static_cast<std::size_t>(v)].size();
      for (std::size_t s = 0; s < cand.size() && s < want; ++s)
        prop[static_cast<std::size_t>(v)].push_back(cand[s].second);
      total += prop[static_cast<std::size_t>(v)].size();
    }
    *rounds = k + 1;
    if (!charged && total == 0) break;
    for (Index v = 0; v < nv; ++v)
      for (const Index j : prop[static_cast<std::size_t>(v)]) {
        const auto &pj = prop[static_cast<std::size_t>(j)];
        if (std::find(pj.begin(), pj.end(), v) != pj.end()) c[static_cast<std::size_t>(v)].insert(j);
      }
  }
  std::vector<Index> nbr(static_cast<std::size_t>(nv) * n, -1);
  for (Index v = 0; v < nv; ++v) {
    std::size_t s = 0;
    for (const Index j : c[static_cast<std::size_t>(v)]) nbr[static_cast<std::size_t>(v) * n + s++] = j;
  }
  return nbr;
}

TEST(TrilfFactor, EqualsNaiveTranscriptionOnRandomGraphs) {
  int cases = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed)
    for (const int levels : {0, 2, 3})
      for (int n = 1; n <= 4; ++n) {
        RandomMatrix r;
        r.n = 90;
        r.deg = 3 + static_cast<int>(seed % 3);
        r.seed = seed * 31 + static_cast<std::uint64_t>(levels);
        r.levels = levels;
        r.symmetric_values = seed % 2 == 1;
        r.symmetric_pattern = seed % 3 != 0;
        const Csr w = weight_graph(view_of(random_matrix(r)));
        FactorOptions o;
        o.max_degree = n;
        o.rounds = 12;
        o.seed = seed;
        o.charge_period = 1 + static_cast<int>(seed % 5);
        o.charge_offset = static_cast<int>(seed % static_cast<std::uint64_t>(o.charge_period));
        o.charge_prob = seed == 3 ? 0.3 : 0.5;
        const Factor f = parallel_factor(view_of(w), o);
        int rounds = 0;
        const std::vector<Index> ref = naive_factor(w, o, &rounds);
        ASSERT_EQ(f.nbr, ref) << "seed " << seed << " levels " << levels << " n " << n;
        ASSERT_EQ(f.rounds_run, rounds);
        ASSERT_TRUE(valid_factor(f.nbr, n, w));
        ++cases;
      }
  EXPECT_EQ(cases, 72);
}

TEST(TrilfFactor, StructureOnGeneratedGraphs) {
  for (const char *s : {"random:n=300,deg=6,seed=2", "powerlaw:n=400,seed=3", "rgg2d:n=300", "hubrow:n=200",
                        "disconnected:n=200", "lap3d27:n=5", "empty:n=7"}) {
    SCOPED_TRACE(s);
    const Csr a = spec(s);
    const Csr w = weight_graph(view_of(a));
    for (int n = 1; n <= 4; ++n) {
      FactorOptions o;
      o.max_degree = n;
      const Factor f = parallel_factor(view_of(w), o);
      EXPECT_TRUE(valid_factor(f.nbr, n, w));
      EXPECT_EQ(f.rounds_run <= 5, true);
      const Factor g = greedy_factor(view_of(w), n);
      EXPECT_TRUE(valid_factor(g.nbr, n, w));
    }
  }
}

TEST(TrilfFactor, FirstUnchargedRoundConfirmsTheGloballyHeaviestEdge) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    RandomMatrix r;
    r.n = 200;
    r.seed = seed;
    r.levels = 4; // ties: the global order (w desc, min id, max id) must decide
    const Csr w = weight_graph(view_of(random_matrix(r)));
    FactorOptions o;
    o.rounds = 1;
    const Factor f = parallel_factor(view_of(w), o);
    // Heaviest edge in the global strict order.
    double best = -1;
    Index bi = -1, bj = -1;
    for (Index i = 0; i < w.nrows; ++i)
      for (Index e = w.rowptr[i]; e < w.rowptr[i + 1]; ++e)
        if (w.colidx[e] > i && w.values[e] > best) {
          best = w.values[e];
          bi = i;
          bj = w.colidx[e];
        }
    ASSERT_GE(bi, 0);
    EXPECT_TRUE(f.nbr[2 * static_cast<std::size_t>(bi)] == bj || f.nbr[2 * static_cast<std::size_t>(bi) + 1] == bj);
  }
}

TEST(TrilfFactor, EarlyStopChangesNothingAndMmaxFollowsTheChargePattern) {
  for (const int km : {0, 1, 2}) {
    const Csr w = weight_graph(view_of(spec("rgg2d:n=400,deg=8,seed=5")));
    FactorOptions o;
    o.charge_offset = km;
    o.rounds = 1000;
    const Factor f = parallel_factor(view_of(w), o);
    ASSERT_TRUE(f.maximal);
    EXPECT_EQ(f.rounds_run % o.charge_period, (km + 1) % o.charge_period); // Table 4
    for (int extra = 0; extra < 7; ++extra) {
      FactorOptions fixed = o;
      fixed.rounds = f.rounds_run + extra;
      const Factor g = parallel_factor(view_of(w), fixed);
      EXPECT_EQ(g.nbr, f.nbr);
    }
    // Maximal: no edge with both ends unsaturated is left out.
    for (Index i = 0; i < w.nrows; ++i)
      for (Index e = w.rowptr[i]; e < w.rowptr[i + 1]; ++e) {
        const Index j = w.colidx[e];
        const bool linked =
            f.nbr[2 * static_cast<std::size_t>(i)] == j || f.nbr[2 * static_cast<std::size_t>(i) + 1] == j;
        EXPECT_TRUE(linked || f.degree(i) == 2 || f.degree(j) == 2);
      }
  }
}

TEST(TrilfFactor, SymmetricValuesGiveTheForestOfAbsA) {
  // w = |a_ij| + |a_ji| = 2|a_ij| orders the edges exactly as |a_ij| does.
  RandomMatrix r;
  r.n = 150;
  r.levels = 3;
  const Csr a = random_matrix(r);
  const Csr w = weight_graph(view_of(a));
  Csr half = w;
  for (double &x : half.values) x *= 0.5;
  for (Index i = 0; i < a.nrows; ++i)
    for (Index e = half.rowptr[i]; e < half.rowptr[i + 1]; ++e)
      ASSERT_EQ(half.values[e], std::fabs(entry(a, i, half.colidx[e])));
  FactorOptions o;
  EXPECT_EQ(parallel_factor(view_of(w), o).nbr, parallel_factor(view_of(half), o).nbr);
}

TEST(TrilfFactor, DeterministicAndSeedDependent) {
  const Csr w = weight_graph(view_of(spec("random:n=500,deg=6,seed=9")));
  FactorOptions o;
  const Factor f1 = parallel_factor(view_of(w), o);
  const Factor f2 = parallel_factor(view_of(w), o);
  EXPECT_EQ(f1.nbr, f2.nbr);
  o.seed = 12345;
  EXPECT_NE(parallel_factor(view_of(w), o).nbr, f1.nbr);
}

TEST(TrilfFactor, GreedyTakesEdgesInGlobalOrder) {
  // Path 0-1-2-3 with equal weights: greedy n=1 takes (0,1) then (2,3).
  const Csr w = from_triplets(4, {{0, 1, 1}, {1, 0, 1}, {1, 2, 1}, {2, 1, 1}, {2, 3, 1}, {3, 2, 1}});
  const Factor g = greedy_factor(view_of(w), 1);
  EXPECT_EQ(g.nbr, (std::vector<Index>{1, 0, 3, 2}));
  EXPECT_TRUE(g.maximal);
  // Parallel n=1, uncharged only: every vertex proposes to its smaller-id neighbour, so only
  // (0,1) is mutual in round 0, then (2,3) in round 1.
  FactorOptions o;
  o.max_degree = 1;
  o.charge_period = 1;
  o.rounds = 1;
  EXPECT_EQ(parallel_factor(view_of(w), o).nbr, (std::vector<Index>{1, 0, -1, -1}));
  o.rounds = 2;
  EXPECT_EQ(parallel_factor(view_of(w), o).nbr, (std::vector<Index>{1, 0, 3, 2}));
}

TEST(TrilfFactor, RejectsBadOptions) {
  const Csr w = weight_graph(view_of(spec("path:n=5")));
  auto bad = [&](auto mutate) {
    FactorOptions o;
    mutate(o);
    EXPECT_THROW(parallel_factor(view_of(w), o), std::invalid_argument);
  };
  bad([](FactorOptions &o) { o.max_degree = 0; });
  bad([](FactorOptions &o) { o.max_degree = kMaxDegree + 1; });
  bad([](FactorOptions &o) { o.rounds = -1; });
  bad([](FactorOptions &o) { o.charge_period = 0; });
  bad([](FactorOptions &o) { o.charge_offset = 5; });
  bad([](FactorOptions &o) { o.charge_prob = 1.5; });
  EXPECT_THROW(greedy_factor(view_of(w), 0), std::invalid_argument);
  FactorOptions zero;
  zero.rounds = 0;
  EXPECT_EQ(parallel_factor(view_of(w), zero).edges(), 0);
}

} // namespace
} // namespace pgk::trilf::test

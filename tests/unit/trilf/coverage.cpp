// PC trilf reference: weight coverage (Klein & Strzodka Eq. 3-5) and the paper's ANISO
// numbers (Tables 4 and 5), replayed on 60 x 60 grids.
//
// Values this reference gives on aniso2d:n=60 (cfg2 = M 5, m 5, k_m 0, p 0.5, seed 0):
//                c_id    n=1     n=2     n=3     n=4     blk m=1  blk m=5
//   ANISO1       0.6696  0.2723  0.6706  0.7282  0.7919  0.6702   0.6336
//   ANISO2       0.1350  0.2819  0.6675  0.7265  0.7931  0.6657   0.6323
//   ANISO3(*)    0.6637  0.2839  0.6674  0.7262  0.7931  0.6651   0.6353
//   paper PAR    .68/.13/.68  .27  .67   .72     .79     .68      .64
// "blk": the 2x2 block variant with the paper's pairing (PairRule::Matching); the default
//     pairing along the forest keeps at least the n=2 column.
// (*) the paper's ANISO3 = ANISO2 renumbered along the strong diagonal: the generator's
//     variant=3, checked below against that renumbering done here.
// On the paper's 2500 x 2500 grids (run offline) ANISO1 gives c_id 0.6667 and
// 0.2688/0.6668/0.7229/0.7867, blk 0.6667/0.6261; ANISO2 0.1334 and
// 0.2745/0.6667/0.7228/0.7883, blk 0.6666/0.6244: Table 5's .27/.67/.72/.79 when rounded.
// Algorithm 1 (SEQ) gives 0.34/0.67/0.74/0.81 on 60 x 60: n = 1 is above the paper's 0.29
// because its equal-weight edges are taken in (min id, max id) order, which matches grid
// lines perfectly (every other edge); an arbitrary tie order matches a random maximal set,
// (1 - e^-2)/2 = 43% of a line's edges instead of 50%: 0.43 * 0.667 = 0.29.
#include "tests/unit/trilf/support.hpp"

#include "tests/support/host.hpp"

#include <gtest/gtest.h>

namespace pgk::trilf::test {
namespace {

TEST(TrilfCoverage, HandComputedOnANonsymmetricMatrix) {
  //   [ 9  -2   0   4 ]
  //   [ 1   9   3   0 ]      off-diagonal total = 2+4+1+3+6+5 = 21
  //   [ 0   0   9  -6 ]
  //   [ 0   0  -5   9 ]
  std::vector<Index> r{0, 0, 0, 1, 1, 1, 2, 2, 3, 3}, c{0, 1, 3, 0, 1, 2, 2, 3, 2, 3};
  const Csr a = csr_from_coo(4, 4, r, c, {9, -2, 4, 1, 9, 3, 9, -6, -5, 9});
  EXPECT_DOUBLE_EQ(offdiagonal_weight(view_of(a)), 21.0);
  EXPECT_DOUBLE_EQ(coverage_identity(view_of(a)), (2 + 1 + 3 + 6 + 5) / 21.0);
  // Forest 0-3-2 plus 1 alone: edges {0,3} (4 + 0) and {2,3} (6 + 5).
  LinearForest f;
  f.nbr = {3, -1, -1, -1, 3, -1, 0, 2};
  EXPECT_DOUBLE_EQ(coverage(view_of(a), f), 15.0 / 21.0);
  const PathOrder o = order_paths(f);
  EXPECT_DOUBLE_EQ(coverage(view_of(a), o), 15.0 / 21.0);
  // Blocks (0,1) and (2,3) adjacent on one coarse path: the block tridiagonal T holds all.
  BlockOrder b;
  b.slots = {0, 1, 2, 3};
  b.path_start = {0, 2};
  EXPECT_DOUBLE_EQ(coverage(view_of(a), b), 1.0);
  b.path_start = {0, 1, 2}; // two coarse paths: only the intra-pair entries remain
  EXPECT_DOUBLE_EQ(coverage(view_of(a), b), (2 + 1 + 6 + 5) / 21.0);
  // No off-diagonal weight: full coverage by convention.
  EXPECT_DOUBLE_EQ(coverage_identity(view_of(spec("empty:n=3"))), 1.0);
  EXPECT_THROW(coverage_neighbours(view_of(a), f.nbr, 3), std::invalid_argument);
}

// The paper's ANISO3 built by hand: ANISO2 numbered along its strong (-1) diagonal,
// x - y = const, so that the -1 couplings sit on the sub- and superdiagonal.
Csr paper_aniso3(Index n) {
  const Csr a2 = spec("aniso2d:n=" + std::to_string(n) + ",variant=2");
  std::vector<Index> perm;
  for (Index d = -(n - 1); d <= n - 1; ++d)
    for (Index x = 0; x < n; ++x) {
      const Index y = x - d;
      if (y >= 0 && y < n) perm.push_back(x + n * y);
    }
  return permute_symmetric(a2, perm);
}

struct PaperRow {
  const char *name;
  Csr a;
  double c_id; // Table 5
};

std::vector<PaperRow> aniso_grids() {
  return {{"ANISO1", spec("aniso2d:n=60,variant=1"), 0.68},
          {"ANISO2", spec("aniso2d:n=60,variant=2"), 0.13},
          {"ANISO3", spec("aniso2d:n=60,variant=3"), 0.68}};
}

TEST(TrilfCoverage, GeneratorAniso3IsThePapers) {
  for (const Index n : {1, 2, 7, 60}) {
    SCOPED_TRACE(n);
    EXPECT_TRUE(pgk::test::same_csr(spec("aniso2d:n=" + std::to_string(n) + ",variant=3"), paper_aniso3(n)));
  }
}

constexpr double kTol = 0.02; // the tolerance; the worst gap below is 0.018

TEST(TrilfCoverage, PaperTable5AnisoScalar) {
  const double par[4] = {0.27, 0.67, 0.72, 0.79}; // c_pi(5), cfg2, n = 1..4
  const double seq[4] = {0.29, 0.67, 0.73, 0.79};
  for (const PaperRow &row : aniso_grids()) {
    SCOPED_TRACE(row.name);
    const Csr w = weight_graph(view_of(row.a));
    EXPECT_NEAR(coverage_identity(view_of(row.a)), row.c_id, kTol);
    for (int n = 1; n <= 4; ++n) {
      FactorOptions o;
      o.max_degree = n;
      const Factor f = parallel_factor(view_of(w), o);
      EXPECT_EQ(f.rounds_run, 5);
      EXPECT_NEAR(coverage(view_of(row.a), f), par[n - 1], kTol) << "n = " << n;
      const double cseq = coverage(view_of(row.a), greedy_factor(view_of(w), n));
      if (n == 1) EXPECT_NEAR(cseq, 0.34, 0.005); // tie order, see the file comment
      else EXPECT_NEAR(cseq, seq[n - 1], kTol) << "n = " << n;
    }
  }
}

TEST(TrilfCoverage, PaperTable5AnisoBlock) {
  // The paper's pairing (a [0,1]-factor) reproduces its Table 5; pairing along the scalar
  // forest's paths (the default, block.hpp) keeps at least the scalar forest's coverage
  // (0.667 on every ANISO grid) where the paper's loses it at m = 5.
  for (const PaperRow &row : aniso_grids()) {
    SCOPED_TRACE(row.name);
    for (const auto &[m, paper] : {std::pair{1, 0.68}, std::pair{5, 0.64}}) {
      FactorOptions o;
      o.charge_period = m;
      EXPECT_NEAR(coverage(view_of(row.a), block_linear_forest(view_of(row.a), o, nullptr, PairRule::Matching)), paper,
                  kTol)
          << "m = " << m;
      const double scalar = coverage(view_of(row.a), order_paths(extract_linear_forest(view_of(row.a), o)));
      EXPECT_GE(coverage(view_of(row.a), block_linear_forest(view_of(row.a), o)), scalar) << "m = " << m;
    }
  }
}

TEST(TrilfCoverage, PaperTable4AnisoIterations) {
  // [0,2]-factor. cfg2 (m 5, k_m 0): maximal after M_max = 11 rounds with c = 0.67.
  // cfg3 (m 5, k_m 1): c_pi(5) = 0.54 / 0.57 / 0.56 in the paper (charging in round 0 hurts).
  // cfg1 (m 1, never charged): round 0 links every grid line; afterwards the line ends
  // pair up, and with ties going to the smaller column only the lowest free pair is mutual
  // in each round. On n x n grids this gives M_max = n/2 + 2 (ANISO1) and n/2 + 1 (ANISO2);
  // the paper's Table 4 has 1252 and 1251 at n = 2500, and this reference reproduces both
  // exactly there (run offline: 2500^2 is too big for a unit test). That agreement is the
  // best evidence that the tie rule is the paper's.
  const double cfg3[3] = {0.54, 0.57, 0.56};
  const std::vector<PaperRow> grids = aniso_grids();
  for (int g = 0; g < 3; ++g) {
    const PaperRow &row = grids[static_cast<std::size_t>(g)];
    SCOPED_TRACE(row.name);
    const Csr w = weight_graph(view_of(row.a));
    FactorOptions o;
    o.rounds = 100000;
    const Factor f2 = parallel_factor(view_of(w), o);
    EXPECT_TRUE(f2.maximal);
    EXPECT_EQ(f2.rounds_run, 11);
    EXPECT_NEAR(coverage(view_of(row.a), f2), 0.67, kTol);
    FactorOptions o3;
    o3.charge_offset = 1;
    EXPECT_NEAR(coverage(view_of(row.a), parallel_factor(view_of(w), o3)), cfg3[g], kTol);
  }
  FactorOptions o1;
  o1.charge_period = 1;
  o1.rounds = 100000;
  EXPECT_EQ(parallel_factor(view_of(weight_graph(view_of(grids[0].a))), o1).rounds_run, 32);
  EXPECT_EQ(parallel_factor(view_of(weight_graph(view_of(grids[1].a))), o1).rounds_run, 31);
}

TEST(TrilfCoverage, ForestKeepsAlmostAllOfTheFactor) {
  // Cycle breaking removes only the weakest edge of each cycle.
  for (const PaperRow &row : aniso_grids()) {
    const Csr w = weight_graph(view_of(row.a));
    const Factor f = parallel_factor(view_of(w), FactorOptions());
    const LinearForest lf = break_cycles(f, view_of(w));
    const double cf = coverage(view_of(row.a), f), cl = coverage(view_of(row.a), lf);
    EXPECT_LE(cl, cf);
    EXPECT_GT(cl, cf - 0.005);
    EXPECT_DOUBLE_EQ(coverage(view_of(row.a), order_paths(lf)), cl);
  }
}

} // namespace
} // namespace pgk::trilf::test

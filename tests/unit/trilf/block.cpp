// PC trilf reference, block variant: pairing (along the forest's paths, or the paper's
// [0,1]-factor), coarse graph, coarse linear forest, 2x2 block tridiagonal assembly,
// factorization and solve.
#include "tests/unit/trilf/support.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <stdexcept>

namespace pgk::trilf::test {
namespace {

std::vector<Csr> block_matrices() {
  std::vector<Csr> m;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    RandomMatrix r;
    r.n = 121 + static_cast<Index>(seed); // odd and even: ghosts appear
    r.seed = seed + 50;
    r.symmetric_pattern = seed != 3;
    r.symmetric_values = seed == 2;
    r.levels = seed == 4 ? 2 : 0;
    r.negative_diag = seed == 1;
    m.push_back(random_matrix(r));
  }
  for (const char *s : {"aniso2d:nx=15,ny=11,variant=1", "convdiff2d:n=13,peclet=30", "elast3d:n=4"})
    m.push_back(spec(s));
  return m;
}

// The numbering and coarse-graph rules of block.hpp, for any pairing p of w.
void check_numbering_and_coarse_graph(const Csr &w, const Pairing &p) {
  ASSERT_TRUE(valid_factor(p.partner, 1, w));
  EXPECT_EQ(p.ncoarse(), w.nrows - p.pairs);
  Index prev = -1;
  for (Index I = 0; I < p.ncoarse(); ++I) {
    const Index i0 = p.members[2 * static_cast<std::size_t>(I)];
    const Index i1 = p.members[2 * static_cast<std::size_t>(I) + 1];
    ASSERT_GT(i0, prev); // coarse ids ascend with the smaller member
    prev = i0;
    ASSERT_EQ(p.coarse_of[static_cast<std::size_t>(i0)], I);
    ASSERT_EQ(p.partner[static_cast<std::size_t>(i0)], i1);
    if (i1 >= 0) {
      ASSERT_LT(i0, i1);
      ASSERT_EQ(p.coarse_of[static_cast<std::size_t>(i1)], I);
    }
  }
  // Coarse weights: the documented grouping, exactly symmetric.
  const Csr c = coarse_graph(view_of(w), p);
  ASSERT_TRUE(rows_sorted_unique(view_of(c)));
  auto wt = [&](Index x, Index y) { return x < 0 || y < 0 ? 0.0 : edge_weight(view_of(w), x, y); };
  Index edges = 0;
  for (Index I = 0; I < c.nrows; ++I)
    for (Index e = c.rowptr[I]; e < c.rowptr[I + 1]; ++e) {
      const Index J = c.colidx[e];
      ASSERT_NE(I, J);
      const double v = c.values[static_cast<std::size_t>(e)];
      const double back = edge_weight(view_of(c), J, I);
      ASSERT_EQ(std::memcmp(&v, &back, sizeof v), 0);
      const Index i0 = p.members[2 * static_cast<std::size_t>(I)], i1 = p.members[2 * static_cast<std::size_t>(I) + 1];
      const Index j0 = p.members[2 * static_cast<std::size_t>(J)], j1 = p.members[2 * static_cast<std::size_t>(J) + 1];
      ASSERT_EQ(v, (wt(i0, j0) + wt(i1, j1)) + (wt(i0, j1) + wt(i1, j0)));
      ++edges;
    }
  // Every fine edge between different coarse vertices appears in the coarse graph.
  for (Index i = 0; i < w.nrows; ++i)
    for (Index e = w.rowptr[i]; e < w.rowptr[i + 1]; ++e) {
      const Index I = p.coarse_of[static_cast<std::size_t>(i)];
      const Index J = p.coarse_of[static_cast<std::size_t>(w.colidx[e])];
      if (I != J) {
        ASSERT_GT(edge_weight(view_of(c), I, J), 0.0);
      }
    }
  EXPECT_GT(edges, 0);
}

TEST(TrilfPairing, PairsAndCoarseGraphFollowTheDocumentedRules) {
  for (const Csr &a : block_matrices()) {
    const Csr w = weight_graph(view_of(a));
    for (const int m : {1, 5}) {
      FactorOptions o;
      o.charge_period = m;
      o.max_degree = 3; // ignored by pair_vertices
      const Pairing p = pair_vertices(view_of(w), o);
      // Matching: the same as a [0,1]-factor with these options.
      FactorOptions o1 = o;
      o1.max_degree = 1;
      EXPECT_EQ(p.partner, parallel_factor(view_of(w), o1).nbr);
      check_numbering_and_coarse_graph(w, p);
      // Forest: pairs at positions (s, s+1), (s+2, s+3), ... of every path of the scalar
      // variant's order, i.e. edges of its forest; only the last vertex of an odd path is alone.
      o.max_degree = 2;
      const LinearForest forest = break_cycles(parallel_factor(view_of(w), o), view_of(w));
      const PathOrder order = order_paths(forest);
      const Pairing q = pair_along_paths(order);
      check_numbering_and_coarse_graph(w, q);
      Index odd = 0;
      for (Index path = 0; path < order.npaths(); ++path) {
        const Index b = order.path_start[static_cast<std::size_t>(path)];
        const Index e = order.path_start[static_cast<std::size_t>(path) + 1];
        odd += (e - b) % 2;
        for (Index k = b; k < e; ++k) {
          const Index v = order.perm[static_cast<std::size_t>(k)];
          const Index want = (k - b) % 2 ? order.perm[static_cast<std::size_t>(k) - 1]
                                         : (k + 1 < e ? order.perm[static_cast<std::size_t>(k) + 1] : -1);
          ASSERT_EQ(q.partner[static_cast<std::size_t>(v)], want);
        }
      }
      EXPECT_EQ(q.ncoarse() - q.pairs, odd);
    }
  }
}

TEST(TrilfPairing, AlongPathsHandComputed) {
  // Paths 0-3-5 | 1 | 2-4-6-7 (positions as given, whatever the ids).
  PathOrder o;
  o.perm = {0, 3, 5, 1, 2, 4, 6, 7};
  o.path_start = {0, 3, 4, 8};
  const Pairing p = pair_along_paths(o);
  EXPECT_EQ(p.partner, (std::vector<Index>{3, -1, 4, 0, 2, -1, 7, 6}));
  // Coarse ids by the smaller member: {0,3} {1} {2,4} {5} {6,7}.
  EXPECT_EQ(p.members, (std::vector<Index>{0, 3, 1, -1, 2, 4, 5, -1, 6, 7}));
  EXPECT_EQ(p.coarse_of, (std::vector<Index>{0, 1, 2, 0, 2, 3, 4, 4}));
  EXPECT_EQ(p.pairs, 3);
  o.path_start = {0, 3};
  EXPECT_THROW(pair_along_paths(o), std::invalid_argument);
  EXPECT_EQ(parse_pair_rule("matching"), PairRule::Matching);
  EXPECT_STREQ(to_string(parse_pair_rule("forest")), "forest");
  EXPECT_THROW(parse_pair_rule("pairs"), std::invalid_argument);
}

// Dense 2nb x 2nb block tridiagonal matrix straight from the definition.
Dense dense_block_matrix(const Csr &a, const BlockOrder &o) {
  const std::size_t ns = o.slots.size();
  std::vector<Index> path_of(static_cast<std::size_t>(o.nblocks()));
  for (Index p = 0; p < o.npaths(); ++p)
    for (Index k = o.path_start[static_cast<std::size_t>(p)]; k < o.path_start[static_cast<std::size_t>(p) + 1]; ++k)
      path_of[static_cast<std::size_t>(k)] = p;
  Dense d(ns, std::vector<double>(ns, 0.0));
  for (std::size_t s = 0; s < ns; ++s)
    for (std::size_t t = 0; t < ns; ++t) {
      const std::size_t bs = s / 2, bt = t / 2;
      const bool near = bs == bt || ((bs + 1 == bt || bt + 1 == bs) && path_of[bs] == path_of[bt]);
      const Index i = o.slots[s], j = o.slots[t];
      if (i < 0 || j < 0) d[s][t] = (s == t) ? 1.0 : 0.0; // ghost row/column
      else if (near) d[s][t] = entry(a, i, j);
    }
  return d;
}

TEST(TrilfBlock, AssembleAndSolveMatchTheDenseDefinition) {
  Index ghosts = 0;
  for (const Csr &a : block_matrices())
    for (const int m : {1, 5, -1}) { // -1: m = 5 with the paper's matching
      FactorOptions o;
      o.charge_period = m < 0 ? 5 : m;
      BlockStats st;
      const BlockOrder ord = block_linear_forest(view_of(a), o, &st, m < 0 ? PairRule::Matching : PairRule::Forest);
      ghosts += st.ghosts;
      EXPECT_EQ(st.pairs + st.ghosts, ord.nblocks());
      EXPECT_EQ(st.pairs * 2 + st.ghosts, a.nrows);
      // Every row exactly once; slot 0 is never a ghost; pairs are W-edges.
      std::vector<int> seen(static_cast<std::size_t>(a.nrows), 0);
      for (std::size_t s = 0; s < ord.slots.size(); ++s) {
        if (ord.slots[s] >= 0) ++seen[static_cast<std::size_t>(ord.slots[s])];
        else ASSERT_EQ(s % 2, 1u);
      }
      for (const int c : seen) ASSERT_EQ(c, 1);
      const BlockTridiagonal t = assemble_block(view_of(a), ord);
      const Dense dense = dense_block_matrix(a, ord);
      for (std::size_t k = 0; k < static_cast<std::size_t>(ord.nblocks()); ++k)
        for (std::size_t r = 0; r < 2; ++r)
          for (std::size_t c = 0; c < 2; ++c) {
            ASSERT_EQ(t.diag[4 * k + 2 * r + c], dense[2 * k + r][2 * k + c]);
            if (k > 0) {
              ASSERT_EQ(t.lower[4 * k + 2 * r + c], dense[2 * k + r][2 * k - 2 + c]);
            }
            if (k + 1 < static_cast<std::size_t>(ord.nblocks())) {
              ASSERT_EQ(t.upper[4 * k + 2 * r + c], dense[2 * k + r][2 * k + 2 + c]);
            }
          }
      const BlockTridiagonalFactor f = factor_block(t, ord);
      EXPECT_EQ(f.splits + f.replaced, 0);
      const auto n = static_cast<std::size_t>(a.nrows);
      const std::vector<double> b = random_vector(n, 7 + n);
      std::vector<double> x(n);
      solve_block(f, b.data(), x.data());
      std::vector<double> bs(ord.slots.size(), 0.0);
      for (std::size_t s = 0; s < bs.size(); ++s)
        if (ord.slots[s] >= 0) bs[s] = b[static_cast<std::size_t>(ord.slots[s])];
      const std::vector<double> ys = dense_solve(dense, bs);
      std::vector<double> ref(n);
      for (std::size_t s = 0; s < bs.size(); ++s)
        if (ord.slots[s] >= 0) ref[static_cast<std::size_t>(ord.slots[s])] = ys[s];
      EXPECT_LE(rel_diff(x, ref), 1e-12);
      std::vector<double> y = b; // in place
      solve_block(f, y.data(), y.data());
      EXPECT_EQ(y, x);
      // Block coverage is at least the pairing's and at most 1.
      const double cb = coverage(view_of(a), ord);
      EXPECT_GE(cb, 0.0);
      EXPECT_LE(cb, 1.0);
    }
  EXPECT_GT(ghosts, 0);
}

// Dense T~ (the effective matrix of a factor) in the slot ordering; ghost rows/columns
// are the identity.
Dense dense_effective(const BlockTridiagonalFactor &f) {
  const std::size_t nb = static_cast<std::size_t>(f.nblocks());
  Dense d(2 * nb, std::vector<double>(2 * nb, 0.0));
  for (std::size_t k = 0; k < nb; ++k)
    for (std::size_t r = 0; r < 2; ++r)
      for (std::size_t c = 0; c < 2; ++c) {
        d[2 * k + r][2 * k + c] = f.effective.diag[4 * k + 2 * r + c];
        if (k > 0) d[2 * k + r][2 * k - 2 + c] = f.effective.lower[4 * k + 2 * r + c];
        if (k + 1 < nb) d[2 * k + r][2 * k + 2 + c] = f.effective.upper[4 * k + 2 * r + c];
      }
  return d;
}

TEST(TrilfBlock, TransposeSolveMatchesTheExplicitTransposeProduct) {
  std::vector<Csr> mats = block_matrices();
  // Zero diagonals: splits and replacements change T~, the transpose must follow T~.
  Csr z = spec("convdiff2d:n=9,peclet=50");
  for (Index i = 0; i < z.nrows; i += 3)
    for (Index e = z.rowptr[i]; e < z.rowptr[i + 1]; ++e)
      if (z.colidx[e] == i) z.values[static_cast<std::size_t>(e)] = 0.0;
  mats.push_back(z);
  // All ones: every pair block [1 1; 1 1] is singular (replacements), updates cancel (splits).
  Csr ones = spec("lap2d5:n=7");
  std::fill(ones.values.begin(), ones.values.end(), 1.0);
  mats.push_back(ones);
  Index fallbacks = 0;
  for (const Csr &a : mats)
    for (const int m : {1, 5, -1}) { // -1: m = 5 with the paper's matching
      FactorOptions o;
      o.charge_period = m < 0 ? 5 : m;
      const BlockOrder ord = block_linear_forest(view_of(a), o, nullptr, m < 0 ? PairRule::Matching : PairRule::Forest);
      const BlockTridiagonalFactor f = factor_block(assemble_block(view_of(a), ord), ord);
      fallbacks += f.splits + f.replaced;
      const auto n = static_cast<std::size_t>(a.nrows);
      const std::vector<double> b = random_vector(n, 11 + n), c = random_vector(n, 13 + n);
      std::vector<double> x(n), y(n);
      solve_block_transpose(f, b.data(), x.data());
      // T~^T x == b in the slot ordering (ghost entries: x = 0, b = 0).
      const Dense d = dense_effective(f);
      const std::size_t ns = f.slots.size();
      std::vector<double> xs(ns, 0.0), res(n, 0.0);
      for (std::size_t s = 0; s < ns; ++s)
        if (f.slots[s] >= 0) xs[s] = x[static_cast<std::size_t>(f.slots[s])];
      for (std::size_t s = 0; s < ns; ++s) {
        double v = 0;
        for (std::size_t t = 0; t < ns; ++t) v += d[t][s] * xs[t]; // (T~^T x)_s
        if (f.slots[s] >= 0) res[static_cast<std::size_t>(f.slots[s])] = v;
      }
      EXPECT_LE(rel_diff(res, b), 1e-12);
      // Duality: <M^-1 c, b> == <c, M^-T b>.
      solve_block(f, c.data(), y.data());
      double l = 0, r = 0, scale = 0;
      for (std::size_t i = 0; i < n; ++i) {
        l += y[i] * b[i];
        r += c[i] * x[i];
        scale += std::fabs(y[i] * b[i]) + std::fabs(c[i] * x[i]);
      }
      EXPECT_LE(std::fabs(l - r), 1e-12 * scale);
      std::vector<double> w = b; // in place
      solve_block_transpose(f, w.data(), w.data());
      EXPECT_EQ(w, x);
    }
  EXPECT_GT(fallbacks, 0);
}

BlockOrder hand_order(std::vector<Index> slots, std::vector<Index> starts) {
  BlockOrder o;
  o.slots = std::move(slots);
  o.path_start = std::move(starts);
  return o;
}

TEST(TrilfBlockPivots, SingularPairBlockIsReplacedByItsDiagonal) {
  // A = [1 1; 1 1]: the pair (0,1) is one block with a singular D.
  std::vector<Index> r{0, 0, 1, 1}, c{0, 1, 0, 1};
  const Csr a = csr_from_coo(2, 2, r, c, {1, 1, 1, 1});
  const BlockOrder ord = block_linear_forest(view_of(a), FactorOptions());
  ASSERT_EQ(ord.slots, (std::vector<Index>{0, 1}));
  const BlockTridiagonalFactor f = factor_block(assemble_block(view_of(a), ord), ord);
  EXPECT_EQ(f.replaced, 1);
  EXPECT_EQ(f.effective.diag, (std::vector<double>{1, 0, 0, 1}));
  std::vector<double> x{2, 3};
  solve_block(f, x.data(), x.data());
  EXPECT_EQ(x, (std::vector<double>{2, 3}));
}

TEST(TrilfBlockPivots, SingularUpdatedPivotSplitsTheCoarsePath) {
  // D_0 = D_1 = I, L_1 = U_0 = I: D'_1 = I - I = 0 -> split, D'_1 = D_1.
  BlockTridiagonal t;
  t.diag = {1, 0, 0, 1, 1, 0, 0, 1};
  t.lower = {0, 0, 0, 0, 1, 0, 0, 1};
  t.upper = {1, 0, 0, 1, 0, 0, 0, 0};
  const BlockOrder ord = hand_order({0, 1, 2, 3}, {0, 2});
  const BlockTridiagonalFactor f = factor_block(t, ord);
  EXPECT_EQ(f.splits, 1);
  EXPECT_EQ(f.replaced, 0);
  EXPECT_EQ(f.effective.lower, (std::vector<double>(8, 0.0)));
  EXPECT_EQ(f.effective.upper, (std::vector<double>(8, 0.0)));
  std::vector<double> x{1, 2, 3, 4};
  solve_block(f, x.data(), x.data());
  EXPECT_EQ(x, (std::vector<double>{1, 2, 3, 4}));
}

TEST(TrilfBlockPivots, ZeroRowWithGhostAndNonFinite) {
  // One unmatched vertex with a zero diagonal and no couplings: block [0 0; 0 1(ghost)].
  BlockTridiagonal t;
  t.diag = {0, 0, 0, 1};
  t.lower = {0, 0, 0, 0};
  t.upper = {0, 0, 0, 0};
  const BlockOrder ord = hand_order({0, -1}, {0, 1});
  const BlockTridiagonalFactor f = factor_block(t, ord);
  EXPECT_EQ(f.replaced, 1);
  double x = 5;
  solve_block(f, &x, &x);
  EXPECT_EQ(x, 5.0);
  // Saddle point pair [0 1; 1 0] is a fine 2x2 pivot: no fallback.
  t.diag = {0, 1, 1, 0};
  const BlockTridiagonalFactor g = factor_block(t, hand_order({0, 1}, {0, 1}));
  EXPECT_EQ(g.replaced + g.splits, 0);
  std::vector<double> y{2, 3};
  solve_block(g, y.data(), y.data());
  EXPECT_EQ(y, (std::vector<double>{3, 2}));
  // Non-finite values are reported.
  t.diag = {1, std::numeric_limits<double>::quiet_NaN(), 0, 1};
  EXPECT_THROW(factor_block(t, hand_order({0, 1}, {0, 1})), std::domain_error);
  Csr a = spec("path:n=4");
  const BlockOrder o4 = block_linear_forest(view_of(a), FactorOptions());
  a.values[0] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(assemble_block(view_of(a), o4), std::domain_error);
  EXPECT_THROW(block_linear_forest(view_of(a), FactorOptions()), std::domain_error);
  // Malformed orders.
  EXPECT_THROW(assemble_block(view_of(spec("path:n=4")), hand_order({0, 1, 2, 2}, {0, 2})), std::invalid_argument);
  EXPECT_THROW(assemble_block(view_of(spec("path:n=4")), hand_order({-1, 1, 2, 3, 0, -1}, {0, 3})),
               std::invalid_argument);
}

TEST(TrilfBlockPivots, EmptyMatrix) {
  const Csr a = spec("empty:n=1");
  Csr z;
  const BlockOrder o = block_linear_forest(view_of(z), FactorOptions());
  EXPECT_EQ(o.nblocks(), 0);
  const BlockTridiagonalFactor f = factor_block(assemble_block(view_of(z), o), o);
  solve_block(f, nullptr, nullptr);
  // A single vertex becomes one block with a ghost.
  const BlockOrder o1 = block_linear_forest(view_of(a), FactorOptions());
  EXPECT_EQ(o1.slots, (std::vector<Index>{0, -1}));
}

} // namespace
} // namespace pgk::trilf::test

// PC trilf reference, step 2: cycle breaking and the path permutation. Besides the structure
// checks, a data-parallel transcription of the paper's bidirectional scans (pointer jumping
// with ping-pong buffers, a fixed ceil(log2 N) steps, as a GPU would run them) must give
// exactly the serial reference's forest and permutation.
#include "tests/unit/trilf/support.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <tuple>

namespace pgk::trilf::test {
namespace {

Factor factor_from_edges(Index nv, const std::vector<std::pair<Index, Index>> &edges) {
  Factor f;
  f.n = 2;
  f.nvertices = nv;
  f.nbr.assign(2 * static_cast<std::size_t>(nv), -1);
  for (const auto &[a, b] : edges) {
    for (const auto &[u, v] : {std::pair{a, b}, std::pair{b, a}}) {
      Index *s = f.nbr.data() + 2 * static_cast<std::size_t>(u);
      (s[0] < 0 ? s[0] : s[1]) = v;
      if (s[1] >= 0 && s[1] < s[0]) std::swap(s[0], s[1]);
    }
  }
  return f;
}

Csr graph_from_edges(Index nv, const std::vector<std::tuple<Index, Index, double>> &edges) {
  std::vector<Index> r, c;
  std::vector<double> v;
  for (const auto &[a, b, x] : edges) {
    r.push_back(a);
    c.push_back(b);
    v.push_back(x);
    r.push_back(b);
    c.push_back(a);
    v.push_back(x);
  }
  return csr_from_coo(nv, nv, r, c, v);
}

TEST(TrilfCycles, WeakestEdgeOfEachCycleIsRemoved) {
  // Cycle 0-1-2-3-0 with weights 5 4 1 3: drop {2,3}. Triangle 4-5-6, all 2: the tie goes
  // to the smallest (min, max) key, {4,5}. Path 7-8 stays.
  const Csr w =
      graph_from_edges(9, {{0, 1, 5}, {1, 2, 4}, {2, 3, 1}, {3, 0, 3}, {4, 5, 2}, {5, 6, 2}, {6, 4, 2}, {7, 8, 9}});
  const Factor f = factor_from_edges(9, {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 4}, {7, 8}});
  const LinearForest lf = break_cycles(f, view_of(w));
  EXPECT_EQ(lf.cycles_broken, 2);
  EXPECT_EQ(lf.nbr, (std::vector<Index>{1, 3, 0, 2, 1, -1, 0, -1, 6, -1, 6, -1, 4, 5, 8, -1, 7, -1}));
  EXPECT_TRUE(acyclic(lf));
  const PathOrder o = order_paths(lf);
  // Paths by smaller end: 2-1-0-3 (ends 2, 3: ID 2), 4-6-5 (ID 4), 7-8 (ID 7).
  EXPECT_EQ(o.perm, (std::vector<Index>{2, 1, 0, 3, 4, 6, 5, 7, 8}));
  EXPECT_EQ(o.path_start, (std::vector<Index>{0, 4, 7, 9}));
  EXPECT_EQ(o.longest, 4);
  EXPECT_TRUE(valid_order(o, lf));
}

TEST(TrilfCycles, IsolatedVerticesArePathsOfTheirOwn) {
  const Csr w = graph_from_edges(5, {{1, 3, 1}});
  const LinearForest lf = break_cycles(factor_from_edges(5, {{1, 3}}), view_of(w));
  const PathOrder o = order_paths(lf);
  EXPECT_EQ(o.perm, (std::vector<Index>{0, 1, 3, 2, 4}));
  EXPECT_EQ(o.path_start, (std::vector<Index>{0, 1, 3, 4, 5}));
  EXPECT_EQ(o.iperm, (std::vector<Index>{0, 1, 3, 2, 4}));
  const PathOrder empty = order_paths(LinearForest{});
  EXPECT_TRUE(empty.perm.empty());
  EXPECT_EQ(empty.npaths(), 0);
}

TEST(TrilfCycles, RejectsInvalidInput) {
  const Csr w = graph_from_edges(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}});
  Factor asym = factor_from_edges(3, {{0, 1}});
  asym.nbr[2] = -1; // 1 no longer lists 0
  EXPECT_THROW(break_cycles(asym, view_of(w)), std::invalid_argument);
  Factor f1;
  f1.n = 1;
  f1.nvertices = 3;
  f1.nbr.assign(3, -1);
  EXPECT_THROW(break_cycles(f1, view_of(w)), std::invalid_argument);
  LinearForest cyc;
  cyc.nbr = factor_from_edges(3, {{0, 1}, {1, 2}, {2, 0}}).nbr;
  EXPECT_THROW(order_paths(cyc), std::invalid_argument);
  FactorOptions o3;
  o3.max_degree = 3;
  EXPECT_THROW(extract_linear_forest(view_of(spec("path:n=4")), o3), std::invalid_argument);
}

// ---- the bidirectional scans of Section 4.2, transcribed data-parallel --------------------

int scan_steps(Index nv) {
  int s = 0;
  while ((Index(1) << s) < nv) ++s;
  return s;
}

// Step 1: every vertex learns the weakest edge of its cycle by a min-scan in both
// directions; both ends of that edge drop it. Only reads of the previous buffers.
LinearForest scan_break_cycles(const Factor &f, const Csr &w) {
  using Key = std::tuple<double, Index, Index>;
  const Index nv = f.nvertices;
  const Key none{std::numeric_limits<double>::infinity(), nv, nv};
  auto key = [&](Index a, Index b) { return Key{edge_weight(view_of(w), a, b), std::min(a, b), std::max(a, b)}; };
  auto end = [](Index v) { return -(v + 1); };
  std::vector<Index> q(2 * static_cast<std::size_t>(nv));
  std::vector<Key> k(2 * static_cast<std::size_t>(nv));
  for (Index v = 0; v < nv; ++v)
    for (int i = 0; i < 2; ++i) {
      const Index j = f.nbr[2 * static_cast<std::size_t>(v) + static_cast<std::size_t>(i)];
      q[2 * static_cast<std::size_t>(v) + static_cast<std::size_t>(i)] = j >= 0 ? j : end(v);
      k[2 * static_cast<std::size_t>(v) + static_cast<std::size_t>(i)] = j >= 0 ? key(v, j) : none;
    }
  for (int step = 0; step < scan_steps(nv); ++step) {
    const auto qp = q;
    const auto kp = k;
    for (Index v = 0; v < nv; ++v)
      for (int i = 0; i < 2; ++i) {
        const std::size_t vi = 2 * static_cast<std::size_t>(v) + static_cast<std::size_t>(i);
        const Index x = qp[vi];
        if (x < 0) continue;
        for (int j = 0; j < 2; ++j) {
          const std::size_t xj = 2 * static_cast<std::size_t>(x) + static_cast<std::size_t>(j);
          if (qp[xj] != v) {
            k[vi] = std::min(kp[vi], kp[xj]);
            q[vi] = qp[xj];
          }
        }
      }
  }
  LinearForest out;
  out.nbr = f.nbr;
  std::set<std::pair<Index, Index>> dropped;
  for (Index v = 0; v < nv; ++v) {
    const std::size_t v0 = 2 * static_cast<std::size_t>(v);
    if (q[v0] < 0 || q[v0 + 1] < 0) continue; // reached a path end: not on a cycle
    const Key m = std::min(k[v0], k[v0 + 1]);
    const Index a = std::get<1>(m), b = std::get<2>(m);
    if (v == a || v == b) {
      Index *s = out.nbr.data() + v0;
      const Index other = v == a ? b : a;
      if (s[0] == other) {
        s[0] = s[1];
        s[1] = -1;
      } else if (s[1] == other) {
        s[1] = -1;
      }
      dropped.insert({a, b});
    }
  }
  out.cycles_broken = static_cast<Index>(dropped.size());
  return out;
}

// Step 2 (Algorithm 3): path end and 1-based position counted from each side; the path ID
// is the smaller end and the position is counted from it; the permutation sorts by both.
std::vector<Index> scan_order(const LinearForest &f) {
  const Index nv = f.nvertices();
  auto end = [](Index v) { return -(v + 1); };
  std::vector<Index> q(2 * static_cast<std::size_t>(nv)), r(2 * static_cast<std::size_t>(nv), 1);
  for (Index v = 0; v < nv; ++v)
    for (int i = 0; i < 2; ++i) {
      const Index j = f.nbr[2 * static_cast<std::size_t>(v) + static_cast<std::size_t>(i)];
      q[2 * static_cast<std::size_t>(v) + static_cast<std::size_t>(i)] = j >= 0 ? j : end(v);
    }
  for (int step = 0; step < scan_steps(nv); ++step) {
    const auto qp = q;
    const auto rp = r;
    for (Index v = 0; v < nv; ++v)
      for (int i = 0; i < 2; ++i) {
        const std::size_t vi = 2 * static_cast<std::size_t>(v) + static_cast<std::size_t>(i);
        const Index x = qp[vi];
        if (x < 0) continue;
        for (int j = 0; j < 2; ++j) {
          const std::size_t xj = 2 * static_cast<std::size_t>(x) + static_cast<std::size_t>(j);
          if (qp[xj] != v) {
            r[vi] = rp[vi] + rp[xj];
            q[vi] = qp[xj];
          }
        }
      }
  }
  std::vector<std::tuple<Index, Index, Index>> keyed; // (path ID, position, vertex)
  for (Index v = 0; v < nv; ++v) {
    const std::size_t v0 = 2 * static_cast<std::size_t>(v);
    const Index e0 = -q[v0] - 1, e1 = -q[v0 + 1] - 1;
    const int i = e0 <= e1 ? 0 : 1;
    keyed.emplace_back(std::min(e0, e1), r[v0 + static_cast<std::size_t>(i)], v);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<Index> perm;
  for (const auto &t : keyed) perm.push_back(std::get<2>(t));
  return perm;
}

TEST(TrilfForest, StructureAndScanEquivalenceOnRandomGraphs) {
  int cycles_seen = 0;
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    RandomMatrix r;
    r.n = 40 + static_cast<Index>(seed * 17 % 200);
    r.deg = 1 + static_cast<int>(seed % 6);
    r.seed = seed;
    r.levels = seed % 3 == 0 ? 0 : static_cast<int>(seed % 3) + 1; // many ties
    r.symmetric_pattern = seed % 4 != 1;
    r.symmetric_values = seed % 5 != 2;
    const Csr a = random_matrix(r);
    const Csr w = weight_graph(view_of(a));
    FactorOptions o;
    o.seed = seed;
    o.rounds = 3 + static_cast<int>(seed % 9);
    o.charge_period = seed % 4 == 0 ? 1 : 5; // m = 1 makes long cycles likely
    const Factor f = parallel_factor(view_of(w), o);
    ASSERT_TRUE(valid_factor(f.nbr, 2, w));
    const LinearForest lf = break_cycles(f, view_of(w));
    ASSERT_TRUE(valid_factor(lf.nbr, 2, w)) << "seed " << seed;
    ASSERT_TRUE(acyclic(lf)) << "seed " << seed;
    EXPECT_EQ(lf.edges(), f.edges() - lf.cycles_broken);
    cycles_seen += static_cast<int>(lf.cycles_broken);
    const PathOrder ord = order_paths(lf);
    ASSERT_TRUE(valid_order(ord, lf)) << "seed " << seed;
    // The GPU formulation gives the same forest and the same permutation.
    const LinearForest scanned = scan_break_cycles(f, w);
    EXPECT_EQ(scanned.nbr, lf.nbr) << "seed " << seed;
    EXPECT_EQ(scanned.cycles_broken, lf.cycles_broken);
    EXPECT_EQ(scan_order(lf), ord.perm) << "seed " << seed;
    // Convenience entry point agrees with the steps.
    ForestStats st;
    const LinearForest direct = extract_linear_forest(view_of(a), o, &st);
    EXPECT_EQ(direct.nbr, lf.nbr);
    EXPECT_EQ(st.cycles_broken, lf.cycles_broken);
    EXPECT_EQ(st.forest_edges, lf.edges());
    EXPECT_EQ(st.factor_edges, f.edges());
    EXPECT_EQ(st.rounds_run, f.rounds_run);
  }
  EXPECT_GE(cycles_seen, 5); // the cycle branch was exercised (10 with these seeds)
}

TEST(TrilfForest, LongCyclesAndPathsFromHandMadeFactors) {
  // Many disjoint cycles and paths of many lengths, with tied weights, shuffled labels.
  SplitMix64 rng(77);
  const Index nv = 1000;
  std::vector<Index> label(static_cast<std::size_t>(nv));
  for (Index v = 0; v < nv; ++v) label[static_cast<std::size_t>(v)] = v;
  shuffle(label, rng);
  std::vector<std::pair<Index, Index>> edges;
  std::vector<std::tuple<Index, Index, double>> wedges;
  Index v = 0, cycles = 0;
  while (v < nv) {
    const Index len = std::min<Index>(nv - v, 1 + static_cast<Index>(rng.bounded(40)));
    const bool cycle = len >= 3 && rng.bounded(2) == 0;
    for (Index k = 0; k + 1 < len + (cycle ? 1 : 0); ++k) {
      const Index a = label[static_cast<std::size_t>(v + k)];
      const Index b = label[static_cast<std::size_t>(v + (k + 1) % len)];
      edges.emplace_back(a, b);
      wedges.emplace_back(a, b, static_cast<double>(1 + rng.bounded(3)));
    }
    cycles += cycle;
    v += len;
  }
  const Csr w = graph_from_edges(nv, wedges);
  const Factor f = factor_from_edges(nv, edges);
  const LinearForest lf = break_cycles(f, view_of(w));
  EXPECT_EQ(lf.cycles_broken, cycles);
  EXPECT_TRUE(acyclic(lf));
  const PathOrder o = order_paths(lf);
  EXPECT_TRUE(valid_order(o, lf));
  EXPECT_EQ(scan_break_cycles(f, w).nbr, lf.nbr);
  EXPECT_EQ(scan_order(lf), o.perm);
}

TEST(TrilfForest, AnisoRowsBecomeGridLinePaths) {
  // ANISO1: the strong couplings are east-west; the first uncharged round links every grid
  // line into a path, so most vertices lie on paths of length >= the grid width.
  const Csr a = spec("aniso2d:nx=30,ny=20,variant=1");
  ForestStats st;
  const LinearForest lf = extract_linear_forest(view_of(a), FactorOptions(), &st);
  const PathOrder o = order_paths(lf);
  EXPECT_TRUE(valid_order(o, lf));
  EXPECT_GE(o.longest, 30);
  Index east_west = 0;
  for (Index u = 0; u < a.nrows; ++u)
    for (int k = 0; k < 2; ++k) {
      const Index j = lf.nbr[2 * static_cast<std::size_t>(u) + static_cast<std::size_t>(k)];
      east_west += j >= 0 && (j == u + 1 || j == u - 1) && j / 30 == u / 30;
    }
  EXPECT_EQ(east_west / 2, 20 * 29); // every east-west edge of the grid is in the forest
  EXPECT_EQ(st.rounds_run, 5);
}

} // namespace
} // namespace pgk::trilf::test

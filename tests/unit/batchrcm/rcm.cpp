// Reverse Cuthill-McKee: serial reference (known answers, rules), start-node finders,
// symmetrization, and the multicore batch backend, which must return exactly the reference
// permutation for every graph, thread count, batch limit and run.
#include "src/batchrcm/batch.hpp"
#include "src/batchrcm/batch_plan.hpp"
#include "src/batchrcm/rcm.hpp"
#include "src/batchrcm/serial.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/batchrcm/symmetrize.hpp"

#include "tests/unit/batchrcm/rcm_suite.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

using pgk::Csr;
using pgk::Index;
using pgk::view_of;
namespace rcm = pgk::rcm;
using namespace rcm_suite;

namespace {

// Checks that perm is a valid ordering whose components are contiguous and whose
// BFS order, reversed, is consistent: every vertex but the last of its component has a
// neighbour later in the ordering (in RCM the parent comes after its children).
void expect_valid_rcm_shape(const Csr &g, const std::vector<Index> &perm) {
  ASSERT_TRUE(rcm::is_permutation(perm, g.nrows));
  std::vector<Index> pos(static_cast<std::size_t>(g.nrows));
  for (Index k = 0; k < g.nrows; ++k) pos[perm[k]] = k;
  // The last position of each component holds its root: every other vertex has a neighbour
  // placed after it (its parent).
  std::vector<Index> roots;
  for (Index k = 0; k < g.nrows; ++k) {
    const Index v = perm[k];
    bool has_later = false;
    for (Index e = g.rowptr[v]; e < g.rowptr[v + 1]; ++e) has_later |= pos[g.colidx[e]] > k;
    if (!has_later) roots.push_back(v);
  }
  const rcm::ComponentPlan plan = rcm::plan_components(view_of(g), {});
  EXPECT_EQ(roots.size(), plan.roots.size());
}

// o's ordering rules with b's multicore tuning: the one rcm::Options every backend takes.
rcm::Options cpu_tuned(const rcm::CpuTuning &b, rcm::Options o = {}) {
  o.cpu = b;
  return o;
}

rcm::Options valence_rule(bool count_diagonal) {
  rcm::Options o;
  o.count_diagonal_in_valence = count_diagonal;
  return o;
}

std::string describe(int id, const rcm::CpuTuning &b) {
  return "graph " + std::to_string(id) + " threads " + std::to_string(b.threads) + " B " +
         std::to_string(b.max_batch_nodes) + " T " + std::to_string(b.max_batch_valence) + " slots " +
         std::to_string(b.queue_slots) + " per-worker " + std::to_string(b.batches_per_worker) + " stress " +
         std::to_string(b.stress_seed);
}

// A small fixed graph worked by hand (no diagonal):
//   0: 1 2 3   1: 0 4 5   2: 0   3: 0 6   4: 1   5: 1 6   6: 3 5
// valences 3 3 1 2 1 2 2.
std::vector<std::vector<Index>> hand_rows() { return {{1, 2, 3}, {0, 4, 5}, {0}, {0, 6}, {1}, {1, 6}, {3, 5}}; }

} // namespace

// ---------------------------------------------------------------------------------------------
// Serial reference: known answers and documented rules.

TEST(RcmSerial, KnownAnswerFromGivenStart) {
  const Csr g = from_rows(hand_rows());
  // From 0: children 1(v3) 2(v1) 3(v2) -> 2 3 1; 3 adds 6 (6 is 3's child: 3 precedes 5);
  // 1 adds 4(v1) 5(v2). CM = 0 2 3 1 6 4 5.
  const std::vector<Index> expect = {5, 4, 6, 1, 3, 2, 0};
  EXPECT_EQ(rcm::serial_rcm_from_roots(view_of(g), {0}), expect);
  rcm::Options o;
  o.start = rcm::StartNode::Given;
  o.given_start = 0;
  EXPECT_EQ(rcm::serial_rcm(view_of(g), o), expect);
}

TEST(RcmSerial, KnownAnswerPeripheralRoot) {
  const Csr g = from_rows(hand_rows());
  // BFS(0): last level {4,5,6}, lowest valence 4; BFS(4) has 4 levels, last {2,3,6} -> 2;
  // BFS(2) also 4 levels: root 2. CM = 2 0 3 1 6 4 5.
  EXPECT_EQ(rcm::find_start_node(view_of(g), 0, rcm::StartNode::Peripheral), 2);
  EXPECT_EQ(rcm::find_start_node(view_of(g), 0, rcm::StartNode::GeorgeLiu), 2);
  const std::vector<Index> expect = {5, 4, 6, 1, 3, 0, 2};
  EXPECT_EQ(rcm::serial_rcm(view_of(g)), expect);
}

TEST(RcmSerial, TieKeepsRowPositionAndDiagonalIsAParameter) {
  auto rows = hand_rows();
  rows[3] = {0, 3, 6}; // diagonal on vertex 3: valence 3 when counted
  const Csr g = from_rows(rows);
  // Counted: children of 0 are 1(v3) 2(v1) 3(v3) -> 2, then the tie 1 before 3 (row order).
  EXPECT_EQ(rcm::serial_rcm_from_roots(view_of(g), {0}), (std::vector<Index>{6, 5, 4, 3, 1, 2, 0}));
  // Not counted: as without the diagonal.
  EXPECT_EQ(rcm::serial_rcm_from_roots(view_of(g), {0}, valence_rule(false)),
            (std::vector<Index>{5, 4, 6, 1, 3, 2, 0}));
  // Reordering the row of 0 reorders the tie.
  rows[0] = {3, 2, 1};
  // Now 0's children are 3(v3) 2(v1) 1(v3) -> 2 3 1, so 6 (child of 3) precedes 4 and 5.
  EXPECT_EQ(rcm::serial_rcm_from_roots(view_of(from_rows(rows)), {0}), (std::vector<Index>{5, 4, 6, 1, 3, 2, 0}));
}

TEST(RcmSerial, ComponentsInOrderOfSmallestIdReversedEachInPlace) {
  auto rows = hand_rows();
  rows.push_back({});  // 7: isolated
  rows.push_back({9}); // 8 - 9
  rows.push_back({8});
  const Csr g = from_rows(rows);
  const rcm::ComponentPlan plan = rcm::plan_components(view_of(g), {});
  EXPECT_EQ(plan.roots, (std::vector<Index>{2, 7, 9}));
  EXPECT_EQ(plan.sizes, (std::vector<Index>{7, 1, 2}));
  const std::vector<Index> expect = {5, 4, 6, 1, 3, 0, 2, 7, 8, 9};
  EXPECT_EQ(rcm::serial_rcm(view_of(g)), expect);
  rcm::CpuTuning b;
  b.threads = 2;
  b.max_batch_nodes = 2;
  EXPECT_EQ(rcm::batch_rcm_cpu(view_of(g), cpu_tuned(b)), expect);
  // Given start: its component first, the rest as before.
  rcm::Options o;
  o.start = rcm::StartNode::Given;
  o.given_start = 8;
  const rcm::ComponentPlan gp = rcm::plan_components(view_of(g), o);
  EXPECT_EQ(gp.roots, (std::vector<Index>{8, 2, 7}));
  EXPECT_EQ(rcm::serial_rcm(view_of(g), o), (std::vector<Index>{9, 8, 5, 4, 6, 1, 3, 0, 2, 7}));
  EXPECT_EQ(rcm::batch_rcm_cpu(view_of(g), cpu_tuned(b, o)), rcm::serial_rcm(view_of(g), o));
}

TEST(RcmSerial, TinyGraphs) {
  for (Index n = 0; n <= 2; ++n) {
    const Csr g = from_rows(std::vector<std::vector<Index>>(static_cast<std::size_t>(n)));
    std::vector<Index> id(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) id[i] = i;
    rcm::Stats st;
    EXPECT_EQ(rcm::serial_rcm(view_of(g), {}, &st), id);
    EXPECT_EQ(st.components, n);
    EXPECT_EQ(rcm::batch_rcm_cpu(view_of(g), {}, &st), id);
    EXPECT_EQ(st.components, n);
  }
  const Csr edge = from_rows({{1}, {0}});
  EXPECT_EQ(rcm::serial_rcm(view_of(edge)), (std::vector<Index>{0, 1})); // root 1, CM 1 0
  const Csr loop = from_rows({{0}});
  EXPECT_EQ(rcm::serial_rcm(view_of(loop)), (std::vector<Index>{0}));
}

TEST(RcmSerial, PathIsOrderedFromAnEnd) {
  SplitMix rng{7};
  Edges e;
  for (Index v = 0; v + 1 < 50; ++v) e.push_back({v, v + 1});
  const Csr g = make_graph(50, e, rng);
  for (auto m : {rcm::StartNode::Peripheral, rcm::StartNode::GeorgeLiu}) {
    const Index r = rcm::find_start_node(view_of(g), 20, m);
    EXPECT_TRUE(r == 0 || r == 49) << r;
  }
  const auto perm = rcm::serial_rcm(view_of(g));
  Index bw = 0;
  std::vector<Index> pos(50);
  for (Index k = 0; k < 50; ++k) pos[perm[k]] = k;
  for (Index v = 0; v + 1 < 50; ++v) bw = std::max(bw, std::abs(pos[v] - pos[v + 1]));
  EXPECT_EQ(bw, 1);
}

TEST(RcmSerial, ExcludedMaskRestrictsTheSearch) {
  SplitMix rng{3};
  Edges e;
  for (Index v = 0; v + 1 < 10; ++v) e.push_back({v, v + 1});
  const Csr g = make_graph(10, e, rng);
  std::vector<char> mask(10, 0);
  mask[6] = 1; // cuts the path after 5
  const Index r = rcm::find_start_node(view_of(g), 3, rcm::StartNode::Peripheral, true, &mask);
  EXPECT_TRUE(r == 0 || r == 5) << r;
  EXPECT_EQ(rcm::find_start_node(view_of(g), 3, rcm::StartNode::Given), 3);
  EXPECT_THROW(rcm::find_start_node(view_of(g), 6, rcm::StartNode::Peripheral, true, &mask), std::invalid_argument);
}

TEST(RcmSerial, GeorgeLiuAndPeripheralBothGiveValidOrders) {
  for (int id = 0; id < kSuiteSize; id += 3) {
    const Csr g = suite_graph(id);
    for (auto m : {rcm::StartNode::Peripheral, rcm::StartNode::GeorgeLiu}) {
      rcm::Options o;
      o.start = m;
      const auto perm = rcm::serial_rcm(view_of(g), o);
      expect_valid_rcm_shape(g, perm);
      const rcm::ComponentPlan plan = rcm::plan_components(view_of(g), o);
      Index total = 0;
      for (Index s : plan.sizes) total += s;
      EXPECT_EQ(total, g.nrows);
    }
  }
}

TEST(RcmSerial, DiagonalNotCountedEqualsDiagonalRemoved) {
  for (int id = 0; id < kSuiteSize; id += 5) {
    const Csr g = suite_graph(id);
    std::vector<std::vector<Index>> rows(static_cast<std::size_t>(g.nrows));
    for (Index i = 0; i < g.nrows; ++i)
      for (Index e = g.rowptr[i]; e < g.rowptr[i + 1]; ++e)
        if (g.colidx[e] != i) rows[i].push_back(g.colidx[e]);
    const Csr stripped = from_rows(rows);
    rcm::Options no_diag;
    no_diag.count_diagonal_in_valence = false;
    EXPECT_EQ(rcm::serial_rcm(view_of(g), no_diag), rcm::serial_rcm(view_of(stripped))) << id;
  }
}

TEST(RcmSerial, BadRootsAreRejected) {
  const Csr g = from_rows({{1}, {0}, {}});
  EXPECT_THROW(rcm::serial_rcm_from_roots(view_of(g), {0}), std::invalid_argument);
  EXPECT_THROW(rcm::serial_rcm_from_roots(view_of(g), {0, 1, 2}), std::invalid_argument);
  EXPECT_THROW(rcm::serial_rcm_from_roots(view_of(g), {0, 5}), std::invalid_argument);
  EXPECT_THROW(rcm::serial_rcm_from_roots(view_of(g), {}), std::invalid_argument);
  rcm::CpuTuning b;
  b.threads = 2;
  EXPECT_THROW(rcm::batch_rcm_cpu_from_roots(view_of(g), {0}, cpu_tuned(b)), std::invalid_argument);
  EXPECT_THROW(rcm::batch_rcm_cpu_from_roots(view_of(g), {0, 1, 2}, cpu_tuned(b)), std::invalid_argument);
  EXPECT_THROW(rcm::batch_rcm_cpu_from_roots(view_of(g), {0, 5}, cpu_tuned(b)), std::invalid_argument);
  EXPECT_THROW(rcm::batch_rcm_cpu_from_roots(view_of(g), {}, cpu_tuned(b)), std::invalid_argument);
  EXPECT_THROW(rcm::batch_rcm_cpu_from_roots(view_of(g), {0, 2, 2}, cpu_tuned(b)), std::invalid_argument);
  EXPECT_EQ(rcm::batch_rcm_cpu_from_roots(view_of(g), {2, 0}, cpu_tuned(b)),
            rcm::serial_rcm_from_roots(view_of(g), {2, 0}));
  rcm::Options o;
  o.start = rcm::StartNode::Given;
  o.given_start = 3;
  EXPECT_THROW(rcm::serial_rcm(view_of(g), o), std::invalid_argument);
  Csr rect = g;
  rect.ncols = 4;
  EXPECT_THROW(rcm::serial_rcm(view_of(rect)), std::invalid_argument);
  Csr bad = g;
  bad.colidx[0] = 7;
  EXPECT_THROW(rcm::serial_rcm(view_of(bad)), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Symmetrization of nonsymmetric patterns.

TEST(RcmSymmetrize, PatternOfAPlusATranspose) {
  // 0 -> 1, 1 -> 2, 2 -> 2 (diagonal), 3 -> 0, duplicates in row 1.
  const Csr a = from_rows({{1}, {2, 2}, {2}, {0}});
  EXPECT_FALSE(rcm::is_structurally_symmetric(view_of(a)));
  const Csr s = rcm::symmetrize_pattern(view_of(a));
  EXPECT_TRUE(rcm::is_structurally_symmetric(view_of(s)));
  EXPECT_EQ(s.rowptr, (std::vector<Index>{0, 2, 4, 6, 7}));
  EXPECT_EQ(s.colidx, (std::vector<Index>{1, 3, 0, 2, 1, 2, 0}));
  EXPECT_TRUE(s.values.empty());
}

TEST(RcmSymmetrize, NonsymmetricInputIsOrderedOnItsSymmetrization) {
  for (int id = 0; id < 40; ++id) {
    SplitMix rng{900u + static_cast<std::uint64_t>(id)};
    const Index n = 1 + rng.below(120);
    // A directed pattern: each row keeps a random subset of its random targets.
    std::vector<std::vector<Index>> rows(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
      const Index deg = rng.below(4);
      for (Index k = 0; k < deg; ++k) rows[i].push_back(rng.below(n));
      std::sort(rows[i].begin(), rows[i].end());
      rows[i].erase(std::unique(rows[i].begin(), rows[i].end()), rows[i].end());
    }
    const Csr a = from_rows(rows);
    const Csr s = rcm::symmetrize_pattern(view_of(a));
    ASSERT_TRUE(rcm::is_structurally_symmetric(view_of(s)));
    rcm::Options o;
    o.input_is_symmetric = false;
    rcm::Stats st;
    const auto ref = rcm::serial_rcm(view_of(s));
    EXPECT_EQ(rcm::serial_rcm(view_of(a), o, &st), ref);
    EXPECT_GE(st.symmetrize_seconds, 0.0);
    rcm::CpuTuning b;
    b.threads = 2;
    b.max_batch_nodes = 3;
    EXPECT_EQ(rcm::batch_rcm_cpu(view_of(a), cpu_tuned(b, o)), ref);
  }
}

// ---------------------------------------------------------------------------------------------
// Batch cutting rule.

TEST(RcmBatchPlan, ExactCountNonEmptyAndWithinNodeLimit) {
  SplitMix rng{11};
  std::vector<std::uint64_t> bounds;
  for (int t = 0; t < 3000; ++t) {
    const std::uint64_t nodes = 1 + static_cast<std::uint64_t>(rng.below(60));
    const std::uint64_t B = 1 + static_cast<std::uint64_t>(rng.below(9));
    const std::uint64_t T = 1 + static_cast<std::uint64_t>(rng.below(30));
    std::vector<std::uint64_t> w(nodes);
    std::uint64_t sum = 0;
    for (auto &x : w) sum += (x = rcm::detail::batch_weight(rng.below(rng.chance(10) ? 200 : 12), T));
    const std::uint64_t count = rcm::detail::batch_count(nodes, sum, B, T);
    ASSERT_LE(count, nodes);
    rcm::detail::split_batches(
        nodes, sum, count, B, T, [&](std::uint64_t i) { return w[i]; }, bounds);
    ASSERT_EQ(bounds.size(), count + 1);
    ASSERT_EQ(bounds.front(), 0u);
    ASSERT_EQ(bounds.back(), nodes);
    for (std::size_t j = 0; j + 1 < bounds.size(); ++j) {
      ASSERT_GT(bounds[j + 1], bounds[j]);
      ASSERT_LE(bounds[j + 1] - bounds[j], B);
    }
  }
  EXPECT_EQ(rcm::detail::batch_count(0, 0, 4, 4), 0u);
}

TEST(RcmBatchPlan, HeavyVertexGetsItsOwnBatch) {
  std::vector<std::uint64_t> bounds;
  const std::vector<std::uint64_t> w = {1, 1, 1, 100, 1, 1};
  // Weight clamped to T = 100: total 105 -> 2 batches; the heavy vertex does not join the
  // light ones before it (it would pass T), so it opens the second batch.
  rcm::detail::split_batches(
      6, 105, rcm::detail::batch_count(6, 105, 512, 100), 512, 100, [&](std::uint64_t i) { return w[i]; }, bounds);
  EXPECT_EQ(bounds, (std::vector<std::uint64_t>{0, 3, 6}));
}

// ---------------------------------------------------------------------------------------------
// Multicore batch RCM: exactly the reference.

TEST(RcmBatchCpu, MatchesReferenceOnRandomSuite) {
  const int thread_counts[] = {1, 2, 4, 8};
  rcm::Stats total;
  for (int id = 0; id < kSuiteSize; ++id) {
    const Csr g = suite_graph(id);
    rcm::Options o;
    o.start = id % 4 == 1 ? rcm::StartNode::GeorgeLiu : rcm::StartNode::Peripheral;
    o.count_diagonal_in_valence = id % 3 != 2;
    const rcm::ComponentPlan plan = rcm::plan_components(view_of(g), o);
    const auto ref = rcm::serial_rcm_from_roots(view_of(g), plan.roots, o);
    ASSERT_TRUE(rcm::is_permutation(ref, g.nrows));
    ASSERT_EQ(rcm::serial_rcm(view_of(g), o), ref);
    for (int t : thread_counts) {
      rcm::CpuTuning b;
      b.threads = t;
      b.max_batch_nodes = 2 + (id + t) % 7;        // 2..8: many batches, overhangs
      b.max_batch_valence = 1 + (id * 7 + t) % 24; // small: heavy-vertex batches
      b.batches_per_worker = 1 + (id + t) % 3;
      if (t > 1) b.stress_seed = static_cast<std::uint64_t>(id * 16 + t); // make batches overlap
      rcm::Stats st;
      const auto perm = rcm::batch_rcm_cpu_from_roots(view_of(g), plan.roots, cpu_tuned(b, o), &st);
      ASSERT_EQ(perm, ref) << describe(id, b);
      EXPECT_EQ(st.components, static_cast<Index>(plan.roots.size()));
      EXPECT_EQ(st.batches_executed, st.batches_without_rediscovery + st.batches_rediscovered_before_sort +
                                         st.batches_rediscovered_after_sort);
      total.batches_executed += st.batches_executed;
      total.batches_without_rediscovery += st.batches_without_rediscovery;
      total.batches_rediscovered_before_sort += st.batches_rediscovered_before_sort;
      total.batches_rediscovered_after_sort += st.batches_rediscovered_after_sort;
      total.batches_forwarding_overhang += st.batches_forwarding_overhang;
      total.batches_dropped += st.batches_dropped;
    }
    rcm::CpuTuning defaults; // paper limits (512 / 16384), hardware threads
    ASSERT_EQ(rcm::batch_rcm_cpu(view_of(g), cpu_tuned(defaults, o)), ref) << describe(id, defaults);
  }
  // Which paths ran depends on timing (reported, not asserted); overhangs do not.
  std::cout << "[ paths    ] executed " << total.batches_executed << ", no rediscovery "
            << total.batches_without_rediscovery << ", rediscovered before sort "
            << total.batches_rediscovered_before_sort << ", after sort " << total.batches_rediscovered_after_sort
            << ", overhangs " << total.batches_forwarding_overhang << ", dropped " << total.batches_dropped << "\n";
  EXPECT_GT(total.batches_forwarding_overhang, 0u);
}

TEST(RcmBatchCpu, RepeatedRunsAreIdentical) {
  // Larger graphs with wide fronts, where speculation and rediscovery actually happen.
  const int ids[] = {1, 2, 3, 5, 10, 11, 12, 14, 19, 20, 21, 23};
  for (int id : ids) {
    const Csr g = suite_graph(id);
    const auto ref = rcm::serial_rcm(view_of(g));
    for (int rep = 0; rep < 20; ++rep) {
      rcm::CpuTuning b;
      b.threads = rep % 2 ? 8 : 4;
      b.max_batch_nodes = 2 + rep % 5;
      b.max_batch_valence = 4 + rep % 9;
      b.stress_seed = rep % 4 ? static_cast<std::uint64_t>(rep) : 0; // some runs unperturbed
      ASSERT_EQ(rcm::batch_rcm_cpu(view_of(g), cpu_tuned(b)), ref) << describe(id, b) << " rep " << rep;
    }
  }
}

TEST(RcmBatchCpu, LargerGraphsManyThreads) {
  SplitMix rng{4242};
  std::vector<Csr> graphs;
  graphs.push_back(make_graph(60 * 60, grid(60, 60, 3, rng), rng, {50, false, false}));
  graphs.push_back(make_graph(3000, preferential(3000, 3, rng), rng, {0, true, false}));
  graphs.push_back(make_graph(2000, hubs(2000, 2, rng), rng, {100, false, true}));
  for (const Csr &g : graphs) {
    const auto ref = rcm::serial_rcm(view_of(g));
    for (int t : {2, 4, 8}) {
      for (Index B : {4, 64, 512}) {
        rcm::CpuTuning b;
        b.threads = t;
        b.max_batch_nodes = B;
        b.max_batch_valence = 8 * B;
        rcm::Stats st;
        ASSERT_EQ(rcm::batch_rcm_cpu(view_of(g), cpu_tuned(b), &st), ref)
            << "n " << g.nrows << " t " << t << " B " << B;
        EXPECT_GT(st.batches_executed, 0u);
        EXPECT_GE(st.ordering_seconds, 0.0);
        EXPECT_GE(st.start_node_seconds, 0.0);
      }
    }
  }
}

TEST(RcmBatchCpu, QueueOverflowIsAnErrorNeverAHangOrAWrongOrder) {
  // A spider from its hub (legs of length 2): batch 0 alone reserves one batch per leg when
  // B = 1. (A plain star would not do: batch 0 completes the permutation, nothing is queued.)
  SplitMix rng{5};
  Edges e;
  for (Index v = 1; v < 100; ++v) {
    e.push_back({0, v});
    e.push_back({v, v + 99});
  }
  const Csr star = make_graph(199, e, rng);
  rcm::CpuTuning b;
  b.max_batch_nodes = 1;
  b.queue_slots = 16;
  for (int t : {1, 2, 4, 8}) {
    b.threads = t;
    for (int rep = 0; rep < 5; ++rep)
      EXPECT_THROW(rcm::batch_rcm_cpu_from_roots(view_of(star), {0}, cpu_tuned(b)), rcm::BatchQueueOverflow);
  }
  b.queue_slots = 200;
  EXPECT_EQ(rcm::batch_rcm_cpu_from_roots(view_of(star), {0}, cpu_tuned(b)),
            rcm::serial_rcm_from_roots(view_of(star), {0}));
}

TEST(RcmBatchCpu, SmallRingEitherAlwaysThrowsOrMatches) {
  // Tiny rings wrap constantly; whether they overflow depends only on graph and options.
  for (int id = 0; id < kSuiteSize; id += 4) {
    const Csr g = suite_graph(id);
    const auto ref = rcm::serial_rcm(view_of(g));
    for (std::size_t slots : {2u, 3u, 5u, 9u, 33u}) {
      int thrown = 0, matched = 0;
      for (int t : {1, 2, 4, 8}) {
        rcm::CpuTuning b;
        b.threads = t;
        b.queue_slots = slots;
        b.max_batch_nodes = 2 + id % 4;
        b.max_batch_valence = 6;
        b.stress_seed = static_cast<std::uint64_t>(t);
        try {
          ASSERT_EQ(rcm::batch_rcm_cpu(view_of(g), cpu_tuned(b)), ref) << describe(id, b);
          ++matched;
        } catch (const rcm::BatchQueueOverflow &) {
          ++thrown;
        }
      }
      EXPECT_TRUE(thrown == 0 || matched == 0) << "graph " << id << " slots " << slots;
    }
  }
}

TEST(RcmBatchCpu, OptionsAreValidated) {
  const Csr g = from_rows({{1}, {0}});
  rcm::CpuTuning b;
  b.max_batch_nodes = 0;
  EXPECT_THROW(rcm::batch_rcm_cpu(view_of(g), cpu_tuned(b)), std::invalid_argument);
  b = {};
  b.queue_slots = 1;
  EXPECT_THROW(rcm::batch_rcm_cpu(view_of(g), cpu_tuned(b)), std::invalid_argument);
  b = {};
  b.threads = -1;
  EXPECT_THROW(rcm::batch_rcm_cpu(view_of(g), cpu_tuned(b)), std::invalid_argument);
}

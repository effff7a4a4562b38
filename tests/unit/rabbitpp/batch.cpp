// The multicore backend of rabbitpp: the same graph as the reference, K = 1 equal to the serial
// reference, and for every K the same result on any thread count and on every run.
#include "src/common/csr_build.hpp"
#include "src/common/rng.hpp"
#include "src/matgen/generators.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/dendrogram.hpp"
#include "src/rabbitpp/graph.hpp"
#include "src/rabbitpp/regroup.hpp"
#include "src/rabbitpp/serial.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

using pgk::Csr;
using pgk::Index;
using namespace pgk::rabbitpp;

// Directed random pattern with empty rows, self loops, duplicates and unsorted rows.
Csr messy(Index n, std::uint64_t seed) {
  std::vector<Index> r, c;
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&s]() {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return s;
  };
  for (Index i = 0; i < n; ++i) {
    if (next() % 7 == 0) continue; // empty row
    const int k = static_cast<int>(next() % 6);
    for (int t = 0; t < k; ++t) r.push_back(i), c.push_back(static_cast<Index>(next() % n));
  }
  Csr a = pgk::csr_from_coo(n, n, r, c, {});
  for (Index i = 0; i < n; ++i) std::reverse(a.colidx.begin() + a.rowptr[i], a.colidx.begin() + a.rowptr[i + 1]);
  return a;
}

std::vector<Csr> corpus() {
  std::vector<Csr> out;
  for (const char *spec : {"lap2d5:n=17", "lap3d27:n=6", "powerlaw:n=3000,communities=12", "random:n=2000,deg=4",
                           "disconnected:n=1500,parts=9", "hubrow:n=2000", "rgg2d:n=3000,deg=6", "path:n=50",
                           "empty:n=7", "aniso2d:n=20,variant=2", "convdiff3d:n=7"})
    out.push_back(pgk::gen::generate(pgk::gen::parse_spec(spec)));
  for (std::uint64_t seed = 1; seed <= 6; ++seed) out.push_back(messy(300 + 97 * static_cast<Index>(seed), seed));
  out.push_back(pgk::csr_from_coo(0, 0, {}, {}, {}));
  out.push_back(pgk::csr_from_coo(1, 1, {0}, {0}, {}));
  return out;
}

void expect_same_graph(const Graph &x, const Graph &y) {
  EXPECT_EQ(x.rowptr, y.rowptr);
  EXPECT_EQ(x.colidx, y.colidx);
  EXPECT_EQ(x.weight, y.weight);
  EXPECT_EQ(x.strength, y.strength);
  EXPECT_EQ(x.total, y.total);
}

TEST(RabbitppBatch, ParallelGraphEqualsTheReference) {
  for (const Csr &a : corpus())
    for (int threads : {1, 2, 5}) {
      pgk::ThreadPool pool(threads);
      SCOPED_TRACE("n = " + std::to_string(a.nrows) + ", threads " + std::to_string(threads));
      expect_same_graph(build_graph_parallel(pgk::view_of(a), pool), build_graph(pgk::view_of(a)));
    }
}

TEST(RabbitppBatch, BatchOfOneIsTheSerialReference) {
  for (const Csr &a : corpus()) {
    const Graph g = build_graph(pgk::view_of(a));
    const Dendrogram ref = detect_communities_serial(g);
    for (int threads : {1, 3}) {
      pgk::ThreadPool pool(threads);
      const Dendrogram d = detect_communities_batch(g, 1, pool);
      SCOPED_TRACE("n = " + std::to_string(a.nrows));
      EXPECT_EQ(d.parent, ref.parent);
      EXPECT_EQ(d.round, ref.round);
      std::vector<Index> com;
      EXPECT_EQ(rabbit_permutation_parallel(d, com, pool), rabbit_permutation(ref));
      EXPECT_EQ(com, community_of(ref));
    }
    Options o;
    o.batch = 1;
    o.threads = 2;
    EXPECT_EQ(rabbitpp_batch(pgk::view_of(a), o), rabbitpp_serial(pgk::view_of(a), o));
    o.min_skew = 0;   // the regrouping on every graph, not only the skewed ones
    o.hub_factor = 3; // the multicore hub flags against the serial ones, with another bar
    EXPECT_EQ(rabbitpp_batch(pgk::view_of(a), o), rabbitpp_serial(pgk::view_of(a), o));
  }
}

TEST(RabbitppBatch, ListArenaCompactionsChangeNothing) {
  Index compactions_seen = 0;
  for (const Csr &a : corpus()) {
    const Graph g = build_graph(pgk::view_of(a));
    for (Index batch : {1, 7, 64})
      for (int threads : {1, 3}) {
        pgk::ThreadPool pool(threads);
        Index deferred = 0, tight_deferred = 0, compactions = 0, roomy_compactions = 0;
        const Dendrogram roomy = detect_communities_batch(g, batch, pool, &deferred, 0, &roomy_compactions);
        // The smallest arena allowed (nnz(G)): compacted whenever a round's lists would overflow it.
        const Dendrogram tight = detect_communities_batch(g, batch, pool, &tight_deferred, 1, &compactions);
        SCOPED_TRACE("n = " + std::to_string(a.nrows) + ", K " + std::to_string(batch));
        EXPECT_EQ(tight.parent, roomy.parent);
        EXPECT_EQ(tight.round, roomy.round);
        EXPECT_EQ(tight.rounds, roomy.rounds);
        EXPECT_EQ(tight_deferred, deferred);
        EXPECT_GE(compactions, roomy_compactions);
        compactions_seen += compactions;
      }
  }
  EXPECT_GT(compactions_seen, 0); // the compaction ran
}

TEST(RabbitppBatch, SameResultForEveryThreadCountAndRun) {
  for (const Csr &a : corpus())
    for (Index batch : {2, 7, 64, 1000}) {
      Options o;
      o.batch = batch;
      o.threads = 1;
      o.min_skew = 0; // the regrouping on every graph
      const std::vector<Index> ref = rabbitpp_batch(pgk::view_of(a), o);
      ASSERT_TRUE(pgk::is_permutation(ref, a.nrows));
      for (int threads : {2, 3, 8}) {
        o.threads = threads;
        EXPECT_EQ(rabbitpp_batch(pgk::view_of(a), o), ref)
            << "n " << a.nrows << " K " << batch << " threads " << threads;
      }
      o.huge_pages = false; // the list arena on 4 KiB pages
      EXPECT_EQ(rabbitpp_batch(pgk::view_of(a), o), ref) << "n " << a.nrows << " K " << batch << " 4 KiB pages";
    }
}

// The numbering's counts, slot fills and tops are threaded in chunks of 4096 vertices: graphs past
// that (and a dendrogram of rounds, K > 1) must still number exactly as the serial walk does.
TEST(RabbitppBatch, ParallelNumberingEqualsTheSerialWalk) {
  for (const char *spec :
       {"communities:n=30000", "powerlaw:n=25000,communities=40", "disconnected:n=20000,parts=300"}) {
    const Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    const Graph g = build_graph(pgk::view_of(a));
    pgk::ThreadPool one(1);
    const Dendrogram d = detect_communities_batch(g, default_batch(a.nrows), one);
    const std::vector<Index> ref_perm = rabbit_permutation(d), ref_com = community_of(d);
    for (int threads : {1, 2, 3, 16}) {
      pgk::ThreadPool pool(threads);
      std::vector<Index> com;
      EXPECT_EQ(rabbit_permutation_parallel(d, com, pool), ref_perm) << spec << ", threads " << threads;
      EXPECT_EQ(com, ref_com) << spec << ", threads " << threads;
    }
  }
}

TEST(RabbitppBatch, RegroupParallelEqualsTheReference) {
  for (const Csr &a : corpus()) {
    const Graph g = build_graph(pgk::view_of(a));
    const Dendrogram d = detect_communities_serial(g);
    const std::vector<Index> rabbit = rabbit_permutation(d), com = community_of(d);
    for (bool first : {false, true})
      for (HubScope scope : {HubScope::NonInsular, HubScope::All}) {
        Options o;
        o.insular_first = first;
        o.hub_scope = scope;
        pgk::ThreadPool pool(3);
        EXPECT_EQ(regroup_parallel(pgk::view_of(a), g, com, rabbit, o, pool),
                  regroup(pgk::view_of(a), g, com, rabbit, o));
      }
  }
}

// A symmetric pattern with a repeated entry: a column's stored entries (the hub test's in-degree)
// are then not its row's length, and the pool's hub flags must count them. Vertex 1 of the
// 17 x 17 grid has 4 entries, 5 with the repeat, against an average of 4.76: a hub only if counted.
TEST(RabbitppBatch, RegroupCountsARepeatedEntry) {
  Csr a = pgk::gen::generate(pgk::gen::parse_spec("lap2d5:n=17"));
  const Index row = 18, at = a.rowptr[row]; // row 18's first entry is column 1
  ASSERT_EQ(a.colidx[at], 1);
  a.colidx.insert(a.colidx.begin() + at, 1);
  a.values.insert(a.values.begin() + at, 0.0);
  for (Index i = row + 1; i <= a.nrows; ++i) ++a.rowptr[i];
  const Graph g = build_graph(pgk::view_of(a));
  ASSERT_EQ(g.total, 2 * static_cast<std::int64_t>(g.colidx.size())); // still symmetric
  const Dendrogram d = detect_communities_serial(g);
  const std::vector<Index> rabbit = rabbit_permutation(d), com = community_of(d);
  Options o;
  o.hub_scope = HubScope::All;
  pgk::ThreadPool pool(2);
  const std::vector<Index> ref = regroup(pgk::view_of(a), g, com, rabbit, o);
  EXPECT_EQ(regroup_parallel(pgk::view_of(a), g, com, rabbit, o, pool), ref);
  EXPECT_EQ(ref[0], 1) << "vertex 1 is the first hub"; // H comes first, in Rabbit order
}

// Rounds of K vertices see stale strengths and defer conflicts, so they may decide differently
// from the one-at-a-time reference; the communities must be as good (README.md, issue 9: within 1%).
// Structurally symmetric patterns: generated ones (every diagonal stored), the messy corpus made
// symmetric (sorted rows, the diagonal in some rows only) and one without any diagonal.
std::vector<Csr> symmetric_corpus() {
  std::vector<Csr> out;
  for (const char *spec : {"lap2d5:n=17", "powerlaw:n=3000,communities=12", "rgg2d:n=3000,deg=6", "communities:n=5000",
                           "disconnected:n=1500,parts=9", "empty:n=7"})
    out.push_back(pgk::gen::generate(pgk::gen::parse_spec(spec)));
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Csr m = messy(300 + 97 * static_cast<Index>(seed), seed);
    std::vector<Index> r, c;
    for (Index i = 0; i < m.nrows; ++i)
      for (Index k = m.rowptr[i]; k < m.rowptr[i + 1]; ++k)
        if (seed != 4 || m.colidx[k] != i) // seed 4: no diagonal at all
          r.push_back(i), c.push_back(m.colidx[k]), r.push_back(m.colidx[k]), c.push_back(i);
    out.push_back(pgk::csr_from_coo(m.nrows, m.nrows, r, c, {}));
  }
  out.push_back(pgk::csr_from_coo(1, 1, {0}, {0}, {}));
  return out;
}

// A symmetric A with sorted rows is read in place (the diagonal stored in its rows): the same
// degrees, strengths and total as the copy, and the same permutation and figures as the unflagged
// call, which copies; an unsorted row makes the flagged call copy.
TEST(RabbitppBatch, BorrowedGraphGivesTheCopysResult) {
  for (const Csr &a : symmetric_corpus())
    for (int threads : {1, 3}) {
      SCOPED_TRACE("n = " + std::to_string(a.nrows) + ", threads " + std::to_string(threads));
      pgk::ThreadPool pool(threads);
      const BatchGraph borrowed(pgk::view_of(a), pool, true);
      const Graph copy = build_graph(pgk::view_of(a));
      ASSERT_TRUE(borrowed.borrowed());
      const GraphView &g = borrowed.view();
      ASSERT_EQ(g.n, copy.n);
      for (Index v = 0; v < g.n; ++v) {
        ASSERT_EQ(g.degree(v), copy.degree(v)) << "vertex " << v;
        ASSERT_EQ(g.strength[v], copy.strength[v]) << "vertex " << v;
      }
      EXPECT_EQ(g.total, copy.total);
      EXPECT_EQ(g.edges, static_cast<std::int64_t>(copy.colidx.size()));
      EXPECT_EQ(processing_order(g), processing_order(copy));
      Options o;
      o.threads = threads;
      o.batch = 64;
      o.min_skew = 0; // the regrouping's hub flags read the borrowed rows too
      Info flagged, unflagged;
      o.input_is_symmetric = true;
      const std::vector<Index> p = rabbitpp_batch(pgk::view_of(a), o, &flagged);
      o.input_is_symmetric = false;
      EXPECT_EQ(p, rabbitpp_batch(pgk::view_of(a), o, &unflagged));
      const auto figures = [](const Info &i) {
        return std::make_tuple(i.communities, i.modularity, i.insularity, i.insular, i.hubs, i.rounds, i.deferred);
      };
      EXPECT_EQ(figures(flagged), figures(unflagged));
      if (a.nnz() > 1) { // a reversed row: not strictly increasing, so copied
        Csr r = a;
        const Index row = a.nrows / 2;
        std::reverse(r.colidx.begin() + r.rowptr[row], r.colidx.begin() + r.rowptr[row + 1]);
        if (r.colidx == a.colidx) continue; // a row of one entry
        EXPECT_FALSE(BatchGraph(pgk::view_of(r), pool, true).borrowed());
        o.input_is_symmetric = true;
        EXPECT_EQ(rabbitpp_batch(pgk::view_of(r), o), p);
      }
    }
}

// f on its own thread. Still running after `seconds`, it is taken for a hang: the test fails and
// its process ends there (a thread cannot be stopped), instead of waiting for ctest's time-out.
template <class F> void within_seconds(double seconds, F &&f) {
  std::packaged_task<void()> task(std::forward<F>(f));
  std::future<void> done = task.get_future();
  std::thread worker(std::move(task));
  if (done.wait_for(std::chrono::duration<double>(seconds)) != std::future_status::ready) {
    ADD_FAILURE() << "still running after " << seconds << " s: a hang";
    std::fflush(nullptr);
    std::_Exit(1);
  }
  worker.join();
  done.get();
}

// A false promise: PETSc's structural-symmetry flag set on an unsymmetric pattern (e.g. an
// explicit zero stored on one side only). The multicore backend then reads each row as stored,
// so a pair's weight comes from one side, and a round's merges could close a cycle of three or
// more (the union-find's find_root never returned before break_merge_cycles). Documented: a valid
// permutation, the same on every thread count, which may differ from the unflagged result.
TEST(RabbitppBatch, FalseSymmetryPromiseStillGivesOnePermutation) {
  std::vector<std::uint64_t> seeds(40);
  std::iota(seeds.begin(), seeds.end(), 1);
  seeds.insert(seeds.end(), {201, 474, 560}); // their rounds close cycles: they hung the code before a62575e
  for (const std::uint64_t seed : seeds) {
    const Index n = 20 + static_cast<Index>((seed * 53) % 280);
    pgk::SplitMix64 rng(seed);
    std::vector<Index> r, c; // directed: up to 5 random columns a row, the diagonal in some rows, a hub row
    for (Index i = 0; i < n; ++i) {
      const Index k = seed % 5 == 0 && i == 0 ? n : static_cast<Index>(rng.bounded(6));
      for (Index t = 0; t < k; ++t) r.push_back(i), c.push_back(static_cast<Index>(rng.bounded(n)));
      if (rng.bounded(2)) r.push_back(i), c.push_back(i);
    }
    const Csr sorted = pgk::csr_from_coo(n, n, r, c, {}); // rows strictly increasing: the borrowed view
    Csr unsorted = sorted;                                // reversed rows: the copy
    for (Index i = 0; i < n; ++i)
      std::reverse(unsorted.colidx.begin() + unsorted.rowptr[i], unsorted.colidx.begin() + unsorted.rowptr[i + 1]);
    for (const Csr *a : std::vector<const Csr *>{&unsorted, &sorted}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + (a == &sorted ? ", sorted rows" : ", unsorted rows"));
      std::vector<Index> first;
      for (int threads : {1, 2, 4}) {
        Options o;
        o.threads = threads;
        o.batch = 1 + static_cast<Index>(seed % 17);
        o.input_is_symmetric = true;
        std::vector<Index> p;
        within_seconds(30, [&] { p = rabbitpp_batch(pgk::view_of(*a), o); });
        std::vector<Index> sorted_p = p;
        std::sort(sorted_p.begin(), sorted_p.end());
        ASSERT_EQ(static_cast<Index>(p.size()), a->nrows);
        for (Index i = 0; i < a->nrows; ++i) ASSERT_EQ(sorted_p[i], i) << "not a permutation";
        if (first.empty()) first = p;
        EXPECT_EQ(p, first) << threads << " threads";
        // The parallel cycle check and the serial walk (every chained round: cycle_walk 0) agree.
        pgk::ThreadPool pool(threads);
        const BatchGraph g(pgk::view_of(*a), pool, true);
        Index deferred = 0, serial_deferred = 0;
        Dendrogram d, serial;
        within_seconds(30, [&] {
          d = detect_communities_batch(g.view(), o.batch, pool, &deferred);
          serial = detect_communities_batch(g.view(), o.batch, pool, &serial_deferred, 0, nullptr, pgk::Pages::huge, 0);
        });
        EXPECT_EQ(d.parent, serial.parent);
        EXPECT_EQ(d.round, serial.round);
        EXPECT_EQ(deferred, serial_deferred);
      }
    }
  }
}

// On a symmetric G no round has a cycle of merges: sending every chained round to the serial walk
// changes nothing.
TEST(RabbitppBatch, CycleCheckChangesNothingOnASymmetricGraph) {
  for (const Csr &a : corpus()) {
    const Graph graph = build_graph(pgk::view_of(a));
    GraphView g = graph;
    g.symmetry_promised = true; // as a flagged A: the check runs
    for (Index batch : {7, 64}) {
      pgk::ThreadPool pool(3);
      SCOPED_TRACE("n = " + std::to_string(a.nrows) + ", K " + std::to_string(batch));
      Index deferred = 0, serial_deferred = 0;
      const Dendrogram d = detect_communities_batch(g, batch, pool, &deferred);
      const Dendrogram serial =
          detect_communities_batch(g, batch, pool, &serial_deferred, 0, nullptr, pgk::Pages::huge, 0);
      EXPECT_EQ(d.parent, serial.parent);
      EXPECT_EQ(d.round, serial.round);
      EXPECT_EQ(deferred, serial_deferred);
    }
  }
}

TEST(RabbitppBatch, QualityMatchesTheSerialReference) {
  for (const char *spec : {"powerlaw:n=40000,communities=200", "rgg2d:n=40000,deg=8", "lap3d7:n=30"}) {
    const Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
    Info serial, batch;
    rabbitpp_serial(pgk::view_of(a), Options{}, &serial);
    Options o;
    o.threads = 4;
    rabbitpp_batch(pgk::view_of(a), o, &batch);
    EXPECT_GT(batch.modularity, serial.modularity * 0.99)
        << spec << ": serial " << serial.modularity << " batch " << batch.modularity;
    std::printf("%s: modularity serial %.4f batch %.4f (K %d, %d rounds, %d deferred), communities %d / %d\n", spec,
                serial.modularity, batch.modularity, static_cast<int>(default_batch(a.nrows)),
                static_cast<int>(batch.rounds), static_cast<int>(batch.deferred), static_cast<int>(serial.communities),
                static_cast<int>(batch.communities));
  }
}

} // namespace

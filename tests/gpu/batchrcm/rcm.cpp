// Device batch RCM (kernels/batchrcm/rcm_gpu.hpp) against the serial reference
// (src/batchrcm/serial.hpp): the component plan and every permutation must be exactly the
// reference's, for every corpus graph, option set and run (stress seeds included); bad input
// must be reported as the reference reports it.
//
// Per graph (the corpus entry's variant picks the options, as the RCM suite always did): the
// diagonal counts in the valence unless variant % 3 == 1; variant % 5 == 3 starts at a given
// row. A structurally nonsymmetric matrix is ordered on pattern(A + A^T), built on the host.
// Option sets: the defaults (node cut) and the paper's Walker cut; tiny batches and scratch (B = 4, T = 16: many
// batches, overhangs, the large-row path with deep histograms) with a stress seed, repeated with other seeds;
// single-parent batches (B = 1, T = 2); a small ring that wraps (64 slots, 3 blocks), where a reported overflow is a
// correct outcome; the large-scratch kernel (T above 2048) and the automatic choice of the scratch. Graphs up to 40000
// rows. With --small: max_blocks = 8 everywhere and no stress seeds (the sanitizer runs; tests/gpu/tests.cmake filters
// the sets they skip).
#include "kernels/batchrcm/rcm_gpu.hpp"
#include "src/batchrcm/batch.hpp"
#include "src/batchrcm/rcm.hpp"
#include "src/batchrcm/serial.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/batchrcm/symmetrize.hpp"
#include "src/matgen/generators.hpp"
#include "tests/support/compare.hpp"
#include "tests/support/corpus.hpp"
#include "tests/support/corpus_graphs.hpp"
#include "tests/support/corpus_loop.hpp"
#include "tests/support/device.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using pgk::Csr;
using pgk::Index;
namespace rcm = pgk::rcm;
using pgk::test::CorpusEntry;

std::string describe(const rcm::Options &o) {
  return "B=" + std::to_string(o.gpu.batch_nodes) + " T=" + std::to_string(o.gpu.batch_valence) +
         (o.gpu.batch_cut == rcm::GpuBatchCut::Walker ? " cut=walker" : " cut=nodes") +
         " queue=" + std::to_string(o.gpu.queue_slots) + " blocks=" + std::to_string(o.gpu.max_blocks) +
         " stress=" + std::to_string(o.gpu.stress_seed) + " diag=" + (o.count_diagonal_in_valence ? "1" : "0") +
         " start=" + (o.start == rcm::StartNode::Given ? "given:" + std::to_string(o.given_start) : "peripheral");
}

// One corpus graph, ready for the device: the (symmetric) pattern, its options, the reference
// plan and permutation, and the device copy.
struct Graph {
  Csr g;
  int variant = 0;
  bool suite = false;
  rcm::Options base;
  rcm::ComponentPlan plan;
  std::vector<Index> ref;
  std::unique_ptr<pgk::test::DeviceCsr> device;

  explicit Graph(const CorpusEntry &e) : variant(e.variant()), suite(e.name().rfind("suite#", 0) == 0) {
    const Csr &a = e.matrix();
    g = e.traits().symmetric_pattern ? a : rcm::symmetrize_pattern(pgk::view_of(a));
    g.values.clear();
    const bool small = pgk::test::small_corpus();
    base.count_diagonal_in_valence = variant % 3 != 1;
    base.gpu.algorithm = rcm::GpuAlgorithm::Batch; // the batch kernel's tests; LevelsMatchesReference sets Levels
    base.gpu.watchdog_seconds = small ? 60 : 10;   // small graphs finish in milliseconds; a hang fails fast
    if (small) base.gpu.max_blocks = 8;            // sanitizers: few resident blocks, still concurrent
    if (variant % 5 == 3 && g.nrows > 0) {
      base.start = rcm::StartNode::Given;
      base.given_start = static_cast<Index>((variant * 2654435761u) % static_cast<unsigned>(g.nrows));
    }
    rcm::Options ho;
    ho.start = base.start;
    ho.given_start = base.given_start;
    ho.count_diagonal_in_valence = base.count_diagonal_in_valence;
    const pgk::CsrView hv = pgk::view_of(g);
    plan = rcm::plan_components(hv, ho);
    ref = rcm::serial_rcm_from_roots(hv, plan.roots, ho);
    device = std::make_unique<pgk::test::DeviceCsr>(g, false);
  }
  const pgk::CsrView &view() const { return device->view; }
  // Runs of the tiny-batch set: one, plus stress repeats (more for the larger random family).
  int repeats() const { return pgk::test::small_corpus() ? 1 : suite ? (variant % 10 == 8 ? 4 : 2) : 3; }
};

// What the device runs did (printed at the end of each test: shows the paths were exercised).
struct Tally {
  int graphs = 0, runs = 0, overflows = 0;
  unsigned long long big = 0, empty = 0, passes = 0, after_sort = 0, before_sort = 0, forwarding = 0;
  void record(const pgk::cuda::RcmGpuInfo &info, const rcm::Stats &st) {
    ++runs;
    big += info.big_batches;
    empty += info.empty_batches;
    passes += info.histogram_passes;
    after_sort += st.batches_rediscovered_after_sort;
    before_sort += st.batches_rediscovered_before_sort;
    forwarding += st.batches_forwarding_overhang;
  }
  void print(const char *what) const {
    std::printf("%s: %d graphs, %d device runs (large-row batches %llu, histogram passes %llu, empty batches %llu, "
                "rediscovered before/after sort %llu/%llu, overhangs %llu, small-ring overflows %d)\n",
                what, graphs, runs, big, passes, empty, before_sort, after_sort, forwarding, overflows);
  }
};

class GpuBatchRcm : public pgk::test::GpuTest {
protected:
  // f(const Graph &) on every corpus graph.
  template <class F> void each_graph(F f) {
    std::vector<const CorpusEntry *> graphs;
    for (const CorpusEntry *e : pgk::test::corpus())
      if (e->matrix().nrows <= kMaxRows) graphs.push_back(e);
    tally.graphs = pgk::test::for_each_entry(graphs, [&](const CorpusEntry &e) { f(Graph(e)); });
  }
  // The largest graph the RCM suite took (random:n=40000): the corpus's longer ones (a path of
  // 200001 vertices: as many BFS levels and chained batches, with stress sleeps in between) would
  // only test the watchdog's patience.
  static constexpr Index kMaxRows = 40000;
  // The core from the reference roots under options o: the reference's permutation, or (when
  // overflow_ok) a reported queue overflow.
  void from_roots(const Graph &g, const rcm::Options &o, bool overflow_ok = false) {
    SCOPED_TRACE(describe(o));
    rcm::Stats st;
    pgk::cuda::RcmGpuInfo info;
    try {
      const std::vector<Index> got = pgk::cuda::rcm_gpu_from_roots(g.view(), g.plan.roots, o, nullptr, &st, &info);
      tally.record(info, st);
      EXPECT_TRUE(pgk::test::SameIndices(got, g.ref, "from_roots permutation"));
    } catch (const rcm::BatchQueueOverflow &e) {
      ++tally.overflows;
      EXPECT_TRUE(overflow_ok) << "queue overflow with the default ring: " << e.what();
    }
  }
  Tally tally;
};

TEST_F(GpuBatchRcm, PlanMatchesReference) {
  each_graph([&](const Graph &g) {
    const rcm::ComponentPlan d = pgk::cuda::plan_components_gpu(g.view(), g.base, nullptr);
    EXPECT_TRUE(pgk::test::SameIndices(d.roots, g.plan.roots, "component roots (" + describe(g.base) + ")"));
    EXPECT_TRUE(pgk::test::SameIndices(d.sizes, g.plan.sizes, "component sizes (" + describe(g.base) + ")"));
  });
  tally.print("plan");
}

TEST_F(GpuBatchRcm, FromRootsDefaults) {
  each_graph([&](const Graph &g) { from_roots(g, g.base); });
  tally.print("from_roots, defaults");
}

rcm::Options tiny_batches(const Graph &g) {
  rcm::Options o = g.base;
  o.gpu.batch_nodes = 4;
  o.gpu.batch_valence = 16;
  o.gpu.stress_seed = pgk::test::small_corpus() ? 0 : static_cast<std::uint64_t>(g.variant + 1);
  return o;
}

TEST_F(GpuBatchRcm, FromRootsTinyBatches) {
  each_graph([&](const Graph &g) { from_roots(g, tiny_batches(g)); });
  tally.print("from_roots, B=4 T=16");
}

TEST_F(GpuBatchRcm, FromRootsTinyBatchesStressRepeats) {
  each_graph([&](const Graph &g) {
    for (int rep = 1; rep < g.repeats(); ++rep) {
      rcm::Options o = tiny_batches(g);
      o.gpu.stress_seed = static_cast<std::uint64_t>(1000 * g.variant + rep);
      from_roots(g, o);
    }
  });
  tally.print("from_roots, B=4 T=16, stress repeats");
}

// The paper's cut (GpuBatchCut::Walker), which the default node cut falls back to per batch
// for long or irregular rows: the defaults, and tiny batches with a stress seed.
TEST_F(GpuBatchRcm, FromRootsWalkerCut) {
  each_graph([&](const Graph &g) {
    rcm::Options o = g.base;
    o.gpu.batch_cut = rcm::GpuBatchCut::Walker;
    from_roots(g, o);
    o = tiny_batches(g);
    o.gpu.batch_cut = rcm::GpuBatchCut::Walker;
    from_roots(g, o);
  });
  tally.print("from_roots, Walker cut: defaults, B=4 T=16");
}

// The largest batches: two parents a thread (B = 512) in the full scratch.
TEST_F(GpuBatchRcm, FromRootsLargestBatches) {
  each_graph([&](const Graph &g) {
    rcm::Options o = g.base;
    o.gpu.batch_nodes = 512;
    from_roots(g, o);
  });
  tally.print("from_roots, B=512");
}

// The large-scratch kernel (T above 2048, kernels/batchrcm/batch_block.cuh): T = 4096 with B = 512,
// which rows of up to 8 entries fill (its 16 entries a thread, batches of up to 4096 children),
// in both cuts; and T = 2049, its smallest, with tiny batches (the large-row path from 2050 entries
// on; stress seeds, none with --small).
TEST_F(GpuBatchRcm, FromRootsLargeScratch) {
  each_graph([&](const Graph &g) {
    rcm::Options o = g.base;
    o.gpu.batch_nodes = 512;
    o.gpu.batch_valence = 4096;
    from_roots(g, o);
    if (!pgk::test::small_corpus()) {
      o.gpu.batch_cut = rcm::GpuBatchCut::Walker;
      from_roots(g, o);
    }
    o = tiny_batches(g);
    o.gpu.batch_valence = 2049;
    from_roots(g, o);
  });
  tally.print("from_roots, large scratch: B=512 T=4096 (both cuts), B=4 T=2049");
}

// rcm_gpu under o on the pattern of a generated matrix, symmetrized, checked against the serial
// reference; what ran, for the caller's checks.
pgk::cuda::RcmGpuInfo expect_reference_end_to_end(const char *spec, const rcm::Options &o) {
  const Csr a = pgk::gen::generate(pgk::gen::parse_spec(spec));
  const Csr g = rcm::symmetrize_pattern(pgk::view_of(a));
  const pgk::CsrView hv = pgk::view_of(g);
  const std::vector<Index> ref = rcm::serial_rcm_from_roots(hv, rcm::plan_components(hv, o).roots, o);
  const pgk::test::DeviceCsr d(g, false);
  pgk::cuda::RcmGpuInfo info;
  const std::vector<Index> got = pgk::cuda::rcm_gpu(d.view, o, nullptr, nullptr, &info);
  EXPECT_TRUE(pgk::test::SameIndices(got, ref, "rcm_gpu permutation"));
  return info;
}

// The automatic scratch (GpuTuning::batch_valence = 0): the large one on BFS levels of 8192
// vertices or more on average with 32-bit indices (a random graph of 200k vertices: a handful of
// levels), the small one on a mesh's narrow levels; the reference's permutation either way.
TEST_F(GpuBatchRcm, EndToEndPicksTheScratchByLevelWidth) {
  struct Case {
    const char *spec;
    int scratch;
  };
  const bool wide_ok = sizeof(Index) == 4;
  for (const Case c : {Case{"random:n=200000,deg=8", wide_ok ? 4096 : 2048}, Case{"lap3d7:n=30", 2048}}) {
    SCOPED_TRACE(c.spec);
    rcm::Options o;
    o.gpu.algorithm = rcm::GpuAlgorithm::Batch;
    const pgk::cuda::RcmGpuInfo info = expect_reference_end_to_end(c.spec, o);
    EXPECT_FALSE(info.levels);
    EXPECT_EQ(info.batch_valence, c.scratch)
        << info.bfs_levels << " BFS levels in " << info.peripheral_rounds << " rounds";
  }
}

// The level-synchronous algorithm (GpuAlgorithm::Levels) from the reference roots on the whole
// grid and on one block, and end to end; graphs with rows over 128 entries run the batch kernel.
TEST_F(GpuBatchRcm, LevelsMatchesReference) {
  int levels_runs = 0;
  each_graph([&](const Graph &g) {
    rcm::Options o = g.base;
    o.gpu.algorithm = rcm::GpuAlgorithm::Levels;
    from_roots(g, o);
    o.gpu.levels_blocks = 1;
    from_roots(g, o);
    o.gpu.levels_blocks = 0;
    pgk::cuda::RcmGpuInfo info;
    const std::vector<Index> got = pgk::cuda::rcm_gpu(g.view(), o, nullptr, nullptr, &info);
    EXPECT_TRUE(pgk::test::SameIndices(got, g.ref, "rcm_gpu levels permutation (" + describe(o) + ")"));
    levels_runs += info.levels ? 1 : 0;
  });
  EXPECT_GT(levels_runs, 0);
  std::printf("levels: %d of %d graphs ran the level-synchronous kernel\n", levels_runs, tally.graphs);
}

// The library's default is Levels; a row over 128 entries (a hub) sends the graph to the batch
// kernel. The reference's permutation either way.
TEST_F(GpuBatchRcm, DefaultIsLevelsUnlessARowIsLonger) {
  struct Case {
    const char *spec;
    bool levels;
  };
  for (const Case c : {Case{"lap3d7:n=30", true}, Case{"hubrow:n=20000,hubdeg=5000", false}}) {
    SCOPED_TRACE(c.spec);
    const rcm::Options o;
    EXPECT_EQ(o.gpu.algorithm, rcm::GpuAlgorithm::Levels);
    EXPECT_EQ(expect_reference_end_to_end(c.spec, o).levels, c.levels);
  }
}

TEST_F(GpuBatchRcm, FromRootsSingleParentBatches) {
  each_graph([&](const Graph &g) {
    rcm::Options o = g.base;
    o.gpu.batch_nodes = 1;
    o.gpu.batch_valence = 2;
    from_roots(g, o);
  });
  tally.print("from_roots, B=1 T=2");
}

TEST_F(GpuBatchRcm, FromRootsSmallRing) {
  each_graph([&](const Graph &g) {
    rcm::Options o = g.base;
    o.gpu.batch_nodes = 8;
    o.gpu.batch_valence = 40;
    o.gpu.queue_slots = 64;
    o.gpu.max_blocks = 3;
    from_roots(g, o, true);
  });
  tally.print("from_roots, B=8 T=40, 64 slots, 3 blocks");
}

TEST_F(GpuBatchRcm, EndToEnd) {
  each_graph([&](const Graph &g) {
    rcm::Stats st;
    pgk::cuda::RcmGpuInfo info;
    const std::vector<Index> got = pgk::cuda::rcm_gpu(g.view(), g.base, nullptr, &st, &info);
    tally.record(info, st);
    EXPECT_TRUE(pgk::test::SameIndices(got, g.ref, "rcm_gpu permutation (" + describe(g.base) + ")"));
  });
  tally.print("rcm_gpu");
}

// ---- bad input: reported like the reference does it ---------------------------------------

class GpuBatchRcmErrors : public pgk::test::GpuTest {
protected:
  void SetUp() override {
    pgk::test::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    g = pgk::test::graphs::rcm_error_graph();
    plan = rcm::plan_components(pgk::view_of(g), {});
    device = std::make_unique<pgk::test::DeviceCsr>(g, false);
  }
  Csr g;
  rcm::ComponentPlan plan;
  std::unique_ptr<pgk::test::DeviceCsr> device;
};

// EXPECT that f throws Ex whose message contains needle.
template <class Ex, class F> void expect_throw(const char *needle, F f) {
  try {
    f();
    ADD_FAILURE() << "no exception (expected one containing '" << needle << "')";
  } catch (const Ex &e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message '" << e.what() << "' lacks '" << needle << "'";
  } catch (const std::exception &e) {
    ADD_FAILURE() << "wrong exception: " << e.what();
  }
}

TEST_F(GpuBatchRcmErrors, RootOutOfRange) {
  expect_throw<std::invalid_argument>("out of range", [&] {
    std::vector<Index> r = plan.roots;
    r[0] = 200;
    pgk::cuda::rcm_gpu_from_roots(device->view, r, {}, nullptr);
  });
}

// Bad roots are reported alike by both algorithms.
constexpr rcm::GpuAlgorithm kAlgorithms[] = {rcm::GpuAlgorithm::Levels, rcm::GpuAlgorithm::Batch};

TEST_F(GpuBatchRcmErrors, TooFewRoots) {
  ASSERT_GT(plan.roots.size(), 1u) << "the error graph must have several components";
  for (const rcm::GpuAlgorithm a : kAlgorithms) {
    rcm::Options o;
    o.gpu.algorithm = a;
    expect_throw<std::invalid_argument>("the roots reach", [&] {
      std::vector<Index> r(plan.roots.begin(), plan.roots.end() - 1);
      pgk::cuda::rcm_gpu_from_roots(device->view, r, o, nullptr);
    });
  }
}

TEST_F(GpuBatchRcmErrors, RootInAnOrderedComponent) {
  for (const rcm::GpuAlgorithm a : kAlgorithms) {
    rcm::Options o;
    o.gpu.algorithm = a;
    expect_throw<std::invalid_argument>("already ordered", [&] {
      std::vector<Index> r = plan.roots;
      r.push_back(plan.roots[0]);
      pgk::cuda::rcm_gpu_from_roots(device->view, r, o, nullptr);
    });
  }
}

TEST_F(GpuBatchRcmErrors, GeorgeLiuStartRefused) {
  expect_throw<std::invalid_argument>("georgeliu start node", [&] {
    rcm::Options o;
    o.start = rcm::StartNode::GeorgeLiu;
    pgk::cuda::rcm_gpu(device->view, o, nullptr);
  });
}

TEST_F(GpuBatchRcmErrors, QueueOverflowReported) {
  const Csr star = pgk::test::graphs::star_with_tail();
  const pgk::test::DeviceCsr ds(star, false);
  expect_throw<rcm::BatchQueueOverflow>("queue_slots", [&] {
    rcm::Options o;
    o.gpu.algorithm = rcm::GpuAlgorithm::Batch; // its ring
    o.gpu.batch_nodes = 2;
    o.gpu.queue_slots = 16;
    pgk::cuda::rcm_gpu_from_roots(ds.view, {0}, o, nullptr);
  });
}

TEST_F(GpuBatchRcmErrors, ColumnOutOfRange) {
  Csr bad = g;
  bad.colidx[5] = 9999;
  const pgk::test::DeviceCsr db(bad, false);
  expect_throw<std::invalid_argument>("column index out of range", [&] { pgk::cuda::rcm_gpu(db.view, {}, nullptr); });
}

// rcm_gpu_into on g into the caller's array: the hook (while_ordering) runs once and before the
// download (the array is still untouched then), and the array ends up holding rcm_gpu's result.
void expect_hook_once_before_download(const pgk::CsrView &g) {
  const std::vector<Index> expect = pgk::cuda::rcm_gpu(g, {}, nullptr);
  std::vector<Index> out(static_cast<std::size_t>(g.nrows), -1);
  int calls = 0;
  bool untouched = false;
  pgk::cuda::rcm_gpu_into(g, {}, nullptr, out.data(), nullptr, nullptr, [&] {
    ++calls;
    untouched = std::all_of(out.begin(), out.end(), [](Index v) { return v == -1; });
  });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(untouched) << "the hook ran after the download";
  EXPECT_TRUE(pgk::test::SameIndices(out, expect, "rcm_gpu_into permutation"));
}

// The hook with the batch kernel running (components with edges), and without it (singletons
// only: called before the download instead); not at all when the input is refused, nor for n = 0.
TEST_F(GpuBatchRcmErrors, IntoCallsTheHookOnceBeforeTheDownload) {
  expect_hook_once_before_download(device->view);
  Csr diagonal;
  diagonal.nrows = diagonal.ncols = 5;
  for (Index i = 0; i < 5; ++i) {
    diagonal.colidx.push_back(i);
    diagonal.rowptr.push_back(i + 1);
  }
  const pgk::test::DeviceCsr dd(diagonal, false);
  expect_hook_once_before_download(dd.view);

  int calls = 0;
  const pgk::CsrView empty; // 0 x 0: returns before it reads anything
  pgk::cuda::rcm_gpu_into(empty, {}, nullptr, nullptr, nullptr, nullptr, [&] { ++calls; });
  EXPECT_EQ(calls, 0);
  std::vector<Index> out(static_cast<std::size_t>(g.nrows), -1);

  Csr bad = g;
  bad.colidx[5] = 9999;
  const pgk::test::DeviceCsr db(bad, false);
  expect_throw<std::invalid_argument>("column index out of range", [&] {
    pgk::cuda::rcm_gpu_into(db.view, {}, nullptr, out.data(), nullptr, nullptr, [&] { ++calls; });
  });
  EXPECT_EQ(calls, 0);
}

} // namespace

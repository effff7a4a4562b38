// Device rabbitpp (kernels/rabbitpp/rabbitpp_gpu.hpp) against the multicore backend
// (src/rabbitpp/batch.hpp on one thread): G, the processing order, the dendrogram (parent and
// round of every vertex, rounds, deferrals) and the permutation must be exactly the reference's
// for every corpus graph, batch size K and layout, on every run; the figures too (modularity bit
// for bit); bad input must be refused like the host refuses it; the copies must be the documented
// ones.
//
// The corpus's rows are made sorted and unique first (the random suite shuffles rows and stores
// duplicates; the device takes PETSc's AIJ storage): G, hence the reference, is the same. K in
// {1, 2, 7, 64, default}, each on the graphs where it takes at most round_budget() rounds (about
// n / K; every graph with the default K): K = 1 on a large graph is n rounds of launches. With
// --small (the sanitizer runs) the budget is 24 rounds and each graph runs one K (Graph::batches).
#include "kernels/common/transfer.hpp"
#include "kernels/rabbitpp/rabbitpp_gpu.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/graph.hpp"
#include "src/rabbitpp/regroup.hpp"
#include "tests/support/compare.hpp"
#include "tests/support/corpus.hpp"
#include "tests/support/corpus_loop.hpp"
#include "tests/support/device.hpp"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using pgk::Csr;
using pgk::Index;
using pgk::test::CorpusEntry;
namespace rb = pgk::rabbitpp;

Index round_budget() { return pgk::test::small_corpus() ? 24 : 150; }

// Rows sorted ascending without duplicates (the diagonal kept).
Csr sorted_unique(const Csr &a) {
  Csr c;
  c.nrows = a.nrows;
  c.ncols = a.ncols;
  c.rowptr.assign(static_cast<std::size_t>(a.nrows) + 1, 0);
  for (Index i = 0; i < a.nrows; ++i) {
    std::vector<Index> row(a.colidx.begin() + a.rowptr[i], a.colidx.begin() + a.rowptr[i + 1]);
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    c.colidx.insert(c.colidx.end(), row.begin(), row.end());
    c.rowptr[i + 1] = static_cast<Index>(c.colidx.size());
  }
  return c;
}

// One corpus graph, ready for the device: the cleaned pattern, its G, the device copy.
struct Graph {
  Csr a;
  rb::Graph g;
  std::unique_ptr<pgk::test::DeviceCsr> device;
  explicit Graph(const CorpusEntry &e) : a(sorted_unique(e.matrix())), g(rb::build_graph(pgk::view_of(a))) {
    device = std::make_unique<pgk::test::DeviceCsr>(a, false);
  }
  const pgk::CsrView &view() const { return device->view; }
  // The batch sizes this graph runs with: those of {1, 2, 7, 64} within the round budget, and the
  // default (0). With --small one only: 7, else 64, else the smallest K within the budget.
  std::vector<Index> batches() const {
    const Index budget = round_budget();
    if (pgk::test::small_corpus()) {
      for (Index k : {Index{7}, Index{64}})
        if (g.n <= k * budget) return {k};
      return {(g.n + budget - 1) / budget};
    }
    std::vector<Index> out;
    for (Index k : {Index{1}, Index{2}, Index{7}, Index{64}})
      if (g.n <= k * budget) out.push_back(k);
    out.push_back(0);
    return out;
  }
};

std::string describe(Index batch, Index n) {
  return "K=" + std::to_string(batch > 0 ? batch : rb::default_batch(n)) + (batch > 0 ? "" : " (default)");
}

rb::Options options(Index batch, bool regroup, bool insular_first, rb::HubScope scope) {
  rb::Options o;
  o.batch = batch;
  o.regroup = regroup;
  o.insular_first = insular_first;
  o.hub_scope = scope;
  o.threads = 1;
  o.min_skew = 0; // the regrouping on every graph; the skew gate's default: gated() below
  return o;
}

// RABBIT++ with the default skew gate (src/rabbitpp/rabbitpp.hpp): regrouped where A's degrees are
// skewed, rabbit's permutation elsewhere.
rb::Options gated(Index batch) {
  rb::Options o = options(batch, true, false, rb::HubScope::NonInsular);
  o.min_skew = rb::Options{}.min_skew;
  return o;
}

// Every option set: plain Rabbit, and RABBIT++ in each layout (--small: the default layout and
// the other extreme); the I|H|R layouts with hubs above twice the average degree.
std::vector<rb::Options> option_sets(Index batch) {
  std::vector<rb::Options> out{options(batch, false, false, rb::HubScope::NonInsular)};
  for (bool first : {false, true})
    for (rb::HubScope scope : {rb::HubScope::NonInsular, rb::HubScope::All})
      if (!pgk::test::small_corpus() || first == (scope == rb::HubScope::All)) {
        out.push_back(options(batch, true, first, scope));
        if (first) out.back().hub_factor = 2;
      }
  return out;
}

std::string describe(const rb::Options &o, Index n) {
  return describe(o.batch, n) +
         (o.regroup ? std::string(" rabbitpp") + (o.insular_first ? " I|H|R" : " H|R|I") +
                          (o.hub_scope == rb::HubScope::All ? " hubs:all" : " hubs:noninsular") + " hub_factor " +
                          std::to_string(o.hub_factor) + " min_skew " + std::to_string(o.min_skew)
                    : " rabbit");
}

class GpuRabbitpp : public pgk::test::GpuTest {
protected:
  template <class F> void each_graph(F f) {
    std::vector<const CorpusEntry *> graphs;
    for (const CorpusEntry *e : pgk::test::corpus())
      if (e->matrix().nrows == e->matrix().ncols) graphs.push_back(e);
    count = pgk::test::for_each_entry(graphs, [&](const CorpusEntry &e) { f(Graph(e)); });
  }
  int count = 0;
};

TEST_F(GpuRabbitpp, GraphMatchesReference) {
  each_graph([&](const Graph &g) {
    const rb::Graph d = pgk::cuda::rabbitpp_gpu_graph(g.view(), nullptr);
    EXPECT_EQ(d.n, g.g.n);
    EXPECT_TRUE(pgk::test::SameIndices(d.rowptr, g.g.rowptr, "G rowptr"));
    EXPECT_TRUE(pgk::test::SameIndices(d.colidx, g.g.colidx, "G colidx"));
    EXPECT_EQ(d.weight, g.g.weight) << "G weights";
    EXPECT_EQ(d.strength, g.g.strength) << "G strengths";
    EXPECT_EQ(d.total, g.g.total);
  });
  std::printf("G: %d graphs\n", count);
}

// The dendrogram of community detection, against detect_communities_batch; arena: 0 (default)
// or the smallest safe one (nnz(G): compactions in many rounds).
void expect_same_dendrogram(const Graph &g, Index batch, long long arena, Index &compactions) {
  SCOPED_TRACE(describe(batch, g.g.n) + (arena > 0 ? " small arena" : ""));
  Index deferred = 0, ref_deferred = 0, compacted = 0;
  const rb::Dendrogram d = pgk::cuda::rabbitpp_gpu_dendrogram(g.view(), batch, nullptr, &deferred, arena, &compacted);
  pgk::ThreadPool pool(1);
  const rb::Dendrogram ref =
      rb::detect_communities_batch(g.g, batch > 0 ? batch : rb::default_batch(g.g.n), pool, &ref_deferred);
  EXPECT_TRUE(pgk::test::SameIndices(d.order, ref.order, "processing order"));
  EXPECT_TRUE(pgk::test::SameIndices(d.pos, ref.pos, "positions"));
  EXPECT_TRUE(pgk::test::SameIndices(d.parent, ref.parent, "parents"));
  EXPECT_TRUE(pgk::test::SameIndices(d.round, ref.round, "rounds of the vertices"));
  EXPECT_EQ(d.rounds, ref.rounds);
  EXPECT_EQ(deferred, ref_deferred);
  compactions += compacted;
}

TEST_F(GpuRabbitpp, DendrogramMatchesMulticore) {
  Index compactions = 0;
  each_graph([&](const Graph &g) {
    for (Index batch : g.batches()) expect_same_dendrogram(g, batch, 0, compactions);
  });
  std::printf("dendrogram: %d graphs, %d arena compactions\n", count, static_cast<int>(compactions));
}

TEST_F(GpuRabbitpp, DendrogramWithSmallArena) {
  Index compactions = 0;
  each_graph([&](const Graph &g) {
    const long long arena = std::max<long long>(g.g.rowptr[g.g.n], 1);
    for (Index batch : g.batches())
      if (batch == 0 || batch == 7 || pgk::test::small_corpus()) expect_same_dendrogram(g, batch, arena, compactions);
  });
  std::printf("dendrogram, smallest arena: %d graphs, %d arena compactions\n", count, static_cast<int>(compactions));
  EXPECT_GT(compactions, 0) << "the small arena was never compacted: the compaction path went untested";
}

// The permutation, in two tests so that each stays well inside ctest's time limit on the full
// corpus: the batch sizes {1, 2, 7, 64} with the default layout (with --small, the sanitizer runs:
// its one K with every option set), and the default K with every option set.
void expect_same_permutations(const Graph &g, Index batch, bool all_sets, int &runs) {
  const std::vector<rb::Options> sets =
      all_sets ? option_sets(batch) : std::vector<rb::Options>{options(batch, true, false, rb::HubScope::NonInsular)};
  for (const rb::Options &o : sets) {
    SCOPED_TRACE(describe(o, g.g.n));
    const std::vector<Index> got = pgk::cuda::rabbitpp_gpu(g.view(), o, nullptr);
    EXPECT_TRUE(pgk::test::SameIndices(got, rb::rabbitpp_batch(pgk::view_of(g.a), o), "permutation"));
    ++runs;
  }
}

TEST_F(GpuRabbitpp, PermutationMatchesMulticore) {
  int runs = 0;
  each_graph([&](const Graph &g) {
    for (Index batch : g.batches())
      if (batch != 0) expect_same_permutations(g, batch, pgk::test::small_corpus(), runs);
  });
  std::printf("permutation, K in {1, 2, 7, 64}: %d graphs, %d device runs\n", count, runs);
  EXPECT_GT(runs, 0);
}

// Every option set on every 4th graph, rabbit and the default rabbitpp on the others: all five sets
// on the whole corpus were still running after 520 s on the H100 (beside the other GPU tests).
TEST_F(GpuRabbitpp, PermutationMatchesMulticoreDefaultBatch) {
  int runs = 0, index = 0;
  each_graph([&](const Graph &g) {
    if (index++ % 4 == 0) {
      expect_same_permutations(g, 0, true, runs);
      return;
    }
    for (bool regroup : {false, true}) { // rabbitpp here with the skew gate (no figures asked: no copy of it)
      const rb::Options o = regroup ? gated(0) : options(0, false, false, rb::HubScope::NonInsular);
      SCOPED_TRACE(describe(o, g.g.n));
      EXPECT_TRUE(pgk::test::SameIndices(pgk::cuda::rabbitpp_gpu(g.view(), o, nullptr),
                                         rb::rabbitpp_batch(pgk::view_of(g.a), o), "permutation"));
      ++runs;
    }
  });
  std::printf("permutation, default K: %d graphs, %d device runs\n", count, runs);
  EXPECT_GT(runs, 0);
}

// The figures, and the skew gate's verdict (rabbitpp with the default gate), which must go both
// ways on the corpus.
TEST_F(GpuRabbitpp, FiguresMatchMulticore) {
  int verdicts[2] = {0, 0};
  each_graph([&](const Graph &g) {
    for (bool regroup : {false, true}) {
      const rb::Options o = regroup ? gated(0) : options(0, false, false, rb::HubScope::NonInsular);
      SCOPED_TRACE(describe(o, g.g.n));
      rb::Info got, want;
      const std::vector<Index> perm = pgk::cuda::rabbitpp_gpu(g.view(), o, nullptr, &got);
      EXPECT_TRUE(pgk::test::SameIndices(perm, rb::rabbitpp_batch(pgk::view_of(g.a), o, &want), "permutation"));
      EXPECT_EQ(got.communities, want.communities);
      EXPECT_EQ(got.largest_community, want.largest_community);
      EXPECT_EQ(got.modularity, want.modularity); // the same integers summed in the same order
      EXPECT_EQ(got.insularity, want.insularity);
      EXPECT_EQ(got.insular, want.insular);
      EXPECT_EQ(got.hubs, want.hubs);
      EXPECT_EQ(got.skew, want.skew);
      EXPECT_EQ(got.regrouped, want.regrouped);
      if (regroup) ++verdicts[want.regrouped ? 1 : 0];
      EXPECT_EQ(got.rounds, want.rounds);
      EXPECT_EQ(got.deferred, want.deferred);
      EXPECT_GE(got.seconds_graph, 0.0);
      EXPECT_GE(got.seconds_communities, 0.0);
    }
  });
  std::printf("skew gate: %d graphs kept the Rabbit order, %d regrouped\n", verdicts[0], verdicts[1]);
  EXPECT_GT(verdicts[0], 0);
  EXPECT_GT(verdicts[1], 0);
}

// Two runs, the second on a stream of its own: the same permutation.
TEST_F(GpuRabbitpp, Deterministic) {
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  each_graph([&](const Graph &g) {
    const rb::Options o = options(0, true, false, rb::HubScope::NonInsular);
    const std::vector<Index> first = pgk::cuda::rabbitpp_gpu(g.view(), o, nullptr);
    EXPECT_TRUE(pgk::test::SameIndices(pgk::cuda::rabbitpp_gpu(g.view(), o, stream), first, "second run"));
  });
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

// ---- the copies: exactly rabbitpp_gpu.hpp's list ---------------------------------------------

int g_to_host = 0, g_to_device = 0;
void count_copy(pgk::cuda::CopyDirection d, std::size_t) {
  ++(d == pgk::cuda::CopyDirection::DeviceToHost ? g_to_host : g_to_device);
}

TEST_F(GpuRabbitpp, CopiesAsDocumented) {
  each_graph([&](const Graph &g) {
    for (bool with_info : {false, true}) {
      const rb::Options o = options(0, true, false, rb::HubScope::NonInsular);
      rb::Info info;
      g_to_host = g_to_device = 0;
      pgk::cuda::set_transfer_logger(count_copy);
      pgk::cuda::rabbitpp_gpu(g.view(), o, nullptr, with_info ? &info : nullptr);
      pgk::cuda::set_transfer_logger(nullptr);
      rb::Info ref;
      rb::rabbitpp_batch(pgk::view_of(g.a), o, &ref);
      const int expected = g.g.n == 0 ? 0 : static_cast<int>(ref.rounds) + 7 + (with_info ? 2 : 0);
      EXPECT_EQ(g_to_host, expected) << (with_info ? "with info" : "without info") << ", " << ref.rounds << " rounds";
      EXPECT_EQ(g_to_device, 0);
    }
  });
}

// ---- bad input and edge cases ------------------------------------------------------------------

Csr raw(Index nrows, Index ncols, std::vector<Index> rowptr, std::vector<Index> colidx) {
  Csr a;
  a.nrows = nrows;
  a.ncols = ncols;
  a.rowptr = std::move(rowptr);
  a.colidx = std::move(colidx);
  return a;
}

template <class Ex> void expect_refused(const Csr &a, const std::string &needle) {
  const pgk::test::DeviceCsr d(a, false);
  try {
    pgk::cuda::rabbitpp_gpu(d.view, rb::Options{}, nullptr);
    ADD_FAILURE() << "no exception (expected one containing '" << needle << "')";
  } catch (const Ex &e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message '" << e.what() << "' lacks '" << needle << "'";
  } catch (const std::exception &e) {
    ADD_FAILURE() << "wrong exception: " << e.what();
  }
}

class GpuRabbitppErrors : public pgk::test::GpuTest {};

TEST_F(GpuRabbitppErrors, NonSquare) {
  expect_refused<std::invalid_argument>(raw(3, 4, {0, 1, 2, 3}, {0, 3, 2}), "must be square, got 3 x 4");
  expect_refused<std::invalid_argument>(raw(0, 2, {0}, {}), "must be square, got 0 x 2");
}

TEST_F(GpuRabbitppErrors, UnsortedRowNamed) {
  expect_refused<std::invalid_argument>(raw(4, 4, {0, 1, 3, 4, 5}, {0, 2, 0, 2, 3}),
                                        "row 1 of the device matrix is not sorted");
}

TEST_F(GpuRabbitppErrors, DuplicateNamed) {
  expect_refused<std::invalid_argument>(raw(4, 4, {0, 1, 2, 4, 5}, {0, 1, 1, 1, 3}), "row 2 of the device matrix");
}

TEST_F(GpuRabbitppErrors, ColumnOutOfRange) {
  expect_refused<std::invalid_argument>(raw(4, 4, {0, 1, 2, 3, 4}, {0, 1, 9, 3}),
                                        "malformed CSR: row 2: column index outside");
}

TEST_F(GpuRabbitppErrors, RowPointerDecreases) {
  expect_refused<std::invalid_argument>(raw(3, 3, {0, 2, 1, 3}, {0, 1, 2}), "rowptr decreases at row 1");
}

TEST_F(GpuRabbitppErrors, EmptyMatrix) {
  const pgk::test::DeviceCsr d(raw(0, 0, {0}, {}), false);
  rb::Info info;
  EXPECT_TRUE(pgk::cuda::rabbitpp_gpu(d.view, rb::Options{}, nullptr, &info).empty());
  rb::Info ref;
  const Csr e = raw(0, 0, {0}, {});
  rb::rabbitpp_batch(pgk::view_of(e), rb::Options{}, &ref);
  EXPECT_EQ(info.insularity, ref.insularity);
  EXPECT_EQ(info.regrouped, ref.regrouped);
  EXPECT_EQ(info.communities, 0);
}

// No off-diagonal entry: the identity (README section 0), for rabbit and rabbitpp alike.
TEST_F(GpuRabbitppErrors, NoOffDiagonalIsIdentity) {
  for (const Csr &a : {raw(5, 5, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4}), raw(5, 5, {0, 0, 0, 0, 0, 0}, {})})
    for (bool regroup : {false, true}) {
      const pgk::test::DeviceCsr d(a, false);
      rb::Options o;
      o.regroup = regroup;
      std::vector<Index> identity(5);
      std::iota(identity.begin(), identity.end(), Index{0});
      EXPECT_TRUE(pgk::test::SameIndices(pgk::cuda::rabbitpp_gpu(d.view, o, nullptr), identity, "identity"));
    }
}

} // namespace

// Device batch RCM (kernels/rcm_gpu.hpp) against the serial reference (src/rcm_serial.hpp):
// every permutation must be exactly the reference's, for every graph, option set and run.
//
//   kernel_rcm            the full suite (> 200 graphs, several option sets, repeated runs)
//   kernel_rcm --small    a reduced suite, for compute-sanitizer
//   kernel_rcm [--nodes B] --time SPEC [SPEC...]   serial reference vs device, end to end
//
// Prints "N graphs, M mismatches" and exits non-zero on any mismatch or unexpected error.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "src/matgen/generators.hpp"
#include "src/batchrcm/batch.hpp"
#include "src/batchrcm/rcm.hpp"
#include "kernels/batchrcm/rcm_gpu.hpp"
#include "src/batchrcm/serial.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/common/rng.hpp"

using pgk::Csr;
using pgk::Index;
namespace rcm = pgk::rcm;

namespace {

// ---- test graphs ------------------------------------------------------------------------------

using Edges = std::vector<std::pair<Index, Index>>;

struct Flags {
  unsigned diagonal_percent = 0; // vertices with a stored diagonal
  bool shuffle_rows = false;     // rows in random order: ties follow row position
  bool duplicates = false;       // some entries twice
};

Csr build(Index n, const Edges &edges, pgk::SplitMix64 &rng, Flags f) {
  std::vector<std::vector<Index>> rows(static_cast<std::size_t>(n));
  for (auto [a, b] : edges) {
    if (a == b) continue;
    rows[a].push_back(b);
    rows[b].push_back(a);
  }
  for (Index i = 0; i < n; ++i)
    if (f.diagonal_percent && rng.bounded(100) < f.diagonal_percent) rows[i].push_back(i);
  Csr g;
  g.nrows = g.ncols = n;
  g.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (Index i = 0; i < n; ++i) {
    auto &r = rows[i];
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    if (f.duplicates && !r.empty() && rng.bounded(100) < 30) r.push_back(r[rng.bounded(r.size())]);
    if (f.shuffle_rows) pgk::shuffle(r, rng);
    g.colidx.insert(g.colidx.end(), r.begin(), r.end());
    g.rowptr[i + 1] = static_cast<Index>(g.colidx.size());
  }
  return g;
}

Index below(pgk::SplitMix64 &rng, Index n) { return n <= 0 ? 0 : static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(n))); }

Edges random_edges(Index n, Index m, pgk::SplitMix64 &rng) {
  Edges e;
  for (Index k = 0; k < m && n > 1; ++k) e.push_back({below(rng, n), below(rng, n)});
  return e;
}

// New vertices attach to endpoints of earlier edges: hubs and a heavy degree tail.
Edges attach(Index n, Index links, pgk::SplitMix64 &rng) {
  Edges e;
  for (Index v = 1; v < n; ++v)
    for (Index k = 0; k < links; ++k) {
      Index t = below(rng, v);
      if (!e.empty() && rng.bounded(5) != 0) {
        const auto &x = e[rng.bounded(e.size())];
        t = rng.bounded(2) ? x.first : x.second;
      }
      if (t >= v) t = below(rng, v);
      e.push_back({v, t});
    }
  return e;
}

Edges grid(Index w, Index h, unsigned holes_percent, pgk::SplitMix64 &rng) {
  Edges e;
  for (Index y = 0; y < h; ++y)
    for (Index x = 0; x < w; ++x) {
      const Index v = y * w + x;
      if (x + 1 < w && rng.bounded(100) >= holes_percent) e.push_back({v, v + 1});
      if (y + 1 < h && rng.bounded(100) >= holes_percent) e.push_back({v, v + w});
    }
  return e;
}

Edges tree(Index n, pgk::SplitMix64 &rng) {
  Edges e;
  for (Index v = 1; v < n; ++v) e.push_back({v, below(rng, v)});
  return e;
}

// Graph `id` of the random suite; the family cycles with id.
Csr suite_graph(int id, bool small, std::string &what) {
  pgk::SplitMix64 rng(0x9c0ffee0ull + static_cast<std::uint64_t>(id) * 7919u);
  const int family = id % 10;
  Index n = 0;
  Edges e;
  switch (family) {
  case 0:
    n = below(rng, 400);
    e = random_edges(n, n * (1 + below(rng, 6)) / 2, rng);
    what = "sparse random";
    break;
  case 1:
    n = 2 + below(rng, 600);
    e = attach(n, 1 + below(rng, 4), rng);
    what = "preferential attachment";
    break;
  case 2: { // hub rows; every fourth one longer than the default scratch (2048)
    n = id % 4 == 2 && !small ? 2100 + below(rng, 2500) : 2 + below(rng, 300);
    e = random_edges(n, n / 2, rng);
    const Index hubs = 1 + below(rng, 3);
    for (Index h = 0; h < hubs; ++h) {
      const unsigned share = 40 + static_cast<unsigned>(rng.bounded(60));
      for (Index v = 0; v < n; ++v)
        if (v != h && rng.bounded(100) < share) e.push_back({h, v});
    }
    // spread the valences of the hub's children so the histogram has work
    for (Index v = hubs; v < n; ++v)
      for (Index k = below(rng, 1 + v % 9); k > 0; --k) e.push_back({v, below(rng, n)});
    what = "hubs";
    break;
  }
  case 3: {
    const Index w = 1 + below(rng, 40), h = 1 + below(rng, 40);
    n = w * h;
    e = grid(w, h, static_cast<unsigned>(rng.bounded(12)), rng);
    what = "grid with holes";
    break;
  }
  case 4:
    n = 1 + below(rng, 500);
    e = tree(n, rng);
    what = "tree";
    break;
  case 5: { // many components of mixed kinds plus isolated vertices
    const int parts = 2 + static_cast<int>(rng.bounded(8));
    for (int p = 0; p < parts; ++p) {
      const Index m = 1 + below(rng, 80);
      Edges part = rng.bounded(2) ? tree(m, rng) : attach(m, 2, rng);
      for (auto &[a, b] : part) e.push_back({a + n, b + n});
      n += m;
    }
    n += below(rng, 30);
    what = "components";
    break;
  }
  case 6: // small dense
    n = 1 + below(rng, 60);
    for (Index a = 0; a < n; ++a)
      for (Index b = a + 1; b < n; ++b)
        if (rng.bounded(100) < 70) e.push_back({a, b});
    what = "dense";
    break;
  case 7:
    n = 1 + below(rng, 300);
    for (Index v = 0; v + 1 < n; ++v) e.push_back({v, v + 1});
    if (n > 2 && rng.bounded(2)) e.push_back({n - 1, 0});
    what = "path or cycle";
    break;
  case 8: // larger random graphs: many concurrent batches
    n = small ? 600 : 2000 + below(rng, 6000);
    e = random_edges(n, n * (2 + below(rng, 5)), rng);
    what = "larger random";
    break;
  default: // n = 0, 1, 2, 3 with every edge choice
    n = static_cast<Index>(id / 10 % 4);
    if (n >= 2 && rng.bounded(100) < 60) e.push_back({0, 1});
    if (n == 3 && rng.bounded(100) < 60) e.push_back({1, 2});
    what = "tiny";
    break;
  }
  std::vector<Index> relabel(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) relabel[i] = i;
  pgk::shuffle(relabel, rng); // scatter components and hubs over the ids
  for (auto &[a, b] : e) {
    a = relabel[a];
    b = relabel[b];
  }
  Flags f;
  f.diagonal_percent = static_cast<unsigned>(rng.bounded(3)) * 50;
  f.shuffle_rows = rng.bounded(100) < 40;
  f.duplicates = rng.bounded(100) < 15;
  what += " n=" + std::to_string(n) + " diag%=" + std::to_string(f.diagonal_percent) +
          (f.shuffle_rows ? " shuffled" : "") + (f.duplicates ? " dups" : "");
  return build(n, e, rng, f);
}

// ---- device helpers ----------------------------------------------------------------------------

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct DeviceGraph {
  pgk::CsrView view{};
  Index *rowptr = nullptr, *colidx = nullptr;
  explicit DeviceGraph(const Csr &g) {
    view.nrows = g.nrows;
    view.ncols = g.ncols;
    check(cudaMalloc(&rowptr, g.rowptr.size() * sizeof(Index)), "cudaMalloc");
    check(cudaMemcpy(rowptr, g.rowptr.data(), g.rowptr.size() * sizeof(Index), cudaMemcpyHostToDevice), "copy");
    if (!g.colidx.empty()) {
      check(cudaMalloc(&colidx, g.colidx.size() * sizeof(Index)), "cudaMalloc");
      check(cudaMemcpy(colidx, g.colidx.data(), g.colidx.size() * sizeof(Index), cudaMemcpyHostToDevice), "copy");
    }
    view.rowptr = rowptr;
    view.colidx = colidx;
  }
  DeviceGraph(const DeviceGraph &) = delete;
  DeviceGraph &operator=(const DeviceGraph &) = delete;
  ~DeviceGraph() {
    cudaFree(rowptr);
    cudaFree(colidx);
  }
};

// ---- the comparison ------------------------------------------------------------------------------

struct Tally {
  int graphs = 0, runs = 0, mismatches = 0, errors = 0, overflows = 0;
  std::uint64_t big = 0, empty = 0, passes = 0, after_sort = 0, before_sort = 0, forwarding = 0;
};

std::string describe(const rcm::Options &o) {
  return "B=" + std::to_string(o.gpu.batch_nodes) + " T=" + std::to_string(o.gpu.batch_valence) +
         " queue=" + std::to_string(o.gpu.queue_slots) + " blocks=" + std::to_string(o.gpu.max_blocks) +
         " stress=" + std::to_string(o.gpu.stress_seed) + " diag=" + (o.count_diagonal_in_valence ? "1" : "0") +
         " start=" + (o.start == rcm::StartNode::Given ? "given:" + std::to_string(o.given_start) : "peripheral");
}

void report(const std::string &graph, const std::string &path, const rcm::Options &o, const std::vector<Index> &ref,
            const std::vector<Index> &got) {
  std::printf("MISMATCH %s | %s | %s: ", graph.c_str(), path.c_str(), describe(o).c_str());
  if (ref.size() != got.size()) {
    std::printf("size %zu, reference %zu\n", got.size(), ref.size());
    return;
  }
  std::size_t k = 0;
  while (k < ref.size() && ref[k] == got[k]) ++k;
  std::printf("first difference at %zu of %zu:", k, ref.size());
  for (std::size_t j = k; j < std::min(ref.size(), k + 6); ++j) std::printf(" %lld/%lld", (long long)got[j], (long long)ref[j]);
  std::printf(" (device/reference)\n");
}

void record(Tally &t, const pgk::cuda::RcmGpuInfo &info, const rcm::Stats &st) {
  t.big += info.big_batches;
  t.empty += info.empty_batches;
  t.passes += info.histogram_passes;
  t.after_sort += st.batches_rediscovered_after_sort;
  t.before_sort += st.batches_rediscovered_before_sort;
  t.forwarding += st.batches_forwarding_overhang;
}

// One graph: the device plan, the core from the reference roots under several option sets, and
// the full device path.
void test_graph(const Csr &g, const std::string &what, int variant, bool small, int repeats, Tally &t) {
  ++t.graphs;
  const pgk::CsrView hv = pgk::view_of(g);
  rcm::Options base;
  base.count_diagonal_in_valence = variant % 3 != 1;
  base.gpu.watchdog_seconds = small ? 60 : 10; // small graphs finish in milliseconds; a hang fails fast
  if (small) base.gpu.max_blocks = 8;           // sanitizers: few resident blocks, still concurrent
  if (variant % 5 == 3 && g.nrows > 0) {
    base.start = rcm::StartNode::Given;
    base.given_start = static_cast<Index>((variant * 2654435761u) % static_cast<unsigned>(g.nrows));
  }
  rcm::Options ho;
  ho.start = base.start;
  ho.given_start = base.given_start;
  ho.count_diagonal_in_valence = base.count_diagonal_in_valence;
  const rcm::ComponentPlan plan = rcm::plan_components(hv, ho);
  const std::vector<Index> ref = rcm::serial_rcm_from_roots(hv, plan.roots, ho);

  DeviceGraph dg(g);
  try {
    const rcm::ComponentPlan dplan = pgk::cuda::plan_components_gpu(dg.view, base, nullptr);
    if (dplan.roots != plan.roots || dplan.sizes != plan.sizes) {
      ++t.mismatches;
      std::printf("MISMATCH %s | device plan: %zu components (reference %zu)", what.c_str(), dplan.roots.size(),
                  plan.roots.size());
      for (std::size_t c = 0; c < std::min(plan.roots.size(), dplan.roots.size()); ++c)
        if (dplan.roots[c] != plan.roots[c] || dplan.sizes[c] != plan.sizes[c]) {
          std::printf(", first difference at %zu: root %lld size %lld (reference %lld %lld)", c,
                      (long long)dplan.roots[c], (long long)dplan.sizes[c], (long long)plan.roots[c],
                      (long long)plan.sizes[c]);
          break;
        }
      std::printf("\n");
    }
  } catch (const std::exception &e) {
    ++t.errors;
    std::printf("ERROR %s | device plan | %s: %s\n", what.c_str(), describe(base).c_str(), e.what());
  }

  // Option sets: the paper's defaults; tiny batches and scratch (many batches, overhangs, the
  // large-row path with deep histograms); single-parent batches; a small ring that wraps.
  std::vector<rcm::Options> sets;
  sets.push_back(base);
  rcm::Options o = base;
  o.gpu.batch_nodes = 4;
  o.gpu.batch_valence = 16;
  o.gpu.stress_seed = small ? 0 : static_cast<std::uint64_t>(variant + 1);
  sets.push_back(o);
  if (!small) {
    o = base;
    o.gpu.batch_nodes = 1;
    o.gpu.batch_valence = 2;
    sets.push_back(o);
    o = base;
    o.gpu.batch_nodes = 8;
    o.gpu.batch_valence = 40;
    o.gpu.queue_slots = 64;
    o.gpu.max_blocks = 3;
    sets.push_back(o);
  }
  for (const rcm::Options &opt : sets) {
    for (int rep = 0; rep < (&opt == &sets[1] ? repeats : 1); ++rep) {
      rcm::Options r = opt;
      if (rep > 0) r.gpu.stress_seed = static_cast<std::uint64_t>(1000 * variant + rep);
      ++t.runs;
      try {
        rcm::Stats st;
        pgk::cuda::RcmGpuInfo info;
        const std::vector<Index> got =
            pgk::cuda::rcm_gpu_from_roots(dg.view, plan.roots, r, nullptr, &st, &info);
        record(t, info, st);
        if (got != ref) {
          ++t.mismatches;
          report(what, "from_roots", r, ref, got);
        }
      } catch (const rcm::BatchQueueOverflow &e) {
        ++t.overflows; // a reported overflow is a correct outcome for a small ring
        if (r.gpu.queue_slots == 0) {
          ++t.errors;
          std::printf("ERROR %s | from_roots | %s: %s\n", what.c_str(), describe(r).c_str(), e.what());
        }
      } catch (const std::exception &e) {
        ++t.errors;
        std::printf("ERROR %s | from_roots | %s: %s\n", what.c_str(), describe(r).c_str(), e.what());
      }
    }
  }
  ++t.runs;
  try {
    rcm::Stats st;
    pgk::cuda::RcmGpuInfo info;
    const std::vector<Index> got = pgk::cuda::rcm_gpu(dg.view, base, nullptr, &st, &info);
    record(t, info, st);
    if (got != ref) {
      ++t.mismatches;
      report(what, "rcm_gpu", base, ref, got);
    }
  } catch (const std::exception &e) {
    ++t.errors;
    std::printf("ERROR %s | rcm_gpu | %s: %s\n", what.c_str(), describe(base).c_str(), e.what());
  }
}

// Bad input must be reported exactly like the reference does it.
template <class Ex, class F> void expect_throw(Tally &t, const char *name, const char *needle, F f) {
  ++t.runs;
  try {
    f();
    ++t.errors;
    std::printf("ERROR %s: no exception\n", name);
  } catch (const Ex &e) {
    if (!std::strstr(e.what(), needle)) {
      ++t.errors;
      std::printf("ERROR %s: message '%s' lacks '%s'\n", name, e.what(), needle);
    }
  } catch (const std::exception &e) {
    ++t.errors;
    std::printf("ERROR %s: wrong exception: %s\n", name, e.what());
  }
}

void test_errors(Tally &t) {
  pgk::SplitMix64 rng(7);
  Edges e = random_edges(200, 400, rng);
  Csr g = build(200, e, rng, {});
  const rcm::ComponentPlan plan = rcm::plan_components(pgk::view_of(g), {});
  DeviceGraph dg(g);
  std::vector<Index> roots = plan.roots;
  expect_throw<std::invalid_argument>(t, "root out of range", "out of range", [&] {
    std::vector<Index> r = roots;
    r[0] = 200;
    pgk::cuda::rcm_gpu_from_roots(dg.view, r, {}, nullptr);
  });
  if (plan.roots.size() > 1) {
    expect_throw<std::invalid_argument>(t, "too few roots", "the roots reach", [&] {
      std::vector<Index> r(roots.begin(), roots.end() - 1);
      pgk::cuda::rcm_gpu_from_roots(dg.view, r, {}, nullptr);
    });
  }
  expect_throw<std::invalid_argument>(t, "root in an ordered component", "already ordered", [&] {
    std::vector<Index> r = roots;
    r.push_back(roots[0]);
    pgk::cuda::rcm_gpu_from_roots(dg.view, r, {}, nullptr);
  });
  expect_throw<std::invalid_argument>(t, "georgeliu", "georgeliu start node", [&] {
    rcm::Options o;
    o.start = rcm::StartNode::GeorgeLiu;
    pgk::cuda::rcm_gpu(dg.view, o, nullptr);
  });
  expect_throw<rcm::BatchQueueOverflow>(t, "queue overflow", "queue_slots", [&] {
    // A star whose leaves do not complete the ordering (a tail hangs off leaf 1), so the hub's
    // batch must reserve ~1500 batches ahead of itself.
    Csr star = build(3010, [] {
      Edges s;
      for (Index v = 1; v < 3000; ++v) s.push_back({0, v});
      s.push_back({1, 3000});
      for (Index v = 3000; v + 1 < 3010; ++v) s.push_back({v, v + 1});
      return s;
    }(), rng, {});
    DeviceGraph ds(star);
    rcm::Options o;
    o.gpu.batch_nodes = 2;
    o.gpu.queue_slots = 16;
    pgk::cuda::rcm_gpu_from_roots(ds.view, {0}, o, nullptr);
  });
  expect_throw<std::invalid_argument>(t, "column out of range", "column index out of range", [&] {
    Csr bad = g;
    bad.colidx[5] = 9999;
    DeviceGraph db(bad);
    pgk::cuda::rcm_gpu(db.view, {}, nullptr);
  });
}

int run_suite(bool small) {
  Tally t;
  const int suite = small ? 12 : 250; // small: every family once or twice (racecheck is slow)
  const auto give_up = [&] { return t.mismatches + t.errors > 25; }; // fail fast, keep the log short
  for (int id = 0; id < suite && !give_up(); ++id) {
    std::string what;
    const Csr g = suite_graph(id, small, what);
    test_graph(g, "suite#" + std::to_string(id) + " " + what, id, small, small ? 1 : (id % 10 == 8 ? 4 : 2), t);
    if (id % 25 == 24) {
      std::printf("... %d graphs, %d runs, %d mismatches, %d errors\n", t.graphs, t.runs, t.mismatches, t.errors);
      std::fflush(stdout);
    }
  }
  std::vector<std::string> specs = {"empty:n=0", "empty:n=1", "empty:n=2", "path:n=2", "lap3d7:n=8",
                                    "hubrow:n=2300,hubdeg=2299", "disconnected:n=400,parts=5"};
  if (!small) {
    for (const char *s : {"empty:n=3000", "path:n=5000", "lap3d7:n=12", "elast3d:n=6", "hubrow:n=5000,hubdeg=4999",
                          "disconnected:n=999,parts=7", "powerlaw:n=4000", "random:n=3000,deg=9,seed=4",
                          "lap3d7:n=30", "lap3d27:n=16", "elast3d:n=14", "powerlaw:n=30000,seed=5",
                          "hubrow:n=20000,deg=6,seed=3", "disconnected:n=20000,parts=11,deg=3",
                          "random:n=40000,deg=12,seed=9", "lap2d5:n=150"})
      specs.push_back(s);
  }
  for (std::size_t k = 0; k < specs.size() && !give_up(); ++k) {
    const Csr g = pgk::gen::generate(pgk::gen::parse_spec(specs[k]));
    test_graph(g, specs[k], static_cast<int>(k), small, small ? 1 : 3, t);
    std::fflush(stdout);
  }
  test_errors(t);
  std::printf("device runs %d (large-row batches %llu, histogram passes %llu, empty batches %llu, rediscovered "
              "before/after sort %llu/%llu, overhangs %llu, small-ring overflows %d)\n",
              t.runs, (unsigned long long)t.big, (unsigned long long)t.passes, (unsigned long long)t.empty,
              (unsigned long long)t.before_sort, (unsigned long long)t.after_sort, (unsigned long long)t.forwarding,
              t.overflows);
  std::printf("kernel_rcm: %d graphs, %d mismatches, %d errors\n", t.graphs, t.mismatches, t.errors);
  return t.mismatches || t.errors ? 1 : 0;
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int run_timing(const std::vector<std::string> &specs, int batch_nodes) {
  int bad = 0;
  for (const std::string &spec : specs) {
    const Csr g = pgk::gen::generate(pgk::gen::parse_spec(spec));
    const pgk::CsrView hv = pgk::view_of(g);
    // Serial reference: best of two runs (the first pays for page faults).
    rcm::Stats sst, s2;
    double t0 = now();
    const std::vector<Index> ref = rcm::serial_rcm(hv, {}, &sst);
    double serial = now() - t0;
    t0 = now();
    (void)rcm::serial_rcm(hv, {}, &s2);
    if (now() - t0 < serial) {
      serial = now() - t0;
      sst = s2;
    }
    DeviceGraph dg(g);
    rcm::Options o;
    if (batch_nodes > 0) o.gpu.batch_nodes = batch_nodes;
    std::vector<Index> got;
    pgk::cuda::RcmGpuInfo info;
    rcm::Stats st;
    got = pgk::cuda::rcm_gpu(dg.view, o, nullptr, &st, &info); // warm-up (module load, pools)
    double best = 1e30, sum = 0;
    const int reps = 5;
    for (int r = 0; r < reps; ++r) {
      t0 = now();
      got = pgk::cuda::rcm_gpu(dg.view, o, nullptr, &st, &info);
      const double dt = now() - t0;
      best = std::min(best, dt);
      sum += dt;
    }
    const bool same = got == ref;
    bad += !same;
    std::printf("TIME %s B=%d: n=%lld nnz=%lld serial %.1f ms (start %.1f + order %.1f) | gpu end-to-end mean %.1f ms best "
                "%.1f ms (plan %.1f ms, %d rounds, %d levels; order %.1f ms, %d blocks, %llu batches, %llu empty) | "
                "speedup %.1fx | %s\n",
                spec.c_str(), o.gpu.batch_nodes, (long long)g.nrows, (long long)g.nnz(), serial * 1e3, sst.start_node_seconds * 1e3,
                sst.ordering_seconds * 1e3, sum / reps * 1e3, best * 1e3, info.plan_ms, info.peripheral_rounds,
                info.bfs_levels, info.order_ms, info.blocks, (unsigned long long)st.batches_executed,
                (unsigned long long)info.empty_batches, serial / (sum / reps), same ? "identical" : "MISMATCH");
    std::fflush(stdout);
  }
  return bad ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  bool small = false;
  int batch_nodes = 0;
  std::vector<std::string> timing;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--small")) small = true;
    else if (!std::strcmp(argv[i], "--nodes") && i + 1 < argc) batch_nodes = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--time")) {
      while (i + 1 < argc) timing.push_back(argv[++i]);
    } else {
      std::printf("usage: %s [--small] [--nodes B] [--time SPEC...]\n", argv[0]);
      return 2;
    }
  }
  try {
    if (!timing.empty()) return run_timing(timing, batch_nodes);
    return run_suite(small);
  } catch (const std::exception &e) {
    std::printf("kernel_rcm: fatal: %s\n", e.what());
    return 1;
  }
}

// The part every host RCM entry point shares: when the input is not known to be symmetric,
// check it and symmetrize only if the check fails; plan the components (roots); run a core
// ordering from those roots; record the time of each phase. The core fills the rest of Stats
// (its own ordering time, counts).
#pragma once

#include <chrono>
#include <utility>
#include <vector>

#include "src/batchrcm/rcm.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/batchrcm/symmetrize.hpp"
#include "src/common/thread_pool.hpp"

namespace pgk::rcm {

// The graph every host entry point orders: g itself when it is known symmetric or checks
// symmetric (sorted rows: it is its own pattern(A + A^T), array for array), else pattern(A + A^T)
// built into `storage` on the pool's threads. `symmetrized` says which.
inline CsrView symmetric_graph(const CsrView &g, const Options &opts, ThreadPool &pool, Csr &storage,
                               bool &symmetrized) {
  symmetrized = false;
  if (opts.input_is_symmetric) return g;
  if (is_sorted_symmetric_pattern(g, &pool)) return g;
  storage = symmetrize_pattern_parallel(g, pool);
  symmetrized = true;
  return view_of(storage);
}

// core(graph, roots) -> std::vector<Index>; `stats` may be null; `threads` parallelizes the
// symmetry check, the symmetrization and the start-node search (see plan_components).
template <class Core>
std::vector<Index> order_with_plan(const CsrView &g, const Options &opts, Stats *stats, Core &&core, int threads = 1) {
  using clock = std::chrono::steady_clock;
  const auto seconds = [](clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  const auto t0 = clock::now();
  Csr sym;
  bool symmetrized = false;
  CsrView graph = g;
  if (!opts.input_is_symmetric) {
    ThreadPool pool(threads > 0 ? threads : 1);
    graph = symmetric_graph(g, opts, pool, sym, symmetrized);
  }
  const auto t1 = clock::now();
  const ComponentPlan plan = plan_components(graph, opts, threads);
  const auto t2 = clock::now();
  std::vector<Index> perm = std::forward<Core>(core)(graph, plan.roots);
  if (stats) {
    stats->symmetrize_seconds = opts.input_is_symmetric ? 0.0 : seconds(t0, t1);
    stats->pattern_symmetrized = symmetrized;
    stats->start_node_seconds = seconds(t1, t2);
    stats->components = static_cast<Index>(plan.roots.size());
  }
  return perm;
}

} // namespace pgk::rcm

// The part every host RCM entry point shares: symmetrize when the input is not known to be
// symmetric, plan the components (roots), run a core ordering from those roots, and record
// the time of each phase. The core fills the rest of Stats (its own ordering time, counts).
#pragma once

#include <chrono>
#include <utility>
#include <vector>

#include "src/batchrcm/rcm.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/batchrcm/symmetrize.hpp"

namespace pgk::rcm {

// core(graph, roots) -> std::vector<Index>; `stats` may be null; `threads` parallelizes the
// start-node search (see plan_components).
template <class Core>
std::vector<Index> order_with_plan(const CsrView &g, const Options &opts, Stats *stats, Core &&core, int threads = 1) {
  using clock = std::chrono::steady_clock;
  const auto seconds = [](clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  const auto t0 = clock::now();
  Csr sym;
  CsrView graph = g;
  if (!opts.input_is_symmetric) {
    sym = symmetrize_pattern(g);
    graph = view_of(sym);
  }
  const auto t1 = clock::now();
  const ComponentPlan plan = plan_components(graph, opts, threads);
  const auto t2 = clock::now();
  std::vector<Index> perm = std::forward<Core>(core)(graph, plan.roots);
  if (stats) {
    stats->symmetrize_seconds = opts.input_is_symmetric ? 0.0 : seconds(t0, t1);
    stats->start_node_seconds = seconds(t1, t2);
    stats->components = static_cast<Index>(plan.roots.size());
  }
  return perm;
}

} // namespace pgk::rcm

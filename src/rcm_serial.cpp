#include "rcm_serial.hpp"

#include "rcm_children_sort.hpp"
#include "rcm_start_node.hpp"
#include "rcm_symmetrize.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace pgk::rcm {

std::vector<Index> serial_rcm_from_roots(const CsrView &g, const std::vector<Index> &roots,
                                         bool count_diagonal_in_valence) {
  validate_graph(g);
  const Index n = g.nrows;
  const std::vector<Index> valence = compute_valence(g, count_diagonal_in_valence);
  std::vector<Index> perm(static_cast<std::size_t>(n));
  std::vector<char> visited(static_cast<std::size_t>(n), 0);
  const auto by_valence = [&](Index x) { return valence[static_cast<std::size_t>(x)]; };

  // perm doubles as the BFS queue: [head, tail) are ordered vertices whose children are
  // not yet collected.
  Index tail = 0;
  for (const Index root : roots) {
    if (root < 0 || root >= n)
      throw std::invalid_argument("rcm: root " + std::to_string(root) + " is out of range");
    if (visited[static_cast<std::size_t>(root)])
      throw std::invalid_argument("rcm: root " + std::to_string(root) +
                                  " lies in a component that is already ordered");
    const Index begin = tail;
    visited[static_cast<std::size_t>(root)] = 1;
    perm[static_cast<std::size_t>(tail++)] = root;
    for (Index head = begin; head < tail; ++head) {
      const Index p = perm[static_cast<std::size_t>(head)];
      const Index first = tail;
      for (Index e = g.rowptr[p]; e < g.rowptr[p + 1]; ++e) {
        const Index c = g.colidx[e];
        if (visited[static_cast<std::size_t>(c)]) continue;
        visited[static_cast<std::size_t>(c)] = 1;
        perm[static_cast<std::size_t>(tail++)] = c;
      }
      detail::stable_sort_by_key(perm.begin() + first, perm.begin() + tail, by_valence);
    }
    std::reverse(perm.begin() + begin, perm.begin() + tail); // per-component reversal
  }
  if (tail != n)
    throw std::invalid_argument("rcm: the roots reach " + std::to_string(tail) + " of " +
                                std::to_string(n) + " vertices");
  return perm;
}

std::vector<Index> serial_rcm(const CsrView &g, const Options &opts, Stats *stats) {
  using clock = std::chrono::steady_clock;
  const auto seconds = [](clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  auto t0 = clock::now();
  Csr sym;
  CsrView graph = g;
  if (!opts.input_is_symmetric) {
    sym = symmetrize_pattern(g);
    graph = view_of(sym);
  }
  const auto t1 = clock::now();
  const ComponentPlan plan = plan_components(graph, opts);
  const auto t2 = clock::now();
  std::vector<Index> perm = serial_rcm_from_roots(graph, plan.roots, opts.count_diagonal_in_valence);
  const auto t3 = clock::now();
  if (stats) {
    *stats = Stats{};
    stats->symmetrize_seconds = opts.input_is_symmetric ? 0.0 : seconds(t0, t1);
    stats->start_node_seconds = seconds(t1, t2);
    stats->ordering_seconds = seconds(t2, t3);
    stats->components = static_cast<Index>(plan.roots.size());
    stats->threads = 1;
  }
  return perm;
}

} // namespace pgk::rcm

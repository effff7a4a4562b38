#include "src/batchrcm/serial.hpp"

#include "src/batchrcm/driver.hpp"

#include "src/batchrcm/children_sort.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/batchrcm/symmetrize.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace pgk::rcm {

std::vector<Index> serial_rcm_from_roots(const CsrView &g, const std::vector<Index> &roots, const Options &opts) {
  validate_graph(g);
  const Index n = g.nrows;
  const std::vector<Index> valence = compute_valence(g, opts.count_diagonal_in_valence);
  std::vector<Index> perm(static_cast<std::size_t>(n));
  std::vector<char> visited(static_cast<std::size_t>(n), 0);
  const auto by_valence = [&](Index x) { return valence[static_cast<std::size_t>(x)]; };

  // perm doubles as the BFS queue: [head, tail) are ordered vertices whose children are
  // not yet collected.
  Index tail = 0;
  for (const Index root : roots) {
    if (root < 0 || root >= n) throw std::invalid_argument("rcm: root " + std::to_string(root) + " is out of range");
    if (visited[static_cast<std::size_t>(root)])
      throw std::invalid_argument("rcm: root " + std::to_string(root) + " lies in a component that is already ordered");
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
    throw std::invalid_argument("rcm: the roots reach " + std::to_string(tail) + " of " + std::to_string(n) +
                                " vertices");
  return perm;
}

std::vector<Index> serial_rcm(const CsrView &g, const Options &opts, Stats *stats) {
  if (stats) *stats = Stats{};
  return order_with_plan(g, opts, stats, [&](const CsrView &graph, const std::vector<Index> &roots) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Index> perm = serial_rcm_from_roots(graph, roots, opts);
    if (stats) {
      stats->ordering_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      stats->threads = 1;
    }
    return perm;
  });
}

} // namespace pgk::rcm

#include "src/trilf/paths.hpp"

#include "src/trilf/weights.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

namespace pgk::trilf {
namespace {

// Valid symmetric factor with 2 slots per vertex: neighbours in range, not v itself,
// distinct, and v listed by each of them.
void check_symmetric(const std::vector<Index> &nbr, Index nv, const char *what) {
  for (Index v = 0; v < nv; ++v) {
    const Index a = nbr[2 * static_cast<std::size_t>(v)];
    const Index b = nbr[2 * static_cast<std::size_t>(v) + 1];
    for (const Index j : {a, b}) {
      if (j < 0) continue;
      if (j >= nv || j == v)
        throw std::invalid_argument(std::string(what) + ": bad neighbour of vertex " + std::to_string(v));
      if (nbr[2 * static_cast<std::size_t>(j)] != v && nbr[2 * static_cast<std::size_t>(j) + 1] != v)
        throw std::invalid_argument(std::string(what) + ": edge (" + std::to_string(v) + ", " + std::to_string(j) +
                                    ") is not symmetric");
    }
    if (a >= 0 && a == b) throw std::invalid_argument(std::string(what) + ": repeated neighbour");
  }
}

inline Index deg2(const std::vector<Index> &nbr, Index v) {
  return (nbr[2 * static_cast<std::size_t>(v)] >= 0) + (nbr[2 * static_cast<std::size_t>(v) + 1] >= 0);
}

// The neighbour of v other than `from` (-1 for none). Works for from == -1 (first slot).
inline Index other(const std::vector<Index> &nbr, Index v, Index from) {
  const Index a = nbr[2 * static_cast<std::size_t>(v)];
  const Index b = nbr[2 * static_cast<std::size_t>(v) + 1];
  if (a >= 0 && a != from) return a;
  if (b >= 0 && b != from) return b;
  return -1;
}

void drop(std::vector<Index> &nbr, Index v, Index j) {
  Index *s = nbr.data() + 2 * static_cast<std::size_t>(v);
  if (s[0] == j) {
    s[0] = s[1];
    s[1] = -1;
  } else if (s[1] == j) {
    s[1] = -1;
  }
}

} // namespace

Index LinearForest::edges() const {
  Index twice = 0;
  for (const Index j : nbr) twice += j >= 0;
  return twice / 2;
}

LinearForest break_cycles(const Factor &f, const CsrView &w) {
  if (f.n != 2) throw std::invalid_argument("trilf break_cycles: factor must have n = 2");
  const Index nv = f.nvertices;
  if (w.nrows != nv || f.nbr.size() != 2 * static_cast<std::size_t>(nv))
    throw std::invalid_argument("trilf break_cycles: sizes differ");
  check_symmetric(f.nbr, nv, "trilf break_cycles");
  LinearForest out;
  out.nbr = f.nbr;
  std::vector<char> seen(static_cast<std::size_t>(nv), 0);
  // Paths first: every vertex reachable from an end (degree <= 1) is not on a cycle.
  for (Index v = 0; v < nv; ++v) {
    if (seen[static_cast<std::size_t>(v)] || deg2(out.nbr, v) > 1) continue;
    for (Index prev = -1, cur = v; cur >= 0;) {
      seen[static_cast<std::size_t>(cur)] = 1;
      const Index next = other(out.nbr, cur, prev);
      prev = cur;
      cur = next;
    }
  }
  // What is left has degree 2 everywhere: disjoint cycles (length >= 3: no multi-edges).
  for (Index v = 0; v < nv; ++v) {
    if (seen[static_cast<std::size_t>(v)]) continue;
    auto key = [&](Index a, Index b) { return std::make_tuple(edge_weight(w, a, b), std::min(a, b), std::max(a, b)); };
    auto best = key(v, other(out.nbr, v, -1));
    Index prev = -1, cur = v;
    do {
      seen[static_cast<std::size_t>(cur)] = 1;
      const Index next = other(out.nbr, cur, prev);
      best = std::min(best, key(cur, next));
      prev = cur;
      cur = next;
    } while (cur != v);
    const Index a = std::get<1>(best), b = std::get<2>(best);
    drop(out.nbr, a, b);
    drop(out.nbr, b, a);
    ++out.cycles_broken;
  }
  return out;
}

PathOrder order_paths(const LinearForest &forest) {
  const Index nv = forest.nvertices();
  check_symmetric(forest.nbr, nv, "trilf order_paths");
  PathOrder o;
  o.perm.reserve(static_cast<std::size_t>(nv));
  o.iperm.assign(static_cast<std::size_t>(nv), -1);
  o.path_start.push_back(0);
  // Ascending v: the first end met of each path is its smaller end, i.e. its ID, and paths
  // appear in ascending ID order; walking from there numbers positions from that end.
  for (Index v = 0; v < nv; ++v) {
    if (o.iperm[static_cast<std::size_t>(v)] >= 0 || deg2(forest.nbr, v) > 1) continue;
    for (Index prev = -1, cur = v; cur >= 0;) {
      o.iperm[static_cast<std::size_t>(cur)] = static_cast<Index>(o.perm.size());
      o.perm.push_back(cur);
      const Index next = other(forest.nbr, cur, prev);
      prev = cur;
      cur = next;
    }
    const Index len = static_cast<Index>(o.perm.size()) - o.path_start.back();
    o.longest = std::max(o.longest, len);
    o.path_start.push_back(static_cast<Index>(o.perm.size()));
  }
  if (static_cast<Index>(o.perm.size()) != nv)
    throw std::invalid_argument("trilf order_paths: the forest contains a cycle");
  return o;
}

LinearForest extract_linear_forest(const CsrView &a, const FactorOptions &opt, ForestStats *stats) {
  if (opt.max_degree != 2) throw std::invalid_argument("trilf extract_linear_forest: max_degree must be 2");
  const Csr w = weight_graph(a, opt.weight);
  const Factor f = parallel_factor(view_of(w), opt);
  LinearForest forest = break_cycles(f, view_of(w));
  if (stats) {
    stats->rounds_run = f.rounds_run;
    stats->maximal = f.maximal;
    stats->factor_edges = f.edges();
    stats->cycles_broken = forest.cycles_broken;
    stats->forest_edges = forest.edges();
  }
  return forest;
}

} // namespace pgk::trilf

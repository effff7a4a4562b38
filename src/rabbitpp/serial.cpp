#include "src/rabbitpp/serial.hpp"

#include <algorithm>
#include <chrono>

#include "src/rabbitpp/dendrogram.hpp"
#include "src/rabbitpp/graph.hpp"
#include "src/rabbitpp/regroup.hpp"

namespace pgk::rabbitpp {
namespace {

struct Entry {
  Index to;
  std::int64_t w;
};

// Root of x's community, compressing the path behind it (roots do not change).
Index find_root(std::vector<Index> &parent, Index x) {
  Index r = x;
  while (parent[r] >= 0) r = parent[r];
  while (parent[x] >= 0 && parent[x] != r) {
    const Index next = parent[x];
    parent[x] = r;
    x = next;
  }
  return r;
}

// L(v): v's own edges and the lists of the vertices merged into it, mapped to community roots,
// internal entries dropped, equal roots summed, sorted by root. The children's lists are spent.
std::vector<Entry> aggregate(const Graph &g, Index v, std::vector<Index> &parent, const std::vector<Index> &first_child,
                             const std::vector<Index> &next_sibling, std::vector<std::vector<Entry>> &lists) {
  std::vector<Entry> in;
  for (Index e = g.rowptr[v]; e < g.rowptr[v + 1]; ++e) in.push_back({find_root(parent, g.colidx[e]), g.weight[e]});
  for (Index c = first_child[v]; c >= 0; c = next_sibling[c]) {
    for (const Entry &x : lists[c]) in.push_back({find_root(parent, x.to), x.w});
    std::vector<Entry>().swap(lists[c]);
  }
  in.erase(std::remove_if(in.begin(), in.end(), [v](const Entry &x) { return x.to == v; }), in.end());
  std::sort(in.begin(), in.end(), [](const Entry &x, const Entry &y) { return x.to < y.to; });
  std::vector<Entry> out;
  for (const Entry &x : in) {
    if (!out.empty() && out.back().to == x.to) out.back().w += x.w;
    else out.push_back(x);
  }
  return out;
}

// The neighbour community of largest gain w * total - str(v) * str(u) (> 0), ties to the
// smallest root; -1 if no gain is positive. `list` is sorted by root.
Index best_target(const std::vector<Entry> &list, std::int64_t str_v, const std::vector<std::int64_t> &strength,
                  std::int64_t total) {
  Index best = -1;
  std::int64_t best_gain = 0;
  for (const Entry &x : list) {
    const std::int64_t gain = x.w * total - str_v * strength[x.to];
    if (gain > best_gain) best_gain = gain, best = x.to;
  }
  return best;
}

} // namespace

Dendrogram detect_communities_serial(const Graph &g) {
  const Index n = g.n;
  Dendrogram d;
  d.order = processing_order(g);
  d.pos.assign(static_cast<std::size_t>(n), 0);
  for (Index p = 0; p < n; ++p) d.pos[d.order[p]] = p;
  d.parent.assign(static_cast<std::size_t>(n), -1);
  d.round.assign(static_cast<std::size_t>(n), 0);
  std::vector<Index> root_of(static_cast<std::size_t>(n), -1); // union-find parents (compressed)
  std::vector<Index> first_child(static_cast<std::size_t>(n), -1), next_sibling(static_cast<std::size_t>(n), -1);
  std::vector<std::int64_t> strength = g.strength;
  std::vector<std::vector<Entry>> lists(static_cast<std::size_t>(n));
  for (Index p = 0; p < n; ++p) {
    const Index v = d.order[p];
    lists[v] = aggregate(g, v, root_of, first_child, next_sibling, lists);
    const Index t = best_target(lists[v], strength[v], strength, g.total);
    d.round[v] = p;
    if (t < 0) {
      std::vector<Entry>().swap(lists[v]); // a top is never aggregated again
      continue;
    }
    d.parent[v] = root_of[v] = t;
    strength[t] += strength[v];
    next_sibling[v] = first_child[t];
    first_child[t] = v;
  }
  d.rounds = n;
  return d;
}

std::vector<Index> rabbitpp_serial(const CsrView &a, const Options &opt, Info *info) {
  using clock = std::chrono::steady_clock;
  const auto seconds = [](clock::time_point x, clock::time_point y) {
    return std::chrono::duration<double>(y - x).count();
  };
  check_regroup_options(opt);
  const auto t0 = clock::now();
  const Graph g = build_graph(a);
  const auto t1 = clock::now();
  const Dendrogram d = detect_communities_serial(g);
  const auto t2 = clock::now();
  const std::vector<Index> rabbit = rabbit_permutation(d);
  const auto t3 = clock::now();
  const std::vector<Index> com = community_of(d);
  bool regrouped = false;
  if (opt.regroup) {
    LengthTally lengths = tally_row_lengths(a, 0, a.nrows);
    regrouped = entries_in_longest(lengths, longest_tenth(a.nrows)) >=
                regroup_min_entries(a.rowptr[a.nrows], opt.min_skew); // the skew gate
  }
  std::vector<Index> perm = regrouped ? regroup(a, g, com, rabbit, opt) : rabbit;
  const auto t4 = clock::now();
  if (info) {
    *info = figures(a, g, com, d, opt.hub_factor);
    info->regrouped = regrouped;
    info->seconds_graph = seconds(t0, t1);
    info->seconds_communities = seconds(t1, t2);
    info->seconds_order = seconds(t2, t3);
    info->seconds_regroup = seconds(t3, t4);
  }
  return perm;
}

} // namespace pgk::rabbitpp

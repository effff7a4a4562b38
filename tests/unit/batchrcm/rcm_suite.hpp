// The random graph suite of the RCM unit tests: nine families (random, trees, grids with holes,
// preferential attachment, hubs, disconnected pieces, complete graphs, paths, tiny graphs) with
// randomly stored diagonals, shuffled rows (the tie rule reads row positions) and duplicates.
// Deterministic (splitmix64, no std distributions), so every platform builds the same graphs.
#pragma once

#include "src/common/csr.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace rcm_suite {

using pgk::Csr;
using pgk::Index;

struct SplitMix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  Index below(Index n) { return n <= 0 ? 0 : static_cast<Index>(next() % static_cast<std::uint64_t>(n)); }
  bool chance(unsigned percent) { return next() % 100 < percent; }
};

using Edges = std::vector<std::pair<Index, Index>>;

struct BuildFlags {
  unsigned diagonal_percent = 0; // share of vertices with a stored diagonal
  bool shuffle_rows = false;     // rows in random order (the tie rule uses row position)
  bool duplicates = false;       // repeat some entries
};

// Symmetric CSR from an undirected edge list.
inline Csr make_graph(Index n, const Edges &edges, SplitMix &rng, BuildFlags f = {}) {
  std::vector<std::vector<Index>> rows(static_cast<std::size_t>(n));
  for (auto [a, b] : edges) {
    if (a == b) continue;
    rows[a].push_back(b);
    rows[b].push_back(a);
  }
  for (Index i = 0; i < n; ++i)
    if (f.diagonal_percent && rng.chance(f.diagonal_percent)) rows[i].push_back(i);
  Csr g;
  g.nrows = g.ncols = n;
  g.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (Index i = 0; i < n; ++i) {
    auto &r = rows[i];
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    if (f.duplicates && !r.empty() && rng.chance(30)) r.push_back(r[rng.below(static_cast<Index>(r.size()))]);
    if (f.shuffle_rows)
      for (std::size_t k = r.size(); k > 1; --k) std::swap(r[k - 1], r[rng.below(static_cast<Index>(k))]);
    g.colidx.insert(g.colidx.end(), r.begin(), r.end());
    g.rowptr[i + 1] = static_cast<Index>(g.colidx.size());
  }
  return g;
}

inline Csr from_rows(const std::vector<std::vector<Index>> &rows) {
  Csr g;
  g.nrows = g.ncols = static_cast<Index>(rows.size());
  g.rowptr.assign(rows.size() + 1, 0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    g.colidx.insert(g.colidx.end(), rows[i].begin(), rows[i].end());
    g.rowptr[i + 1] = static_cast<Index>(g.colidx.size());
  }
  return g;
}

inline std::vector<Index> random_permutation(Index n, SplitMix &rng) {
  std::vector<Index> p(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) p[i] = i;
  for (Index k = n; k > 1; --k) std::swap(p[k - 1], p[rng.below(k)]);
  return p;
}

inline void relabel(Edges &e, const std::vector<Index> &p) {
  for (auto &[a, b] : e) {
    a = p[a];
    b = p[b];
  }
}

inline Edges random_edges(Index n, Index m, SplitMix &rng) {
  Edges e;
  for (Index k = 0; k < m && n > 1; ++k) e.push_back({rng.below(n), rng.below(n)});
  return e;
}

// Preferential attachment: new vertices link to endpoints of existing edges, giving hubs and a
// power-law-like degree tail.
inline Edges preferential(Index n, Index links, SplitMix &rng) {
  Edges e;
  for (Index v = 1; v < n; ++v)
    for (Index k = 0; k < links; ++k) {
      Index t = e.empty() || rng.chance(20) ? rng.below(v)
                                            : (rng.chance(50) ? e[rng.below(static_cast<Index>(e.size()))].first
                                                              : e[rng.below(static_cast<Index>(e.size()))].second);
      if (t >= v) t = rng.below(v);
      e.push_back({v, t});
    }
  return e;
}

inline Edges hubs(Index n, Index nhubs, SplitMix &rng) {
  Edges e = random_edges(n, n / 2, rng);
  for (Index h = 0; h < nhubs && h < n; ++h) {
    const unsigned share = 20 + static_cast<unsigned>(rng.below(80));
    for (Index v = 0; v < n; ++v)
      if (v != h && rng.chance(share)) e.push_back({h, v});
  }
  return e;
}

inline Edges grid(Index w, Index h, unsigned drop_percent, SplitMix &rng) {
  Edges e;
  for (Index y = 0; y < h; ++y)
    for (Index x = 0; x < w; ++x) {
      const Index v = y * w + x;
      if (x + 1 < w && !rng.chance(drop_percent)) e.push_back({v, v + 1});
      if (y + 1 < h && !rng.chance(drop_percent)) e.push_back({v, v + w});
    }
  return e;
}

inline Edges random_tree(Index n, SplitMix &rng) {
  Edges e;
  for (Index v = 1; v < n; ++v) e.push_back({v, rng.below(v)});
  return e;
}

inline Edges complete(Index n) {
  Edges e;
  for (Index a = 0; a < n; ++a)
    for (Index b = a + 1; b < n; ++b) e.push_back({a, b});
  return e;
}

// Graph number `id` of the random suite: the family cycles, sizes and flags vary.
inline Csr suite_graph(int id) {
  SplitMix rng{0x5eed0000ull + static_cast<std::uint64_t>(id) * 7919u};
  const int family = id % 9;
  Index n = 0;
  Edges e;
  switch (family) {
  case 0: // sparse random, often disconnected, isolated vertices
    n = rng.below(300);
    e = random_edges(n, n * (1 + rng.below(6)) / 2, rng);
    break;
  case 1: // power-law-ish
    n = 2 + rng.below(400);
    e = preferential(n, 1 + rng.below(3), rng);
    break;
  case 2: // star / hub rows
    n = 2 + rng.below(250);
    e = hubs(n, 1 + rng.below(3), rng);
    break;
  case 3: { // mesh-like, a few holes
    const Index w = 1 + rng.below(25), h = 1 + rng.below(25);
    n = w * h;
    e = grid(w, h, static_cast<unsigned>(rng.below(12)), rng);
    break;
  }
  case 4: // trees: long chains of equal valences, many ties
    n = 1 + rng.below(300);
    e = random_tree(n, rng);
    break;
  case 5: { // union of components of mixed kinds plus isolated vertices
    const int parts = 2 + static_cast<int>(rng.below(6));
    for (int p = 0; p < parts; ++p) {
      const Index m = 1 + rng.below(60);
      Edges part;
      switch (rng.below(4)) {
      case 0: part = random_tree(m, rng); break;
      case 1: part = preferential(m, 2, rng); break;
      case 2: part = complete(std::min<Index>(m, 12)); break;
      default: part = grid(m, 2, 0, rng); break;
      }
      Index used = 0;
      for (auto &[a, b] : part) used = std::max({used, a + 1, b + 1});
      used = std::max<Index>(used, 1);
      for (auto &[a, b] : part) e.push_back({a + n, b + n});
      n += used;
    }
    n += rng.below(20); // isolated vertices
    break;
  }
  case 6: // small dense
    n = 1 + rng.below(40);
    e = complete(n);
    if (n > 2) e.erase(std::remove_if(e.begin(), e.end(), [&](auto &) { return rng.chance(30); }), e.end());
    break;
  case 7: // path or cycle
    n = 1 + rng.below(200);
    for (Index v = 0; v + 1 < n; ++v) e.push_back({v, v + 1});
    if (n > 2 && rng.chance(50)) e.push_back({n - 1, 0});
    break;
  default: // tiny graphs: n = 0, 1, 2, 3 with every edge choice
    n = static_cast<Index>(id / 9 % 4);
    if (n >= 2 && rng.chance(60)) e.push_back({0, 1});
    if (n == 3 && rng.chance(60)) e.push_back({1, 2});
    break;
  }
  relabel(e, random_permutation(n, rng)); // scatter components and hubs over the ids
  BuildFlags f;
  f.diagonal_percent = static_cast<unsigned>(rng.below(3)) * 50; // none, half, all
  f.shuffle_rows = rng.chance(40);
  f.duplicates = rng.chance(15);
  return make_graph(n, e, rng, f);
}

// Generator specs (src/matgen) every host RCM path is checked on, besides the random suite: meshes,
// random and power-law graphs, hubs, disconnected pieces, a path, empty and 1-vertex graphs.
inline const char *const kCorpusSpecs[] = {"lap3d7:n=14",
                                           "lap2d5:nx=60,ny=9",
                                           "elast3d:n=5",
                                           "random:n=3000,deg=4,seed=5",
                                           "random:n=2000,deg=1,seed=2",
                                           "disconnected:n=2500,parts=11",
                                           "hubrow:n=3000",
                                           "powerlaw:n=6000,communities=9",
                                           "rgg2d:n=5000,deg=6",
                                           "path:n=300",
                                           "empty:n=7",
                                           "empty:n=0",
                                           "lap2d5:nx=1,ny=1"};

inline constexpr int kSuiteSize = 243; // 27 rounds of the 9 families

} // namespace rcm_suite

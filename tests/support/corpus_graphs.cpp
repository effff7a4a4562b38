// Builders of the corpus matrices that no generator spec names (corpus_graphs.hpp). The RCM
// suite and the trilf matrices are those the device test programs built before they became
// GTest files, unchanged (same random streams, so the same matrices).
#include "tests/support/corpus_graphs.hpp"

#include "src/common/csr_build.hpp"
#include "src/common/rng.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace pgk::test::graphs {

// ---- the batch RCM random suite -----------------------------------------------------------

namespace {

using Edges = std::vector<std::pair<Index, Index>>;

struct Flags {
  unsigned diagonal_percent = 0; // vertices with a stored diagonal
  bool shuffle_rows = false;     // rows in random order: ties follow row position
  bool duplicates = false;       // some entries twice
};

Csr build(Index n, const Edges &edges, SplitMix64 &rng, Flags f) {
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
    if (f.shuffle_rows) shuffle(r, rng);
    g.colidx.insert(g.colidx.end(), r.begin(), r.end());
    g.rowptr[i + 1] = static_cast<Index>(g.colidx.size());
  }
  return g;
}

Index below(SplitMix64 &rng, Index n) {
  return n <= 0 ? 0 : static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(n)));
}

Edges random_edges(Index n, Index m, SplitMix64 &rng) {
  Edges e;
  for (Index k = 0; k < m && n > 1; ++k) e.push_back({below(rng, n), below(rng, n)});
  return e;
}

// New vertices attach to endpoints of earlier edges: hubs and a heavy degree tail.
Edges attach(Index n, Index links, SplitMix64 &rng) {
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

Edges grid(Index w, Index h, unsigned holes_percent, SplitMix64 &rng) {
  Edges e;
  for (Index y = 0; y < h; ++y)
    for (Index x = 0; x < w; ++x) {
      const Index v = y * w + x;
      if (x + 1 < w && rng.bounded(100) >= holes_percent) e.push_back({v, v + 1});
      if (y + 1 < h && rng.bounded(100) >= holes_percent) e.push_back({v, v + w});
    }
  return e;
}

Edges tree(Index n, SplitMix64 &rng) {
  Edges e;
  for (Index v = 1; v < n; ++v) e.push_back({v, below(rng, v)});
  return e;
}

Edges hubs(Index n, SplitMix64 &rng) {
  Edges e = random_edges(n, n / 2, rng);
  const Index nhubs = 1 + below(rng, 3);
  for (Index h = 0; h < nhubs; ++h) {
    const unsigned share = 40 + static_cast<unsigned>(rng.bounded(60));
    for (Index v = 0; v < n; ++v)
      if (v != h && rng.bounded(100) < share) e.push_back({h, v});
  }
  // spread the valences of the hub's children so the histogram has work
  for (Index v = nhubs; v < n; ++v)
    for (Index k = below(rng, 1 + v % 9); k > 0; --k) e.push_back({v, below(rng, n)});
  return e;
}

// Many components of mixed kinds plus isolated vertices.
Edges components(Index &n, SplitMix64 &rng) {
  Edges e;
  const int parts = 2 + static_cast<int>(rng.bounded(8));
  for (int p = 0; p < parts; ++p) {
    const Index m = 1 + below(rng, 80);
    Edges part = rng.bounded(2) ? tree(m, rng) : attach(m, 2, rng);
    for (auto &[a, b] : part) e.push_back({a + n, b + n});
    n += m;
  }
  n += below(rng, 30);
  return e;
}

// The edges of suite graph `id` (family id % 10) and its vertex count.
Edges suite_edges(int id, bool small, SplitMix64 &rng, Index &n, std::string &what) {
  Edges e;
  switch (id % 10) {
  case 0:
    n = below(rng, 400);
    what = "sparse random";
    return random_edges(n, n * (1 + below(rng, 6)) / 2, rng);
  case 1:
    n = 2 + below(rng, 600);
    what = "preferential attachment";
    return attach(n, 1 + below(rng, 4), rng);
  case 2: // hub rows; every fourth one longer than the default scratch (2048)
    n = id % 4 == 2 && !small ? 2100 + below(rng, 2500) : 2 + below(rng, 300);
    what = "hubs";
    return hubs(n, rng);
  case 3: {
    const Index w = 1 + below(rng, 40), h = 1 + below(rng, 40);
    n = w * h;
    what = "grid with holes";
    return grid(w, h, static_cast<unsigned>(rng.bounded(12)), rng);
  }
  case 4:
    n = 1 + below(rng, 500);
    what = "tree";
    return tree(n, rng);
  case 5:
    n = 0;
    what = "components";
    return components(n, rng);
  case 6: // small dense
    n = 1 + below(rng, 60);
    for (Index a = 0; a < n; ++a)
      for (Index b = a + 1; b < n; ++b)
        if (rng.bounded(100) < 70) e.push_back({a, b});
    what = "dense";
    return e;
  case 7:
    n = 1 + below(rng, 300);
    for (Index v = 0; v + 1 < n; ++v) e.push_back({v, v + 1});
    if (n > 2 && rng.bounded(2)) e.push_back({n - 1, 0});
    what = "path or cycle";
    return e;
  case 8: // larger random graphs: many concurrent batches
    n = small ? 600 : 2000 + below(rng, 6000);
    what = "larger random";
    return random_edges(n, n * (2 + below(rng, 5)), rng);
  default: // n = 0, 1, 2, 3 with every edge choice
    n = static_cast<Index>(id / 10 % 4);
    if (n >= 2 && rng.bounded(100) < 60) e.push_back({0, 1});
    if (n == 3 && rng.bounded(100) < 60) e.push_back({1, 2});
    what = "tiny";
    return e;
  }
}

} // namespace

Csr rcm_suite_graph(int id, bool small, std::string &what) {
  SplitMix64 rng(0x9c0ffee0ull + static_cast<std::uint64_t>(id) * 7919u);
  Index n = 0;
  Edges e = suite_edges(id, small, rng, n, what);
  std::vector<Index> relabel(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) relabel[i] = i;
  shuffle(relabel, rng); // scatter components and hubs over the ids
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

Csr rcm_error_graph() {
  SplitMix64 rng(7);
  const Edges e = random_edges(200, 400, rng);
  return build(200, e, rng, {});
}

Csr star_with_tail() {
  Edges s;
  for (Index v = 1; v < 3000; ++v) s.push_back({0, v});
  s.push_back({1, 3000});
  for (Index v = 3000; v + 1 < 3010; ++v) s.push_back({v, v + 1});
  SplitMix64 rng(7); // not drawn from: no flags
  return build(3010, s, rng, {});
}

// ---- trilf matrices -----------------------------------------------------------------------

namespace {

Csr from_entries(Index n, const std::set<std::pair<Index, Index>> &entries, const std::vector<double> &vals) {
  std::vector<Index> rows, cols;
  for (const auto &[i, j] : entries) {
    rows.push_back(i);
    cols.push_back(j);
  }
  return csr_from_coo(n, n, rows, cols, vals);
}

} // namespace

Csr random_matrix(Index n, int deg, std::uint64_t seed, bool sym_pattern, bool sym_values, int levels, double dominance,
                  int zero_diag) {
  SplitMix64 rng(seed);
  std::set<std::pair<Index, Index>> e;
  for (Index i = 0; i < n; ++i) {
    e.insert({i, i});
    for (int d = 0; d < deg && n > 1; ++d) {
      const Index j = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(n)));
      if (j == i) continue;
      e.insert({i, j});
      if (sym_pattern) e.insert({j, i});
    }
  }
  std::vector<double> vals;
  std::vector<double> rowsum(static_cast<std::size_t>(n), 0.0);
  for (const auto &[i, j] : e) {
    if (i == j) {
      vals.push_back(0);
      continue;
    }
    const std::uint64_t key =
        sym_values ? (static_cast<std::uint64_t>(std::min(i, j)) << 32) ^ static_cast<std::uint64_t>(std::max(i, j))
                   : (static_cast<std::uint64_t>(i) << 32) ^ static_cast<std::uint64_t>(j);
    SplitMix64 h(seed * 0x9E3779B97F4A7C15ull + key);
    const std::uint64_t u = h.next_u64();
    const double mag = levels > 0 ? static_cast<double>(1 + u % static_cast<std::uint64_t>(levels))
                                  : 0.05 + static_cast<double>(u >> 11) * 0x1.0p-53;
    vals.push_back((u >> 7) & 1 ? -mag : mag);
    rowsum[static_cast<std::size_t>(i)] += mag;
  }
  std::size_t at = 0;
  for (const auto &[i, j] : e) {
    if (i == j) {
      const bool zero = zero_diag > 0 && i % zero_diag == 0;
      vals[at] = zero ? 0.0 : (rng.next_u64() & 1 ? -1 : 1) * (dominance * rowsum[static_cast<std::size_t>(i)] + 1.0);
    }
    ++at;
  }
  return from_entries(n, e, vals);
}

Csr rings(const std::vector<Index> &lengths, std::uint64_t seed, int levels) {
  SplitMix64 rng(seed);
  Index n = 0;
  for (Index l : lengths) n += l;
  std::vector<std::pair<std::pair<Index, Index>, double>> w;
  Index base = 0;
  for (Index l : lengths) {
    for (Index k = 0; k < l; ++k) {
      const Index i = base + k, j = base + (k + 1) % l;
      const double v = levels > 0 ? -static_cast<double>(1 + rng.bounded(static_cast<std::uint64_t>(levels)))
                                  : -(0.1 + rng.uniform());
      w.push_back({{std::min(i, j), std::max(i, j)}, v});
    }
    base += l;
  }
  std::vector<Index> rows, cols;
  std::vector<double> vals;
  for (Index i = 0; i < n; ++i) {
    rows.push_back(i);
    cols.push_back(i);
    vals.push_back(10.0);
  }
  for (const auto &[p, v] : w) {
    rows.push_back(p.first);
    cols.push_back(p.second);
    vals.push_back(v);
    rows.push_back(p.second);
    cols.push_back(p.first);
    vals.push_back(v);
  }
  return csr_from_coo(n, n, rows, cols, vals);
}

Csr pivot_chain(Index n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<Index> rows, cols;
  std::vector<double> vals;
  const double choices[] = {0.0, 1.0, -1.0, 2.0, 1e-20, 1.0, 1.0};
  for (Index i = 0; i < n; ++i) {
    if (i > 0) {
      rows.push_back(i);
      cols.push_back(i - 1);
      vals.push_back(rng.bounded(2) ? 1.0 : -1.0);
    }
    rows.push_back(i);
    cols.push_back(i);
    vals.push_back(choices[rng.bounded(7)]);
    if (i + 1 < n) {
      rows.push_back(i);
      cols.push_back(i + 1);
      vals.push_back(rng.bounded(2) ? 1.0 : -1.0);
    }
  }
  return csr_from_coo(n, n, rows, cols, vals);
}

Csr singular_pairs(Index pairs) {
  std::vector<Index> rows, cols;
  std::vector<double> vals;
  auto add = [&](Index i, Index j, double v) {
    rows.push_back(i);
    cols.push_back(j);
    vals.push_back(v);
  };
  for (Index p = 0; p < pairs; ++p) {
    const Index i = 2 * p, j = 2 * p + 1;
    add(i, i, 1);
    add(i, j, 1);
    add(j, i, 1);
    add(j, j, 1);
    if (p + 1 < pairs) {
      add(j, j + 1, 0.25);
      add(j + 1, j, 0.25);
    }
  }
  return csr_from_coo(2 * pairs, 2 * pairs, rows, cols, vals);
}

Csr zero_diagonal_every(Csr a, Index every) {
  for (Index i = 0; i < a.nrows; i += every)
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e)
      if (a.colidx[e] == i) a.values[static_cast<std::size_t>(e)] = 0.0;
  return a;
}

Csr all_ones(Csr a) {
  std::fill(a.values.begin(), a.values.end(), 1.0);
  return a;
}

// ---- edge cases ---------------------------------------------------------------------------

namespace {

// The entries of a for which keep(i, j) holds (values follow).
template <class Keep> Csr filter(const Csr &a, Keep keep) {
  Csr b;
  b.nrows = a.nrows;
  b.ncols = a.ncols;
  b.rowptr.assign(1, 0);
  for (Index i = 0; i < a.nrows; ++i) {
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k)
      if (keep(i, a.colidx[k])) {
        b.colidx.push_back(a.colidx[k]);
        if (!a.values.empty()) b.values.push_back(a.values[k]);
      }
    b.rowptr.push_back(static_cast<Index>(b.colidx.size()));
  }
  return b;
}

} // namespace

Csr all_rows_empty(Index n) {
  Csr a;
  a.nrows = a.ncols = n;
  a.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  return a;
}

Csr without_vertices(const Csr &a, Index every, Index offset) {
  return filter(a, [&](Index i, Index j) { return i % every != offset && j % every != offset; });
}

Csr isolated_vertices(const Csr &a, Index every) {
  return filter(a, [&](Index i, Index j) { return i == j || (i % every != 0 && j % every != 0); });
}

Csr self_loops_only(Index n) {
  std::vector<Index> idx;
  std::vector<double> vals;
  for (Index i = 0; i < n; ++i) {
    idx.push_back(i);
    vals.push_back((i % 2 ? -1.0 : 1.0) * static_cast<double>(1 + i % 5));
  }
  return csr_from_coo(n, n, idx, idx, vals);
}

Csr star(Index n) {
  std::vector<Index> rows, cols;
  std::vector<double> vals;
  for (Index i = 0; i < n; ++i) {
    rows.push_back(i);
    cols.push_back(i);
    vals.push_back(i == 0 ? static_cast<double>(n) : 2.0);
    if (i > 0) {
      rows.push_back(0);
      cols.push_back(i);
      vals.push_back(-1.0);
      rows.push_back(i);
      cols.push_back(0);
      vals.push_back(-1.0);
    }
  }
  return csr_from_coo(n, n, rows, cols, vals);
}

Csr lower_bidiagonal(Index n) {
  std::vector<Index> rows, cols;
  std::vector<double> vals;
  for (Index i = 0; i < n; ++i) {
    rows.push_back(i);
    cols.push_back(i);
    vals.push_back(2.0 + static_cast<double>(i % 3));
    if (i > 0) {
      rows.push_back(i);
      cols.push_back(i - 1);
      vals.push_back(-1.0 - 0.5 * static_cast<double>(i % 2));
    }
  }
  return csr_from_coo(n, n, rows, cols, vals);
}

Csr drop_offdiagonals(const Csr &a, std::uint64_t seed) {
  SplitMix64 rng(seed);
  return filter(a, [&](Index i, Index j) { return i == j || rng.bounded(4) != 0; });
}

} // namespace pgk::test::graphs

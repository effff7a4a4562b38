#include "src/trilf/factor.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

namespace pgk::trilf {

void validate(const FactorOptions &o) {
  auto fail = [](const std::string &m) { throw std::invalid_argument("trilf factor: " + m); };
  if (o.max_degree < 1 || o.max_degree > kMaxDegree)
    fail("max_degree " + std::to_string(o.max_degree) + " outside [1, " + std::to_string(kMaxDegree) + "]");
  if (o.rounds < 0) fail("rounds must be >= 0");
  if (o.charge_period < 1) fail("charge_period must be >= 1");
  if (o.charge_offset < 0 || o.charge_offset >= o.charge_period) fail("charge_offset must lie in [0, charge_period)");
  if (!(o.charge_prob >= 0 && o.charge_prob <= 1)) fail("charge_prob must lie in [0, 1]");
}

namespace {

inline Index slot_degree(const Index *slots, int n) {
  Index d = 0;
  for (int s = 0; s < n; ++s) d += slots[s] >= 0;
  return d;
}

inline bool contains(const Index *slots, int n, Index j) {
  for (int s = 0; s < n; ++s)
    if (slots[s] == j) return true;
  return false;
}

// Ascending, -1 last: the canonical slot order.
inline void sort_slots(Index *slots, int n) {
  std::sort(slots, slots + n, [](Index a, Index b) {
    if ((a < 0) != (b < 0)) return b < 0;
    return a < b;
  });
}

void check_graph(const CsrView &w, const char *what) {
  if (w.nrows != w.ncols) throw std::invalid_argument(std::string(what) + ": weight graph is not square");
  if (w.nnz_host() > 0 && !w.values) throw std::invalid_argument(std::string(what) + ": weight graph has no values");
}

} // namespace

Index Factor::degree(Index v) const { return slot_degree(nbr.data() + static_cast<std::size_t>(v) * n, n); }

Index Factor::edges() const {
  Index twice = 0;
  for (const Index j : nbr) twice += j >= 0;
  return twice / 2;
}

Index propose(const CsrView &w, int n, const Index *confirmed, const std::uint8_t *charges, Index *proposed) {
  Index made = 0;
  for (Index v = 0; v < w.nrows; ++v) {
    const Index *cv = confirmed + static_cast<std::size_t>(v) * n;
    Index *pv = proposed + static_cast<std::size_t>(v) * n;
    std::fill(pv, pv + n, Index(-1));
    const int want = n - static_cast<int>(slot_degree(cv, n));
    if (want == 0) continue;
    // Top-`want` accumulator, best first in the order (w desc, column asc).
    double val[kMaxDegree];
    Index col[kMaxDegree];
    int count = 0;
    for (Index e = w.rowptr[v]; e < w.rowptr[v + 1]; ++e) {
      const Index j = w.colidx[e];
      const double x = w.values[e];
      // The generalized product: the entry is void when j is v itself, is saturated, is
      // already confirmed with v, or carries v's charge in a charged round.
      if (j == v || !(x > 0)) continue;
      const Index *cj = confirmed + static_cast<std::size_t>(j) * n;
      if (slot_degree(cj, n) == n || contains(cv, n, j)) continue;
      if (charges && (charges[j] != 0) == (charges[v] != 0)) continue;
      // The generalized sum: insert into the sorted accumulator.
      int pos = count;
      while (pos > 0 && (x > val[pos - 1] || (x == val[pos - 1] && j < col[pos - 1]))) --pos;
      if (pos >= want) continue;
      const int last = std::min(count, want - 1);
      for (int s = last; s > pos; --s) {
        val[s] = val[s - 1];
        col[s] = col[s - 1];
      }
      val[pos] = x;
      col[pos] = j;
      count = std::min(count + 1, want);
    }
    for (int s = 0; s < count; ++s) pv[s] = col[s];
    made += count;
  }
  return made;
}

Index confirm(Index nvertices, int n, const Index *proposed, Index *confirmed) {
  Index twice = 0;
  for (Index v = 0; v < nvertices; ++v) {
    const Index *pv = proposed + static_cast<std::size_t>(v) * n;
    Index *cv = confirmed + static_cast<std::size_t>(v) * n;
    // Free slots of v are its trailing -1 entries (canonical order); proposals never exceed
    // them, by construction of propose().
    int free_slot = static_cast<int>(slot_degree(cv, n));
    bool changed = false;
    for (int s = 0; s < n && pv[s] >= 0; ++s) {
      const Index j = pv[s];
      if (contains(proposed + static_cast<std::size_t>(j) * n, n, v)) {
        cv[free_slot++] = j;
        changed = true;
        ++twice;
      }
    }
    if (changed) sort_slots(cv, n);
  }
  return twice / 2;
}

Factor parallel_factor(const CsrView &w, const FactorOptions &opt) {
  validate(opt);
  check_graph(w, "trilf parallel_factor");
  const int n = opt.max_degree;
  const Index nv = w.nrows;
  Factor f;
  f.n = n;
  f.nvertices = nv;
  f.nbr.assign(static_cast<std::size_t>(nv) * n, -1);
  std::vector<Index> proposed(f.nbr.size(), -1);
  std::vector<std::uint8_t> q(static_cast<std::size_t>(nv), 0);
  for (int k = 0; k < opt.rounds; ++k) {
    const bool charged = is_charged_round(opt, k);
    if (charged)
      for (Index v = 0; v < nv; ++v) q[static_cast<std::size_t>(v)] = charge_positive(opt.seed, k, v, opt.charge_prob);
    const Index made = propose(w, n, f.nbr.data(), charged ? q.data() : nullptr, proposed.data());
    f.rounds_run = k + 1;
    if (!charged && made == 0) {
      f.maximal = true;
      break;
    }
    // In-place is safe: confirm reads only `proposed` and writes only v's own slots.
    confirm(nv, n, proposed.data(), f.nbr.data());
  }
  return f;
}

Factor greedy_factor(const CsrView &w, int n) {
  if (n < 1 || n > kMaxDegree) throw std::invalid_argument("trilf greedy_factor: n outside [1, kMaxDegree]");
  check_graph(w, "trilf greedy_factor");
  struct Edge {
    double w;
    Index a, b; // a < b
  };
  std::vector<Edge> edges;
  for (Index i = 0; i < w.nrows; ++i)
    for (Index e = w.rowptr[i]; e < w.rowptr[i + 1]; ++e)
      if (w.colidx[e] > i && w.values[e] > 0) edges.push_back({w.values[e], i, w.colidx[e]});
  std::sort(edges.begin(), edges.end(), [](const Edge &x, const Edge &y) {
    return std::make_tuple(-x.w, x.a, x.b) < std::make_tuple(-y.w, y.a, y.b);
  });
  Factor f;
  f.n = n;
  f.nvertices = w.nrows;
  f.nbr.assign(static_cast<std::size_t>(w.nrows) * n, -1);
  f.maximal = true;
  std::vector<int> deg(static_cast<std::size_t>(w.nrows), 0);
  for (const Edge &e : edges) {
    int &da = deg[static_cast<std::size_t>(e.a)], &db = deg[static_cast<std::size_t>(e.b)];
    if (da < n && db < n) {
      f.nbr[static_cast<std::size_t>(e.a) * n + da++] = e.b;
      f.nbr[static_cast<std::size_t>(e.b) * n + db++] = e.a;
    }
  }
  for (Index v = 0; v < w.nrows; ++v) sort_slots(f.nbr.data() + static_cast<std::size_t>(v) * n, n);
  return f;
}

} // namespace pgk::trilf

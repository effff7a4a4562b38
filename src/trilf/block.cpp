#include "src/trilf/block.hpp"

#include "src/common/csr_build.hpp"
#include "src/trilf/weights.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace pgk::trilf {

const char *to_string(PairRule r) { return r == PairRule::Matching ? "matching" : "forest"; }

PairRule parse_pair_rule(const std::string &name) {
  if (name == "forest") return PairRule::Forest;
  if (name == "matching") return PairRule::Matching;
  throw std::invalid_argument("trilf: unknown block pairing '" + name + "' (forest, matching)");
}

namespace {

// Coarse numbering of a symmetric partner array: coarse id = rank of the smaller member
// among all smaller members and unmatched vertices (a prefix sum).
Pairing number_pairs(std::vector<Index> partner) {
  const auto nv = static_cast<Index>(partner.size());
  Pairing p;
  p.partner = std::move(partner);
  p.coarse_of.assign(static_cast<std::size_t>(nv), -1);
  for (Index v = 0; v < nv; ++v) {
    const Index u = p.partner[static_cast<std::size_t>(v)];
    if (u >= 0 && u < v) continue;
    p.coarse_of[static_cast<std::size_t>(v)] = p.ncoarse();
    p.members.push_back(v);
    p.members.push_back(u);
    p.pairs += u >= 0;
  }
  for (Index v = 0; v < nv; ++v) {
    const Index u = p.partner[static_cast<std::size_t>(v)];
    if (u >= 0 && u < v) p.coarse_of[static_cast<std::size_t>(v)] = p.coarse_of[static_cast<std::size_t>(u)];
  }
  return p;
}

} // namespace

Pairing pair_vertices(const CsrView &w, const FactorOptions &opt) {
  FactorOptions o1 = opt;
  o1.max_degree = 1;
  const Factor f = parallel_factor(w, o1);
  Pairing p = number_pairs(f.nbr); // one slot per vertex
  p.rounds_run = f.rounds_run;
  p.maximal = f.maximal;
  return p;
}

Pairing pair_along_paths(const PathOrder &order) {
  const auto n = static_cast<Index>(order.perm.size());
  if (order.path_start.empty() || order.path_start.front() != 0 || order.path_start.back() != n)
    throw std::invalid_argument("trilf pair_along_paths: path_start does not match perm");
  std::vector<Index> partner(static_cast<std::size_t>(n), -1);
  for (Index q = 0; q < order.npaths(); ++q) {
    const Index end = order.path_start[static_cast<std::size_t>(q) + 1];
    for (Index k = order.path_start[static_cast<std::size_t>(q)]; k + 1 < end; k += 2) {
      const Index u = order.perm[static_cast<std::size_t>(k)], v = order.perm[static_cast<std::size_t>(k) + 1];
      partner[static_cast<std::size_t>(u)] = v;
      partner[static_cast<std::size_t>(v)] = u;
    }
  }
  return number_pairs(std::move(partner));
}

Csr coarse_graph(const CsrView &w, const Pairing &p) {
  if (static_cast<Index>(p.coarse_of.size()) != w.nrows)
    throw std::invalid_argument("trilf coarse_graph: pairing does not match the graph");
  const Index nc = p.ncoarse();
  Csr c;
  c.nrows = c.ncols = nc;
  c.rowptr.assign(static_cast<std::size_t>(nc) + 1, 0);
  std::vector<Index> nbrs;
  for (Index I = 0; I < nc; ++I) {
    const Index i0 = p.members[2 * static_cast<std::size_t>(I)];
    const Index i1 = p.members[2 * static_cast<std::size_t>(I) + 1];
    nbrs.clear();
    for (const Index i : {i0, i1}) {
      if (i < 0) continue;
      for (Index e = w.rowptr[i]; e < w.rowptr[i + 1]; ++e) {
        const Index J = p.coarse_of[static_cast<std::size_t>(w.colidx[e])];
        if (J != I) nbrs.push_back(J);
      }
    }
    std::sort(nbrs.begin(), nbrs.end());
    nbrs.erase(std::unique(nbrs.begin(), nbrs.end()), nbrs.end());
    auto wt = [&](Index a, Index b) { return (a < 0 || b < 0) ? 0.0 : edge_weight(w, a, b); };
    for (const Index J : nbrs) {
      const Index j0 = p.members[2 * static_cast<std::size_t>(J)];
      const Index j1 = p.members[2 * static_cast<std::size_t>(J) + 1];
      // The grouping makes w_IJ == w_JI exactly (see the header).
      const double v = (wt(i0, j0) + wt(i1, j1)) + (wt(i0, j1) + wt(i1, j0));
      if (!(v > 0)) continue;
      c.colidx.push_back(J);
      c.values.push_back(v);
    }
    c.rowptr[static_cast<std::size_t>(I) + 1] = static_cast<Index>(c.colidx.size());
  }
  return c;
}

BlockOrder order_blocks(const Pairing &p, const PathOrder &coarse) {
  if (static_cast<Index>(coarse.perm.size()) != p.ncoarse())
    throw std::invalid_argument("trilf order_blocks: coarse order does not match the pairing");
  BlockOrder o;
  o.slots.resize(p.members.size());
  for (std::size_t k = 0; k < coarse.perm.size(); ++k) {
    const auto I = static_cast<std::size_t>(coarse.perm[k]);
    o.slots[2 * k] = p.members[2 * I];
    o.slots[2 * k + 1] = p.members[2 * I + 1];
  }
  o.path_start = coarse.path_start;
  o.longest = coarse.longest;
  return o;
}

BlockOrder block_linear_forest(const CsrView &a, const FactorOptions &opt, BlockStats *stats, PairRule rule) {
  const Csr w = weight_graph(a, opt.weight);
  FactorOptions o2 = opt;
  o2.max_degree = 2;
  Pairing p;
  if (rule == PairRule::Forest) {
    // The scalar variant's forest, bit for bit: its paths are cut into pairs.
    const Factor fine = parallel_factor(view_of(w), o2);
    p = pair_along_paths(order_paths(break_cycles(fine, view_of(w))));
    p.rounds_run = fine.rounds_run;
    p.maximal = fine.maximal;
  } else {
    p = pair_vertices(view_of(w), opt);
  }
  const Csr cw = coarse_graph(view_of(w), p);
  const Factor f = parallel_factor(view_of(cw), o2);
  const LinearForest forest = break_cycles(f, view_of(cw));
  const PathOrder co = order_paths(forest);
  if (stats) {
    stats->pairs = p.pairs;
    stats->ghosts = p.ncoarse() - p.pairs;
    stats->pairing_rounds = p.rounds_run;
    stats->coarse.rounds_run = f.rounds_run;
    stats->coarse.maximal = f.maximal;
    stats->coarse.factor_edges = f.edges();
    stats->coarse.cycles_broken = forest.cycles_broken;
    stats->coarse.forest_edges = forest.edges();
  }
  return order_blocks(p, co);
}

namespace {

// Slot of every original row in a block order; throws unless every row appears once.
std::vector<Index> slot_positions(const BlockOrder &o, Index n, const char *what) {
  std::vector<Index> pos(static_cast<std::size_t>(n), -1);
  Index seen = 0;
  for (std::size_t s = 0; s < o.slots.size(); ++s) {
    const Index i = o.slots[s];
    if (i < 0) continue;
    if (i >= n || pos[static_cast<std::size_t>(i)] >= 0)
      throw std::invalid_argument(std::string(what) + ": slots are not a permutation");
    pos[static_cast<std::size_t>(i)] = static_cast<Index>(s);
    ++seen;
  }
  if (seen != n || o.slots.size() % 2 != 0 || o.path_start.empty() || o.path_start.front() != 0 ||
      o.path_start.back() != o.nblocks())
    throw std::invalid_argument(std::string(what) + ": block order does not match the matrix");
  for (std::size_t b = 0; b < o.slots.size(); b += 2)
    if (o.slots[b] < 0) throw std::invalid_argument(std::string(what) + ": slot 0 of a block is empty");
  return pos;
}

using M2 = std::array<double, 4>; // row-major 2x2

M2 load(const std::vector<double> &v, std::size_t k) { return {v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]}; }
void store(std::vector<double> &v, std::size_t k, const M2 &m) {
  for (int i = 0; i < 4; ++i) v[4 * k + static_cast<std::size_t>(i)] = m[static_cast<std::size_t>(i)];
}
M2 mul(const M2 &a, const M2 &b) {
  return {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
}
bool is_zero(const M2 &a) { return a[0] == 0 && a[1] == 0 && a[2] == 0 && a[3] == 0; }
bool finite(const M2 &a) {
  return std::isfinite(a[0]) && std::isfinite(a[1]) && std::isfinite(a[2]) && std::isfinite(a[3]);
}

} // namespace

BlockTridiagonal assemble_block(const CsrView &a, const BlockOrder &order) {
  check_matrix(a, "trilf assemble_block");
  const Index n = a.nrows;
  const std::vector<Index> pos = slot_positions(order, n, "trilf assemble_block");
  const auto nb = static_cast<std::size_t>(order.nblocks());
  BlockTridiagonal t;
  t.lower.assign(4 * nb, 0.0);
  t.diag.assign(4 * nb, 0.0);
  t.upper.assign(4 * nb, 0.0);
  std::vector<char> starts(nb + 1, 0);
  for (const Index s : order.path_start) starts[static_cast<std::size_t>(s)] = 1;
  for (std::size_t k = 0; k < nb; ++k)
    if (order.slots[2 * k + 1] < 0) t.diag[4 * k + 3] = 1.0; // ghost equation
  for (Index i = 0; i < n; ++i) {
    const auto pi = static_cast<std::size_t>(pos[static_cast<std::size_t>(i)]);
    const std::size_t k = pi / 2, r = pi % 2;
    for (Index e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) {
      const auto pj = static_cast<std::size_t>(pos[static_cast<std::size_t>(a.colidx[e])]);
      const std::size_t l = pj / 2, c = pj % 2;
      const double v = a.values ? a.values[e] : 1.0;
      if (l == k) t.diag[4 * k + 2 * r + c] += v;
      else if (l + 1 == k && !starts[k]) t.lower[4 * k + 2 * r + c] += v;
      else if (l == k + 1 && !starts[k + 1]) t.upper[4 * k + 2 * r + c] += v;
    }
  }
  return t;
}

BlockTridiagonalFactor factor_block(const BlockTridiagonal &t, const BlockOrder &order, const PivotOptions &opt) {
  const auto nb = static_cast<std::size_t>(t.nblocks());
  if (t.lower.size() != 4 * nb || t.upper.size() != 4 * nb || t.diag.size() != 4 * nb || order.slots.size() != 2 * nb)
    throw std::invalid_argument("trilf factor_block: sizes differ");
  if (!(opt.rel_tol >= 0 && opt.rel_tol < 1))
    throw std::invalid_argument("trilf factor_block: rel_tol must lie in [0, 1)");
  auto fail = [&](const char *what, std::size_t k) {
    throw std::domain_error(std::string("trilf factor_block: ") + what + " at block " + std::to_string(k) +
                            " (original row " + std::to_string(order.slots[2 * k]) + ")");
  };
  for (std::size_t k = 0; k < nb; ++k)
    if (!finite(load(t.lower, k)) || !finite(load(t.diag, k)) || !finite(load(t.upper, k)))
      fail("non-finite entry of T", k);
  if (nb > 0 && (!is_zero(load(t.lower, 0)) || !is_zero(load(t.upper, nb - 1))))
    throw std::invalid_argument("trilf factor_block: L_0 and U_{N-1} must be 0");

  BlockTridiagonalFactor f;
  f.slots = order.slots;
  f.effective = t;
  f.mult.assign(4 * nb, 0.0);
  f.inv_pivot.assign(4 * nb, 0.0);
  const double tau = opt.rel_tol;
  for (std::size_t k = 0; k < nb; ++k) {
    const M2 L = load(t.lower, k), D = load(t.diag, k), U = load(t.upper, k);
    double r[2];
    for (int s = 0; s < 2; ++s) {
      const auto a = static_cast<std::size_t>(2 * s), b = a + 1;
      r[s] = std::fabs(L[a]) + std::fabs(L[b]) + std::fabs(D[a]) + std::fabs(D[b]) + std::fabs(U[a]) + std::fabs(U[b]);
    }
    auto tiny = [&](const M2 &p) {
      const double det = p[0] * p[3] - p[1] * p[2];
      return !(std::fabs(det) > tau * r[0] * r[1]);
    };
    M2 m{0, 0, 0, 0}, update{0, 0, 0, 0};
    const M2 Le = load(f.effective.lower, k);
    if (k > 0 && !is_zero(Le)) {
      m = mul(Le, load(f.inv_pivot, k - 1));
      if (!finite(m)) fail("multiplier overflows", k);
      update = mul(m, load(f.effective.upper, k - 1));
    }
    M2 p = D;
    for (int i = 0; i < 4; ++i) p[static_cast<std::size_t>(i)] -= update[static_cast<std::size_t>(i)];
    if (tiny(p) && !is_zero(update)) {
      store(f.effective.lower, k, M2{0, 0, 0, 0});
      store(f.effective.upper, k - 1, M2{0, 0, 0, 0});
      m = M2{0, 0, 0, 0};
      p = D;
      ++f.splits;
    }
    if (tiny(p)) {
      // No update left (p == D): keep its diagonal, replace unusable diagonal entries.
      p = M2{D[0], 0, 0, D[3]};
      for (int s = 0; s < 2; ++s) {
        double &d = p[static_cast<std::size_t>(3 * s)];
        if (std::fabs(d) <= tau * r[s]) d = r[s] > 0 ? (d < 0 ? -r[s] : r[s]) : 1.0;
      }
      store(f.effective.diag, k, p);
      ++f.replaced;
    }
    const double det = p[0] * p[3] - p[1] * p[2];
    const M2 inv{p[3] / det, -p[1] / det, -p[2] / det, p[0] / det};
    if (!finite(inv) || det == 0) fail("pivot block overflows", k);
    store(f.mult, k, m);
    store(f.inv_pivot, k, inv);
  }
  return f;
}

void solve_block(const BlockTridiagonalFactor &f, const double *b, double *x) {
  const std::size_t nb = static_cast<std::size_t>(f.nblocks());
  if (nb == 0) return;
  std::vector<double> y(2 * nb, 0.0);
  for (std::size_t s = 0; s < 2 * nb; ++s)
    if (f.slots[s] >= 0) y[s] = b[f.slots[s]];
  const double *m = f.mult.data(), *iv = f.inv_pivot.data(), *u = f.effective.upper.data();
  for (std::size_t k = 1; k < nb; ++k) { // L z = y
    const double *mk = m + 4 * k;
    const double y0 = y[2 * k - 2], y1 = y[2 * k - 1];
    y[2 * k] -= mk[0] * y0 + mk[1] * y1;
    y[2 * k + 1] -= mk[2] * y0 + mk[3] * y1;
  }
  for (std::size_t k = nb; k-- > 0;) { // U x = z, U's diagonal blocks are D'_k
    double r0 = y[2 * k], r1 = y[2 * k + 1];
    if (k + 1 < nb) {
      const double *uk = u + 4 * k;
      r0 -= uk[0] * y[2 * k + 2] + uk[1] * y[2 * k + 3];
      r1 -= uk[2] * y[2 * k + 2] + uk[3] * y[2 * k + 3];
    }
    const double *ik = iv + 4 * k;
    y[2 * k] = ik[0] * r0 + ik[1] * r1;
    y[2 * k + 1] = ik[2] * r0 + ik[3] * r1;
  }
  for (std::size_t s = 0; s < 2 * nb; ++s)
    if (f.slots[s] >= 0) x[f.slots[s]] = y[s];
}

void solve_block_transpose(const BlockTridiagonalFactor &f, const double *b, double *x) {
  const std::size_t nb = static_cast<std::size_t>(f.nblocks());
  if (nb == 0) return;
  std::vector<double> y(2 * nb, 0.0);
  for (std::size_t s = 0; s < 2 * nb; ++s)
    if (f.slots[s] >= 0) y[s] = b[f.slots[s]];
  const double *m = f.mult.data(), *iv = f.inv_pivot.data(), *u = f.effective.upper.data();
  for (std::size_t k = 0; k < nb; ++k) { // U^T w = y; U^T's lower blocks are U~_{k-1}^T
    double r0 = y[2 * k], r1 = y[2 * k + 1];
    if (k > 0) {
      const double *uk = u + 4 * (k - 1);
      r0 -= uk[0] * y[2 * k - 2] + uk[2] * y[2 * k - 1];
      r1 -= uk[1] * y[2 * k - 2] + uk[3] * y[2 * k - 1];
    }
    const double *ik = iv + 4 * k; // (D'_k^-1)^T
    y[2 * k] = ik[0] * r0 + ik[2] * r1;
    y[2 * k + 1] = ik[1] * r0 + ik[3] * r1;
  }
  for (std::size_t k = nb - 1; k-- > 0;) { // L^T x = w; L^T's upper blocks are M_{k+1}^T
    const double *mk = m + 4 * (k + 1);
    const double x0 = y[2 * k + 2], x1 = y[2 * k + 3];
    y[2 * k] -= mk[0] * x0 + mk[2] * x1;
    y[2 * k + 1] -= mk[1] * x0 + mk[3] * x1;
  }
  for (std::size_t s = 0; s < 2 * nb; ++s)
    if (f.slots[s] >= 0) x[f.slots[s]] = y[s];
}

} // namespace pgk::trilf

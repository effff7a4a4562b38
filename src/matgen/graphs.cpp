// Random graph kinds: random, disconnected, hubrow, powerlaw (rgg2d: rgg2d.cpp). Each builds
// its whole edge list (callers slice rows), then attaches the same SPD values. Edges,
// permutations and values come from separate SplitMix64 streams of the seed, so
// planted_communities can recompute a permutation without drawing the edges.
#include "src/matgen/detail.hpp"

#include "src/common/rng.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace pgk::gen::detail {

SplitMix64 stream(const Params &p, Stream s) { return SplitMix64(derive_seed(p.seed, s)); }

void sort_unique(std::vector<Edge> &edges) {
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
}

// SPD, strictly diagonally dominant values on a symmetric pattern: each edge gets
// -k * 2^-20 with k uniform in [kValueLo, kValueHi] (about -U(0.1, 1)), drawn in edge
// order; the diagonal is 1 + sum of |off-diagonals| of its row. The magnitudes are summed
// as integers and scaled once, so the diagonal is exact.
// Built in passes that keep the random accesses few (this is most of the time of a large
// random graph): the lower triangle is scattered from the edge list, the diagonal slots are
// reserved, the upper triangle is appended row by row, and a sequential pass fills each
// diagonal from its row, reading the integers k back from the exact values. The lower and
// upper passes draw the same magnitudes from two copies of the generator at the same
// state instead of storing them; `rng` ends as if each magnitude was drawn once.
Csr spd_from_edges(Index n, const std::vector<Edge> &edges, SplitMix64 &rng) {
  const std::size_t total = static_cast<std::size_t>(n) + 2 * edges.size();
  if (total > static_cast<std::size_t>(std::numeric_limits<Index>::max()))
    throw std::overflow_error("generator: nnz exceeds the Index range; build with "
                              "PGK_INDEX_64 or use a smaller graph");
  Csr a;
  a.nrows = n;
  a.ncols = n;
  a.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (Index i = 0; i < n; ++i) a.rowptr[i + 1] = 1; // diagonal
  for (const auto &[u, v] : edges) {
    ++a.rowptr[u + 1];
    ++a.rowptr[v + 1];
  }
  for (Index i = 0; i < n; ++i) a.rowptr[i + 1] += a.rowptr[i];
  a.colidx.resize(total);
  a.values.resize(total);

  auto draw = [](SplitMix64 &r) { return kValueLo + r.bounded(kValueHi - kValueLo + 1); };
  std::vector<Index> next(a.rowptr.begin(), a.rowptr.end() - 1);
  auto put = [&](Index row, Index col, double value) {
    a.colidx[next[row]] = col;
    a.values[next[row]] = value;
    ++next[row];
  };
  // Lower part, then diagonal, then upper part: with the edges sorted by (first, second)
  // each row receives its columns in increasing order in every pass.
  SplitMix64 lower = rng;
  for (const auto &[u, v] : edges) put(v, u, -static_cast<double>(draw(lower)) * 0x1.0p-20);
  for (Index i = 0; i < n; ++i) put(i, i, 0.0); // filled below
  for (const auto &[u, v] : edges) put(u, v, -static_cast<double>(draw(rng)) * 0x1.0p-20);
  for (Index i = 0; i < n; ++i) {
    std::uint64_t row_sum = 0;
    Index diag = a.rowptr[i];
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      if (a.colidx[k] == i) diag = k;
      else row_sum += static_cast<std::uint64_t>(-a.values[k] * 0x1.0p20); // exact: k * 2^-20
    }
    a.values[diag] = 1.0 + static_cast<double>(row_sum) * 0x1.0p-20;
  }
  return a;
}

namespace {

// Each vertex of [offset, offset + n) draws partners uniformly among the others in that
// range: deg / 2 of them, odd vertices one more when deg is odd, so that after
// symmetrisation the average degree is about deg (a little less: repeats merge). Drawing
// per vertex rather than per edge bounds the minimum degree away from 0 for deg >= 2.
void add_random_edges(Index offset, Index n, Index deg, SplitMix64 &rng, std::vector<Edge> &edges) {
  if (n < 2) return;
  for (Index i = 0; i < n; ++i) {
    const Index draws = std::min<Index>(deg / 2 + (deg % 2 != 0 && i % 2 != 0 ? 1 : 0), n - 1);
    for (Index t = 0; t < draws; ++t) {
      const auto r = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(n - 1)));
      const Index j = r < i ? r : r + 1; // uniform over the others, never i itself
      edges.emplace_back(offset + std::min(i, j), offset + std::max(i, j));
    }
  }
}

// ---- disconnected ----------------------------------------------------------------------

// Part p holds the old labels [start(p), start(p + 1)), sizes differing by at most one.
Index part_start(Index n, Index parts, Index p) {
  const Index base = n / parts, extra = n % parts;
  return p * base + std::min(p, extra);
}

// new_label[old] of the random permutation that interleaves the parts.
std::vector<Index> disconnected_relabel(const Params &p) {
  std::vector<Index> new_label(static_cast<std::size_t>(p.n));
  std::iota(new_label.begin(), new_label.end(), Index{0});
  SplitMix64 rng = stream(p, kPermutationStream);
  shuffle(new_label, rng);
  return new_label;
}

std::vector<Index> disconnected_communities(const Params &p) {
  const std::vector<Index> new_label = disconnected_relabel(p);
  std::vector<Index> community(static_cast<std::size_t>(p.n));
  for (Index part = 0; part < p.parts && part_start(p.n, p.parts, part) < p.n; ++part) {
    for (Index v = part_start(p.n, p.parts, part); v < part_start(p.n, p.parts, part + 1); ++v)
      community[new_label[v]] = part;
  }
  return community;
}

Csr disconnected(const Params &p) {
  std::vector<Edge> edges;
  SplitMix64 rng = stream(p, kEdgeStream);
  for (Index part = 0; part < p.parts && part_start(p.n, p.parts, part) < p.n; ++part) {
    const Index first = part_start(p.n, p.parts, part);
    add_random_edges(first, part_start(p.n, p.parts, part + 1) - first, p.deg, rng, edges);
  }
  const std::vector<Index> new_label = disconnected_relabel(p);
  for (auto &[u, v] : edges) {
    const Index a = new_label[u], b = new_label[v];
    u = std::min(a, b);
    v = std::max(a, b);
  }
  sort_unique(edges);
  SplitMix64 values = stream(p, kValueStream);
  return spd_from_edges(p.n, edges, values);
}

// ---- hubrow ----------------------------------------------------------------------------

Csr hubrow(const Params &p) {
  std::vector<Edge> edges;
  SplitMix64 rng = stream(p, kEdgeStream);
  add_random_edges(0, p.n, p.deg, rng, edges);
  if (p.n > 1) {
    const Index hub = p.n / 2;
    std::vector<Index> others;
    others.reserve(static_cast<std::size_t>(p.n) - 1);
    for (Index v = 0; v < p.n; ++v) {
      if (v != hub) others.push_back(v);
    }
    // The hub's neighbours: the first hubdeg of a partial Fisher-Yates shuffle.
    SplitMix64 pick = stream(p, kPermutationStream);
    const auto m = static_cast<Index>(others.size());
    if (p.hubdeg < m) {
      for (Index t = 0; t < p.hubdeg; ++t) {
        const auto j = t + static_cast<Index>(pick.bounded(static_cast<std::uint64_t>(m - t)));
        std::swap(others[t], others[j]);
      }
    }
    for (Index t = 0; t < p.hubdeg; ++t) edges.emplace_back(std::min(hub, others[t]), std::max(hub, others[t]));
  }
  sort_unique(edges);
  SplitMix64 values = stream(p, kValueStream);
  return spd_from_edges(p.n, edges, values);
}

// ---- powerlaw --------------------------------------------------------------------------

// Vertices are laid out in "slots": community c owns slots [start(c), start(c + 1)), and
// the slot's rank within its community sets its Chung-Lu weight. A random permutation
// maps slots to vertex indices, scattering each community over the index space.
struct PowerlawLayout {
  std::vector<Index> vertex_of_slot;
  std::vector<Index> community_of_slot;
  std::vector<Index> community_start; // communities + 1 entries
};

// Communities beyond the n-th would be empty: dropping them changes no vertex and keeps
// the tables O(n) for any value of the parameter.
Index used_communities(const Params &p) { return std::max<Index>(1, std::min(p.communities, p.n)); }

PowerlawLayout powerlaw_layout(const Params &p) {
  const Index communities = used_communities(p);
  PowerlawLayout l;
  l.community_start.resize(static_cast<std::size_t>(communities) + 1);
  for (Index c = 0; c <= communities; ++c) l.community_start[c] = part_start(p.n, communities, c);
  l.community_of_slot.resize(static_cast<std::size_t>(p.n));
  for (Index c = 0; c < communities; ++c) {
    for (Index s = l.community_start[c]; s < l.community_start[c + 1]; ++s) l.community_of_slot[s] = c;
  }
  l.vertex_of_slot.resize(static_cast<std::size_t>(p.n));
  std::iota(l.vertex_of_slot.begin(), l.vertex_of_slot.end(), Index{0});
  SplitMix64 rng = stream(p, kPermutationStream);
  shuffle(l.vertex_of_slot, rng);
  return l;
}

// Chung-Lu style edge sampling: both endpoints are drawn with probability proportional to
// the weights (rank + 1)^(-1 / (gamma - 1)), so expected degrees follow a power law with
// tail exponent gamma. The first edges_cross edges must join different communities, the
// rest stay inside the first endpoint's community.
// A draw that keeps failing (self loop, tiny community) is dropped after a few tries, and
// repeated edges merge, so the average degree ends a little below avgdeg; as in any
// Chung-Lu graph, some low-weight vertices get no edge at all (only their diagonal).
Csr powerlaw(const Params &p) {
  const PowerlawLayout l = powerlaw_layout(p);
  const auto alpha_q24 = static_cast<std::uint64_t>(static_cast<double>(1u << 24) / (p.gamma - 1.0));
  std::vector<std::uint64_t> cum(static_cast<std::size_t>(p.n) + 1, 0);
  for (Index s = 0; s < p.n; ++s) {
    const Index rank = s - l.community_start[l.community_of_slot[s]];
    cum[s + 1] = cum[s] + powerlaw_weight(static_cast<std::uint64_t>(rank), alpha_q24);
  }

  SplitMix64 rng = stream(p, kEdgeStream);
  // Slot drawn with probability proportional to its weight among slots [lo, hi).
  auto sample = [&](Index lo, Index hi) {
    const std::uint64_t u = cum[lo] + rng.bounded(cum[hi] - cum[lo]);
    return static_cast<Index>(std::upper_bound(cum.begin() + lo + 1, cum.begin() + hi + 1, u) - cum.begin() - 1);
  };

  // Products and quotients only, then an exact rounding: no contraction can differ.
  const auto edges_total = static_cast<std::int64_t>(std::llround(static_cast<double>(p.n) * p.avgdeg / 2.0));
  const std::int64_t edges_cross =
      used_communities(p) > 1 ? std::llround(static_cast<double>(edges_total) * p.mixing) : 0;
  constexpr int kTries = 32;
  std::vector<Edge> edges;
  edges.reserve(static_cast<std::size_t>(edges_total));
  for (std::int64_t e = 0; e < edges_total; ++e) {
    const Index s = sample(0, p.n);
    const Index c = l.community_of_slot[s];
    const Index lo = l.community_start[c], hi = l.community_start[c + 1];
    const bool cross = e < edges_cross;
    if (!cross && hi - lo < 2) continue;
    for (int t = 0; t < kTries; ++t) {
      const Index other = cross ? sample(0, p.n) : sample(lo, hi);
      if (cross ? l.community_of_slot[other] != c : other != s) {
        const Index a = l.vertex_of_slot[s], b = l.vertex_of_slot[other];
        edges.emplace_back(std::min(a, b), std::max(a, b));
        break;
      }
    }
  }
  sort_unique(edges);
  SplitMix64 values = stream(p, kValueStream);
  return spd_from_edges(p.n, edges, values);
}

// ---- fixed-point power law -------------------------------------------------------------

// log2(x) for x >= 1 in Q24 (24 fractional bits), by the bit-by-bit squaring method:
// with y = x / 2^k in [1, 2), each squaring of y doubles its logarithm, and y^2 >= 2
// reveals the next bit.
std::uint64_t log2_q24(std::uint64_t x) {
  int k = 63;
  while ((x >> k) == 0) --k;
  std::uint64_t y = k <= 31 ? x << (31 - k) : x >> (k - 31); // Q31, in [2^31, 2^32)
  std::uint64_t frac = 0;
  for (int bit = 23; bit >= 0; --bit) {
    y = (y * y) >> 31; // < 2^64 since y < 2^32
    if (y >= (std::uint64_t{1} << 32)) {
      y >>= 1;
      frac |= std::uint64_t{1} << bit;
    }
  }
  return (static_cast<std::uint64_t>(k) << 24) | frac;
}

// 2^(-f / 2^24) for f in [0, 2^24), in Q31: the product of 2^(-2^-j) over the set bits of
// f. Those factors are repeated square roots of 1/2; IEEE 754 rounds sqrt exactly, so the
// table is the same on every conforming platform.
std::uint64_t exp2_neg_frac_q31(std::uint64_t f) {
  static const std::array<std::uint64_t, 24> roots = [] {
    std::array<std::uint64_t, 24> r{};
    double c = 0.5;
    for (auto &entry : r) {
      c = std::sqrt(c); // 2^(-1/2), 2^(-1/4), ...
      entry = static_cast<std::uint64_t>(c * 0x1.0p31);
    }
    return r;
  }();
  std::uint64_t m = std::uint64_t{1} << 31;
  for (int j = 0; j < 24; ++j) {
    if ((f >> (23 - j)) & 1) m = (m * roots[j]) >> 31; // < 2^62
  }
  return m;
}

} // namespace

std::uint64_t powerlaw_weight(std::uint64_t rank, std::uint64_t alpha_q24) {
  // t = alpha * log2(rank + 1) in Q24; alpha_q24 <= 100 * 2^24 and log2 < 2^30 keep the
  // product below 2^61. The weight 2^30 * 2^-t = (2^-frac(t) in Q31) >> (int(t) + 1).
  const std::uint64_t t = (alpha_q24 * log2_q24(rank + 1)) >> 24;
  const std::uint64_t whole = t >> 24;
  const std::uint64_t m = exp2_neg_frac_q31(t & ((std::uint64_t{1} << 24) - 1));
  const std::uint64_t w = whole + 1 < 64 ? m >> (whole + 1) : 0;
  return std::max<std::uint64_t>(w, 1);
}

Csr graph_matrix(const Params &p) {
  switch (p.kind) {
  case Kind::Random: {
    std::vector<Edge> edges;
    SplitMix64 rng = stream(p, kEdgeStream);
    add_random_edges(0, p.n, p.deg, rng, edges);
    sort_unique(edges);
    SplitMix64 values = stream(p, kValueStream);
    return spd_from_edges(p.n, edges, values);
  }
  case Kind::Disconnected: return disconnected(p);
  case Kind::Hubrow: return hubrow(p);
  case Kind::Powerlaw: return powerlaw(p);
  case Kind::Rgg2d: return rgg2d_matrix(p);
  case Kind::Communities: return communities_matrix(p);
  default: throw std::logic_error("graph_matrix: not a random graph kind");
  }
}

std::vector<Index> graph_communities(const Params &p) {
  if (p.kind == Kind::Disconnected) return disconnected_communities(p);
  if (p.kind == Kind::Communities) return communities_planted(p);
  if (p.kind != Kind::Powerlaw) throw std::logic_error("graph_communities: kind has no planted communities");
  const PowerlawLayout l = powerlaw_layout(p);
  std::vector<Index> community(static_cast<std::size_t>(p.n));
  for (Index s = 0; s < p.n; ++s) community[l.vertex_of_slot[s]] = l.community_of_slot[s];
  return community;
}

} // namespace pgk::gen::detail

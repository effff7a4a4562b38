// Random graph kinds: random, disconnected, hubrow, powerlaw, rgg2d. Each builds its whole
// edge list (callers slice rows), then attaches the same SPD values. Edges, permutations and
// values come from separate SplitMix64 streams of the seed, so planted_communities can
// recompute a permutation without drawing the edges.
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

namespace {

using Edge = std::pair<Index, Index>; // undirected, first < second

enum Stream : std::uint64_t { kEdgeStream = 1, kPermutationStream = 2, kValueStream = 3 };

SplitMix64 stream(const Params &p, Stream s) { return SplitMix64(derive_seed(p.seed, s)); }

// Each vertex of [offset, offset + n) draws partners uniformly among the others in that
// range: deg / 2 of them, odd vertices one more when deg is odd, so that after
// symmetrisation the average degree is about deg (a little less: repeats merge). Drawing
// per vertex rather than per edge bounds the minimum degree away from 0 for deg >= 2.
void add_random_edges(Index offset, Index n, Index deg, SplitMix64 &rng, std::vector<Edge> &edges) {
  if (n < 2)
    return;
  for (Index i = 0; i < n; ++i) {
    const Index draws = std::min<Index>(deg / 2 + (deg % 2 != 0 && i % 2 != 0 ? 1 : 0), n - 1);
    for (Index t = 0; t < draws; ++t) {
      const auto r = static_cast<Index>(rng.bounded(static_cast<std::uint64_t>(n - 1)));
      const Index j = r < i ? r : r + 1; // uniform over the others, never i itself
      edges.emplace_back(offset + std::min(i, j), offset + std::max(i, j));
    }
  }
}

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
  for (Index i = 0; i < n; ++i)
    a.rowptr[i + 1] = 1; // diagonal
  for (const auto &[u, v] : edges) {
    ++a.rowptr[u + 1];
    ++a.rowptr[v + 1];
  }
  for (Index i = 0; i < n; ++i)
    a.rowptr[i + 1] += a.rowptr[i];
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
  for (const auto &[u, v] : edges)
    put(v, u, -static_cast<double>(draw(lower)) * 0x1.0p-20);
  for (Index i = 0; i < n; ++i)
    put(i, i, 0.0); // filled below
  for (const auto &[u, v] : edges)
    put(u, v, -static_cast<double>(draw(rng)) * 0x1.0p-20);
  for (Index i = 0; i < n; ++i) {
    std::uint64_t row_sum = 0;
    Index diag = a.rowptr[i];
    for (Index k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      if (a.colidx[k] == i)
        diag = k;
      else
        row_sum += static_cast<std::uint64_t>(-a.values[k] * 0x1.0p20); // exact: k * 2^-20
    }
    a.values[diag] = 1.0 + static_cast<double>(row_sum) * 0x1.0p-20;
  }
  return a;
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
      if (v != hub)
        others.push_back(v);
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
    for (Index t = 0; t < p.hubdeg; ++t)
      edges.emplace_back(std::min(hub, others[t]), std::max(hub, others[t]));
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
  for (Index c = 0; c <= communities; ++c)
    l.community_start[c] = part_start(p.n, communities, c);
  l.community_of_slot.resize(static_cast<std::size_t>(p.n));
  for (Index c = 0; c < communities; ++c) {
    for (Index s = l.community_start[c]; s < l.community_start[c + 1]; ++s)
      l.community_of_slot[s] = c;
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
  const auto alpha_q24 =
      static_cast<std::uint64_t>(static_cast<double>(1u << 24) / (p.gamma - 1.0));
  std::vector<std::uint64_t> cum(static_cast<std::size_t>(p.n) + 1, 0);
  for (Index s = 0; s < p.n; ++s) {
    const Index rank = s - l.community_start[l.community_of_slot[s]];
    cum[s + 1] = cum[s] + powerlaw_weight(static_cast<std::uint64_t>(rank), alpha_q24);
  }

  SplitMix64 rng = stream(p, kEdgeStream);
  // Slot drawn with probability proportional to its weight among slots [lo, hi).
  auto sample = [&](Index lo, Index hi) {
    const std::uint64_t u = cum[lo] + rng.bounded(cum[hi] - cum[lo]);
    return static_cast<Index>(std::upper_bound(cum.begin() + lo + 1, cum.begin() + hi + 1, u) -
                              cum.begin() - 1);
  };

  // Products and quotients only, then an exact rounding: no contraction can differ.
  const auto edges_total =
      static_cast<std::int64_t>(std::llround(static_cast<double>(p.n) * p.avgdeg / 2.0));
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
    if (!cross && hi - lo < 2)
      continue;
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

// ---- rgg2d -----------------------------------------------------------------------------

// Largest s with s^2 <= v (v <= 2^62). The double square root is only a first guess.
std::uint64_t isqrt(std::uint64_t v) {
  auto s = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(v)));
  while (s > 0 && s * s > v)
    --s;
  while ((s + 1) * (s + 1) <= v)
    ++s;
  return s;
}

// Calls f(u, v) once for every pair of points u < v within squared distance r2, in an
// order that follows the geometry (not the vertex numbers), touching memory sequentially.
// Uniform bucket grid of g x g cells, g <= 2^30 / ceil(R) so that a cell is at least R
// wide and neighbours lie in adjacent cells, and g^2 <= n so that the cell table is O(n);
// a cell then holds about max(1, deg / pi) points. Each pair is met once: inside a cell,
// or through the half stencil of cell offsets (+1, 0), (-1, +1), (0, +1), (+1, +1), which
// meets every adjacent pair of cells once. Expected work O(n (1 + deg)).
template <class F> void rgg2d_pairs(const std::vector<Point2> &pts, std::uint64_t r2, F &&f) {
  if (pts.size() < 2)
    return;
  const std::uint64_t r_floor = isqrt(r2);
  const std::uint64_t r_ceil = r_floor * r_floor == r2 ? r_floor : r_floor + 1;
  std::uint64_t g = r_ceil > 0 ? (std::uint64_t{1} << 30) / r_ceil : std::uint64_t{1} << 30;
  g = std::max<std::uint64_t>(1, std::min<std::uint64_t>(g, isqrt(pts.size())));
  // floor(c * g / 2^30) < g for c < 2^30; the product is below 2^30 * 2^24 (g^2 <= 2^48).
  auto axis = [g](std::uint32_t c) { return (std::uint64_t{c} * g) >> 30; };
  auto cell = [&](const Point2 &q) { return static_cast<std::size_t>(axis(q.y) * g + axis(q.x)); };

  // Counting sort of the points by cell (row-major, x fastest), with their ids, so that a
  // cell and its right neighbour, or three adjacent cells of a row, are contiguous.
  struct Entry {
    Point2 p;
    Index id;
  };
  const auto cells = static_cast<std::size_t>(g * g);
  std::vector<std::size_t> start(cells + 1, 0);
  for (const Point2 &q : pts)
    ++start[cell(q) + 1];
  for (std::size_t c = 0; c < cells; ++c)
    start[c + 1] += start[c];
  std::vector<Entry> sorted(pts.size());
  {
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t v = 0; v < pts.size(); ++v)
      sorted[next[cell(pts[v])]++] = {pts[v], static_cast<Index>(v)};
  }

  auto test = [r2, &f](const Entry &a, const Entry &b) {
    const std::uint64_t dx = a.p.x > b.p.x ? a.p.x - b.p.x : b.p.x - a.p.x;
    const std::uint64_t dy = a.p.y > b.p.y ? a.p.y - b.p.y : b.p.y - a.p.y;
    if (dx * dx + dy * dy <= r2) // < 2^61: no overflow
      a.id < b.id ? f(a.id, b.id) : f(b.id, a.id);
  };
  for (std::uint64_t cy = 0; cy < g; ++cy) {
    for (std::uint64_t cx = 0; cx < g; ++cx) {
      const std::size_t c = cy * g + cx;
      // Own cell after i, then the cell to the right: one run.
      const std::size_t lo = start[c], hi = start[c + 1];
      const std::size_t right_end = cx + 1 < g ? start[c + 2] : hi;
      // Cells (cx - 1 .. cx + 1, cy + 1): one run, empty in the top row.
      std::size_t up_lo = 0, up_hi = 0;
      if (cy + 1 < g) {
        const std::size_t row = (cy + 1) * g;
        up_lo = start[row + (cx > 0 ? cx - 1 : 0)];
        up_hi = start[row + std::min(cx + 1, g - 1) + 1];
      }
      for (std::size_t i = lo; i < hi; ++i) {
        for (std::size_t j = i + 1; j < right_end; ++j)
          test(sorted[i], sorted[j]);
        for (std::size_t j = up_lo; j < up_hi; ++j)
          test(sorted[i], sorted[j]);
      }
    }
  }
}

// The edges sorted by (first, second). The pairs come in geometric order; a counting sort
// by first endpoint, then a sort of each vertex's few partners, orders them in
// O(n + edges) time and memory.
std::vector<Edge> rgg2d_edges(const Params &p) {
  const std::vector<Point2> pts = rgg2d_points(p);
  const std::uint64_t r2 =
      rgg2d_radius2(static_cast<std::uint64_t>(p.n), static_cast<std::uint64_t>(p.deg));
  // Room for the expected n (n - 1) / 2 * pi R^2 / 2^60 pairs and a margin. The estimate
  // only sizes the allocation (pages never written cost nothing); the list grows as usual
  // if the graph is denser.
  const double pairs =
      static_cast<double>(p.n) * static_cast<double>(std::max<Index>(p.n - 1, 0)) / 2;
  const double expected = pairs * std::min(1.0, static_cast<double>(r2) * 0x1.0p-60 * 3.1416);
  std::vector<Edge> found;
  found.reserve(static_cast<std::size_t>(std::min(expected * 1.05 + 64, pairs)));
  rgg2d_pairs(pts, r2, [&found](Index u, Index v) { found.emplace_back(u, v); });

  std::vector<std::size_t> offset(static_cast<std::size_t>(p.n) + 1, 0);
  for (const Edge &e : found)
    ++offset[static_cast<std::size_t>(e.first) + 1];
  for (std::size_t v = 0; v < static_cast<std::size_t>(p.n); ++v)
    offset[v + 1] += offset[v];
  std::vector<Edge> edges(found.size());
  for (const Edge &e : found)
    edges[offset[static_cast<std::size_t>(e.first)]++] = e;
  // offset[v] is now the end of v's run, i.e. the start of v + 1's.
  for (std::size_t v = 0, begin = 0; v < static_cast<std::size_t>(p.n); begin = offset[v++])
    std::sort(edges.begin() + static_cast<std::ptrdiff_t>(begin),
              edges.begin() + static_cast<std::ptrdiff_t>(offset[v]));
  return edges;
}

Csr rgg2d(const Params &p) {
  const std::vector<Edge> edges = rgg2d_edges(p);
  SplitMix64 values = stream(p, kValueStream);
  return spd_from_edges(p.n, edges, values);
}

// ---- fixed-point power law -------------------------------------------------------------

// log2(x) for x >= 1 in Q24 (24 fractional bits), by the bit-by-bit squaring method:
// with y = x / 2^k in [1, 2), each squaring of y doubles its logarithm, and y^2 >= 2
// reveals the next bit.
std::uint64_t log2_q24(std::uint64_t x) {
  int k = 63;
  while ((x >> k) == 0)
    --k;
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
    if ((f >> (23 - j)) & 1)
      m = (m * roots[j]) >> 31; // < 2^62
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

std::vector<Point2> rgg2d_points(const Params &p) {
  std::vector<Point2> pts(static_cast<std::size_t>(p.n));
  SplitMix64 rng = stream(p, kEdgeStream);
  for (Point2 &q : pts) {
    q.x = static_cast<std::uint32_t>(rng.next_u64() >> 34);
    q.y = static_cast<std::uint32_t>(rng.next_u64() >> 34);
  }
  return pts;
}

std::uint64_t rgg2d_radius2(std::uint64_t n, std::uint64_t deg) {
  constexpr std::uint64_t kAll = std::uint64_t{1} << 61;
  if (n == 0)
    return 0;
  if (deg >= 7 * n) // 7 * 113 / 355 > 2: saturated anyway
    return kAll;
  // floor(num * 2^60 / den) bit by bit; num < 7 * 113 * 2^48 and den = 355 n < 2^57, so
  // the remainder, below den, can be doubled without overflow.
  const std::uint64_t num = 113 * deg, den = 355 * n;
  const std::uint64_t whole = num / den;
  if (whole >= 2)
    return kAll;
  std::uint64_t q = whole << 60, rem = num % den;
  for (int bit = 59; bit >= 0; --bit) {
    rem <<= 1;
    if (rem >= den) {
      rem -= den;
      q |= std::uint64_t{1} << bit;
    }
  }
  return std::min(q, kAll);
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
  case Kind::Disconnected:
    return disconnected(p);
  case Kind::Hubrow:
    return hubrow(p);
  case Kind::Powerlaw:
    return powerlaw(p);
  case Kind::Rgg2d:
    return rgg2d(p);
  default:
    throw std::logic_error("graph_matrix: not a random graph kind");
  }
}

std::vector<Index> graph_communities(const Params &p) {
  if (p.kind == Kind::Disconnected)
    return disconnected_communities(p);
  if (p.kind != Kind::Powerlaw)
    throw std::logic_error("graph_communities: kind has no planted communities");
  const PowerlawLayout l = powerlaw_layout(p);
  std::vector<Index> community(static_cast<std::size_t>(p.n));
  for (Index s = 0; s < p.n; ++s)
    community[l.vertex_of_slot[s]] = l.community_of_slot[s];
  return community;
}

} // namespace pgk::gen::detail

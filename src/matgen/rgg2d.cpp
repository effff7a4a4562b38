// rgg2d: the random geometric graph (detail.hpp describes its points and radius). The pairs
// within the radius are found through a bucket grid in O(n (1 + deg)); the values are those
// of every random graph kind (spd_from_edges, graphs.cpp).
#include "src/matgen/detail.hpp"

#include "src/common/rng.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace pgk::gen::detail {

namespace {

// Largest s with s^2 <= v (v <= 2^62). The double square root is only a first guess.
std::uint64_t isqrt(std::uint64_t v) {
  auto s = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(v)));
  while (s > 0 && s * s > v) --s;
  while ((s + 1) * (s + 1) <= v) ++s;
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
  if (pts.size() < 2) return;
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
  for (const Point2 &q : pts) ++start[cell(q) + 1];
  for (std::size_t c = 0; c < cells; ++c) start[c + 1] += start[c];
  std::vector<Entry> sorted(pts.size());
  {
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t v = 0; v < pts.size(); ++v) sorted[next[cell(pts[v])]++] = {pts[v], static_cast<Index>(v)};
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
        for (std::size_t j = i + 1; j < right_end; ++j) test(sorted[i], sorted[j]);
        for (std::size_t j = up_lo; j < up_hi; ++j) test(sorted[i], sorted[j]);
      }
    }
  }
}

// The edges sorted by (first, second). The pairs come in geometric order; a counting sort
// by first endpoint, then a sort of each vertex's few partners, orders them in
// O(n + edges) time and memory.
std::vector<Edge> rgg2d_edges(const Params &p) {
  const std::vector<Point2> pts = rgg2d_points(p);
  const std::uint64_t r2 = rgg2d_radius2(static_cast<std::uint64_t>(p.n), static_cast<std::uint64_t>(p.deg));
  // Room for the expected n (n - 1) / 2 * pi R^2 / 2^60 pairs and a margin. The estimate
  // only sizes the allocation (pages never written cost nothing); the list grows as usual
  // if the graph is denser.
  const double pairs = static_cast<double>(p.n) * static_cast<double>(std::max<Index>(p.n - 1, 0)) / 2;
  const double expected = pairs * std::min(1.0, static_cast<double>(r2) * 0x1.0p-60 * 3.1416);
  std::vector<Edge> found;
  found.reserve(static_cast<std::size_t>(std::min(expected * 1.05 + 64, pairs)));
  rgg2d_pairs(pts, r2, [&found](Index u, Index v) { found.emplace_back(u, v); });

  std::vector<std::size_t> offset(static_cast<std::size_t>(p.n) + 1, 0);
  for (const Edge &e : found) ++offset[static_cast<std::size_t>(e.first) + 1];
  for (std::size_t v = 0; v < static_cast<std::size_t>(p.n); ++v) offset[v + 1] += offset[v];
  std::vector<Edge> edges(found.size());
  for (const Edge &e : found) edges[offset[static_cast<std::size_t>(e.first)]++] = e;
  // offset[v] is now the end of v's run, i.e. the start of v + 1's.
  for (std::size_t v = 0, begin = 0; v < static_cast<std::size_t>(p.n); begin = offset[v++])
    std::sort(edges.begin() + static_cast<std::ptrdiff_t>(begin),
              edges.begin() + static_cast<std::ptrdiff_t>(offset[v]));
  return edges;
}

} // namespace

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
  if (n == 0) return 0;
  if (deg >= 7 * n) // 7 * 113 / 355 > 2: saturated anyway
    return kAll;
  // floor(num * 2^60 / den) bit by bit; num < 7 * 113 * 2^48 and den = 355 n < 2^57, so
  // the remainder, below den, can be doubled without overflow.
  const std::uint64_t num = 113 * deg, den = 355 * n;
  const std::uint64_t whole = num / den;
  if (whole >= 2) return kAll;
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

Csr rgg2d_matrix(const Params &p) {
  const std::vector<Edge> edges = rgg2d_edges(p);
  SplitMix64 values = stream(p, kValueStream);
  return spd_from_edges(p.n, edges, values);
}

} // namespace pgk::gen::detail

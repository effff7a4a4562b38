// Internals of generators.cpp shared with stencils.cpp, graphs.cpp and rgg2d.cpp (and the
// unit tests); not a public interface.
//
// Floating-point discipline: a compiler may fuse a*b + c into one FMA (GCC does by
// default in GNU mode when the target has FMA), which changes the rounding. Matrix values
// are therefore computed without a multiply feeding an add or subtract: stencil constants
// are sums of the parameters, random values are dyadic (k * 2^-20) so that their sums are
// exact whatever the order or fusion, and the power-law weights use integer arithmetic.
#pragma once

#include "src/common/csr.hpp"
#include "src/common/rng.hpp"
#include "src/matgen/generators.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pgk::gen::detail {

enum class Kind {
  Lap2d5,
  Lap3d7,
  Lap3d27,
  Elast3d,
  Vec3d27,
  Aniso2d,
  Aniso2d5,
  Aniso3d,
  Convdiff2d,
  Convdiff3d,
  Fem2d,
  Helmholtz2d,
  Helmholtz2dc,
  Quatsurf,
  Random,
  Disconnected,
  Hubrow,
  Powerlaw,
  Rgg2d,
  Communities,
  Path,
  Empty,
};

// A Spec after validation, with defaults applied. Only the fields of `kind` are meaningful.
struct Params {
  Kind kind = Kind::Empty;
  Index nx = 1, ny = 1, nz = 1;               // grid kinds (2D kinds keep nz = 1)
  Index n = 0;                                // graph kinds, path, empty: vertex count
  Index deg = 0;                              // random, disconnected, hubrow, rgg2d
  Index parts = 1;                            // disconnected
  Index hubdeg = 0;                           // hubrow
  Index communities = 1;                      // powerlaw
  int variant = 1;                            // aniso2d
  double ax = 1, ay = 1, az = 1;              // aniso3d, aniso2d5 (ax, ay)
  double lambda = 1, mu = 1;                  // elast3d
  double peclet = 0;                          // convdiff*, helmholtz2d
  double side = 1, reaction = 1;              // fem2d: domain [0, side]^2, -Lap u + reaction u
  double kh = 0.1;                            // helmholtz2d, helmholtz2dc: k h
  double eps = 0;                             // helmholtz2dc: damping, k^2 (1 + i eps)
  double shift = 1;                           // quatsurf: diagonal margin
  double avgdeg = 0, gamma = 2.5, mixing = 0; // powerlaw
  Index intra = 8, inter = 2;                 // communities
  std::uint64_t seed = 1;
};

Params resolve(const Spec &spec); // throws std::invalid_argument
Index nrows_of(const Params &p);  // validated by resolve: fits in Index
Index block_size_of(Kind k);      // 3 elast3d, 2 helmholtz2dc, 4 quatsurf, else 1

bool is_grid_kind(Kind k); // generated row by row (stencils, path, empty)

// Rows [begin, end) of a grid kind.
Csr stencil_rows(const Params &p, Index begin, Index end);

// Rows [begin, end) of an ncols-column matrix; row_fn(row, emit) calls emit(col, value) in
// increasing col order, for row = begin, begin + 1, ..., end - 1 in this order (so a row_fn
// may cache what consecutive rows share). Throws std::overflow_error when the nnz exceeds Index.
template <class RowFn> Csr build_rows(Index ncols, Index begin, Index end, std::size_t per_row, RowFn &&row_fn) {
  constexpr std::size_t kIndexMax = static_cast<std::size_t>(std::numeric_limits<Index>::max());
  Csr a;
  a.nrows = end - begin;
  a.ncols = ncols;
  a.rowptr.assign(static_cast<std::size_t>(a.nrows) + 1, 0);
  const std::size_t expected = static_cast<std::size_t>(a.nrows) * per_row;
  a.colidx.reserve(std::min(expected, kIndexMax));
  a.values.reserve(std::min(expected, kIndexMax));
  auto emit = [&a](Index col, double value) {
    a.colidx.push_back(col);
    a.values.push_back(value);
  };
  for (Index i = 0; i < a.nrows; ++i) {
    row_fn(begin + i, emit);
    if (a.colidx.size() > kIndexMax)
      throw std::overflow_error("generator: nnz of rows [" + std::to_string(begin) + ", " + std::to_string(end) +
                                ") exceeds the Index range; build with PGK_INDEX_64 or "
                                "generate fewer rows at a time");
    a.rowptr[i + 1] = static_cast<Index>(a.colidx.size());
  }
  return a;
}

// The whole matrix of a random graph kind.
Csr graph_matrix(const Params &p);

// ---- shared by the random graph kinds (graphs.cpp, rgg2d.cpp) ----

using Edge = std::pair<Index, Index>; // undirected, first < second

// Edges, permutations and values of a graph kind come from separate streams of its seed
// (and quatsurf's vertex jitter from a fourth).
enum Stream : std::uint64_t { kEdgeStream = 1, kPermutationStream = 2, kValueStream = 3, kJitterStream = 4 };
SplitMix64 stream(const Params &p, Stream s);

// The SPD, strictly diagonally dominant matrix on the pattern of `edges` (sorted by (first,
// second), unique) plus the diagonal; off-diagonal magnitudes drawn from `rng` in edge order
// (graphs.cpp says how).
Csr spd_from_edges(Index n, const std::vector<Edge> &edges, SplitMix64 &rng);

// The whole rgg2d matrix (rgg2d.cpp).
Csr rgg2d_matrix(const Params &p);

// The whole matrix of the planted-community kind "communities" (communities.cpp) and its
// planted community of every vertex.
Csr communities_matrix(const Params &p);
std::vector<Index> communities_planted(const Params &p);

// Graph helpers of graphs.cpp shared with communities.cpp.
void sort_unique(std::vector<Edge> &edges);

// Planted communities of powerlaw / disconnected / communities.
std::vector<Index> graph_communities(const Params &p);

// Chung-Lu weight of the vertex of rank r (0-based) in its community:
// round-down of 2^30 * (r + 1)^(-alpha), at least 1, with alpha = alpha_q24 / 2^24.
// Integer fixed-point throughout (log2 by repeated squaring, 2^-x from square roots of 2
// which IEEE rounds exactly), so no libm pow() whose last bits vary between platforms
// can change which edges are drawn. Relative error about 1e-7 * (1 + alpha) besides the
// rounding down to an integer: plenty for sampling degrees.
std::uint64_t powerlaw_weight(std::uint64_t rank, std::uint64_t alpha_q24);

// rgg2d: vertex v is the point (x, y) = points[v], drawn in vertex order from the edge
// stream of the seed as the top 30 bits of two successive SplitMix64 outputs, so the
// coordinates are integers in [0, 2^30) (the unit square scaled by 2^30) and no floating
// point touches the geometry. u and v (u != v) are joined iff
//   (x_u - x_v)^2 + (y_u - y_v)^2 <= rgg2d_radius2(n, deg).
struct Point2 {
  std::uint32_t x, y;
};
std::vector<Point2> rgg2d_points(const Params &p);

// Squared radius in the 2^30-scaled integer coordinates for an expected degree of about
// deg among n uniform points: pi R^2 n = deg, i.e.
//   R^2 = floor(deg * 2^60 / (pi * n))  with pi ~ 355/113 (relative error 8.5e-8),
// by exact 64-bit long division of (113 deg) * 2^60 by 355 n. Saturates at 2^61, which
// exceeds every squared distance in the square (2 (2^30 - 1)^2), i.e. the complete graph.
// n = 0 gives 0. Requires n <= 2^48 (checked by resolve()) so nothing overflows. Points
// near the border have fewer neighbours, so the average degree is below deg by a relative
// amount of about (8 / (3 pi)) R / 2^30 (1% at n = 20000, deg = 8).
std::uint64_t rgg2d_radius2(std::uint64_t n, std::uint64_t deg);

// Random off-diagonal magnitudes: k * 2^-20 for k uniform in [kValueLo, 2^20], i.e.
// approximately U(0.1, 1]. Dyadic, so a diagonal 1 + sum |a_ij| is exact for rows with
// fewer than 2^33 entries.
constexpr std::uint64_t kValueLo = 104858; // ceil(0.1 * 2^20)
constexpr std::uint64_t kValueHi = 1u << 20;

// ---- the compound-entry kinds (compound_kinds.cpp) ----
//
// Their scalar CSR is the real expansion of a matrix of complex (helmholtz2dc, block size 2) or
// quaternion (quatsurf, block size 4) entries, in exactly the form of Mat aijcompound's entries
// (src/aijcompound/entry.hpp; not included here, a shared folder includes no component):
//   a + bi         -> [a -b; b a]
//   w + xi + yj + zk -> L(q) = [w -x -y -z; x w -z y; y z w -x; z -y x w]
// Every stored block has all its bs * bs scalars (explicit zeros included), block columns in
// ascending order, so detect_complex / detect_quaternion hold and from_scalar keeps every block.
// A zero component is stored as +0.0 where the negation in the form would give -0.0 (== equal;
// this keeps the values bitwise symmetric, and a zero term never changes a sum that starts at +0).
// Rows are scalar rows: any row range works; one that is not a multiple of the block size cuts a
// block row, whose remaining rows the next range holds.

// Rows [begin, end) of helmholtz2dc and quatsurf.
Csr helmholtz2dc_rows(const Params &p, Index begin, Index end);
Csr quatsurf_rows(const Params &p, Index begin, Index end);

// helmholtz2dc's damping kh^2 * eps, the negated imaginary part of the diagonal: the real
// expansion is symmetric iff it is 0. kh^2 is rounded once by itself (std::fma with a zero addend),
// then one product: each value is one correctly rounded operation, hence the same bits everywhere.
double helmholtz2dc_damping(const Params &p);

// quatsurf's torus: vertex (u, v), 0 <= u < nu = p.nx, 0 <= v < nv = p.ny, block row u + nu v, at
//   (x, y, z) = 4 ((R + rho(v)) a(u), (R + rho(v)) b(u), M h(v)) + J jitter(u + nu v)   (integers)
// where (a, b) walks the perimeter of the square [-M, M]^2 counterclockwise from (M, 0) (8M lattice
// points, M = ceil(nu / 8), at least 1), u taking the point floor(8M u / nu) steps along it; (rho, h)
// walks the square [-m, m]^2 the same way (m = ceil(nv / 8)), and R = 2m + 1. Without the jitter
// each loop v = const is the square scaled about the z axis (a homothety: R + rho >= m + 1 > 0),
// distinct (u, v) give distinct points (an embedded polyhedral torus), neighbours at least
// 4 J apart with J = min(M, m + 1), and no sin/cos is involved. Its large flat facets would make
// most entries real (the imaginary part of an entry is the difference of the area vectors of the
// edge's two faces: a discrete mean curvature), so every vertex is moved by J times a jitter in
// {-1, 0, 1}^3 drawn from the seed (per vertex id: SplitMix64(derive_seed(seed, kJitterStream) ^
// (id * 0x9E3779B97F4A7C15)).bounded(3) - 1 for x, y, z in turn): every entry is then a general
// quaternion, and neighbours stay at least (4 - 2 sqrt(3)) J > 0 apart.
struct Point3 {
  std::int64_t x, y, z;
};
Point3 quatsurf_point(const Params &p, Index u, Index v);

// Its triangulation: quad (u, v) = corners a (u, v), b (u+1, v), c (u+1, v+1), d (u, v+1) (indices
// mod nu, nv) is cut along a-c ("slash": triangles a b c, a c d) or else b-d (a b d, b c d); all
// counterclockwise in (u, v), i.e. oriented by the outward normal. Odd rows are all slashes, even
// rows alternate in pairs along u (slash iff bit 1 of u is 0), so for nu, nv >= 3 vertex valence is
// 5, 6 or 7 (the mean is exactly 6 on any torus triangulation, by Euler's formula: V - E + F = 0).
// Cutting every quad alike would give valence 6 everywhere, as would any choice per row.
inline bool quatsurf_slash(Index u, Index v) { return (v & 1) != 0 || (u & 2) == 0; }

// B = (12 m + 5) M >= 4 (3m + 1) M + J bounds |coordinate| on the torus; resolve() keeps it at
// most kQuatsurfMaxCoord. Then edges are below 2B per coordinate, a face term -e_s e_t below
// 36 B^2 in |.|_1, a row's diagonal sum (8 triangles, at most 2 terms each) below 576 B^2 < 2^53:
// every integer is exact as a double, and nothing overflows int64.
std::int64_t quatsurf_coord_bound(Index nu, Index nv);
constexpr std::int64_t kQuatsurfMaxCoord = std::int64_t{1} << 21;

// The values are the integer quaternions times 2^-(2 s), s = quatsurf_scale_bits: the bit length
// of 4 max(M, R), so that edges are O(1) and entries O(1).
int quatsurf_scale_bits(const Params &p);

} // namespace pgk::gen::detail

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

#include <cstdint>
#include <utility>
#include <vector>

namespace pgk::gen::detail {

enum class Kind {
  Lap2d5,
  Lap3d7,
  Lap3d27,
  Elast3d,
  Aniso2d,
  Aniso3d,
  Convdiff2d,
  Convdiff3d,
  Fem2d,
  Helmholtz2d,
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
  double ax = 1, ay = 1, az = 1;              // aniso3d
  double lambda = 1, mu = 1;                  // elast3d
  double peclet = 0;                          // convdiff*, helmholtz2d
  double side = 1, reaction = 1;              // fem2d: domain [0, side]^2, -Lap u + reaction u
  double kh = 0.1;                            // helmholtz2d: k h
  double avgdeg = 0, gamma = 2.5, mixing = 0; // powerlaw
  Index intra = 8, inter = 2;                 // communities
  std::uint64_t seed = 1;
};

Params resolve(const Spec &spec); // throws std::invalid_argument
Index nrows_of(const Params &p);  // validated by resolve: fits in Index

bool is_grid_kind(Kind k); // generated row by row (stencils, path, empty)

// Rows [begin, end) of a grid kind.
Csr stencil_rows(const Params &p, Index begin, Index end);

// The whole matrix of a random graph kind.
Csr graph_matrix(const Params &p);

// ---- shared by the random graph kinds (graphs.cpp, rgg2d.cpp) ----

using Edge = std::pair<Index, Index>; // undirected, first < second

// Edges, permutations and values of a graph kind come from separate streams of its seed.
enum Stream : std::uint64_t { kEdgeStream = 1, kPermutationStream = 2, kValueStream = 3 };
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

} // namespace pgk::gen::detail

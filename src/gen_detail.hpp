// Internals of generators.cpp shared with gen_stencils.cpp and gen_graphs.cpp (and the
// unit tests); not a public interface.
//
// Floating-point discipline: a compiler may fuse a*b + c into one FMA (GCC does by
// default in GNU mode when the target has FMA), which changes the rounding. Matrix values
// are therefore computed without a multiply feeding an add or subtract: stencil constants
// are sums of the parameters, random values are dyadic (k * 2^-20) so that their sums are
// exact whatever the order or fusion, and the power-law weights use integer arithmetic.
#pragma once

#include "csr.hpp"
#include "generators.hpp"

#include <cstdint>
#include <vector>

namespace pgk::gen::detail {

enum class Kind {
  Lap2d5,
  Lap3d7,
  Lap3d27,
  Elast3d,
  Aniso2d,
  Convdiff2d,
  Convdiff3d,
  Random,
  Disconnected,
  Hubrow,
  Powerlaw,
  Path,
  Empty,
};

// A Spec after validation, with defaults applied. Only the fields of `kind` are meaningful.
struct Params {
  Kind kind = Kind::Empty;
  Index nx = 1, ny = 1, nz = 1;               // grid kinds (2D kinds keep nz = 1)
  Index n = 0;                                // graph kinds, path, empty: vertex count
  Index deg = 0;                              // random, disconnected, hubrow
  Index parts = 1;                            // disconnected
  Index hubdeg = 0;                           // hubrow
  Index communities = 1;                      // powerlaw
  int variant = 1;                            // aniso2d
  double lambda = 1, mu = 1;                  // elast3d
  double peclet = 0;                          // convdiff*
  double avgdeg = 0, gamma = 2.5, mixing = 0; // powerlaw
  std::uint64_t seed = 1;
};

Params resolve(const Spec &spec); // throws std::invalid_argument
Index nrows_of(const Params &p);  // validated by resolve: fits in Index

bool is_grid_kind(Kind k); // generated row by row (stencils, path, empty)

// Rows [begin, end) of a grid kind.
Csr stencil_rows(const Params &p, Index begin, Index end);

// The whole matrix of a random graph kind.
Csr graph_matrix(const Params &p);

// Planted communities of powerlaw / disconnected.
std::vector<Index> graph_communities(const Params &p);

// Chung-Lu weight of the vertex of rank r (0-based) in its community:
// round-down of 2^30 * (r + 1)^(-alpha), at least 1, with alpha = alpha_q24 / 2^24.
// Integer fixed-point throughout (log2 by repeated squaring, 2^-x from square roots of 2
// which IEEE rounds exactly), so no libm pow() whose last bits vary between platforms
// can change which edges are drawn. Relative error about 1e-7 * (1 + alpha) besides the
// rounding down to an integer: plenty for sampling degrees.
std::uint64_t powerlaw_weight(std::uint64_t rank, std::uint64_t alpha_q24);

// Random off-diagonal magnitudes: k * 2^-20 for k uniform in [kValueLo, 2^20], i.e.
// approximately U(0.1, 1]. Dyadic, so a diagonal 1 + sum |a_ij| is exact for rows with
// fewer than 2^33 entries.
constexpr std::uint64_t kValueLo = 104858; // ceil(0.1 * 2^20)
constexpr std::uint64_t kValueHi = 1u << 20;

} // namespace pgk::gen::detail
